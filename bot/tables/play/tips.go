package play

import (
	"context"
	"slices"
	"strconv"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// First-game tips. The first time a person plays a game (no recorded game
// of it in any chat, and tips not turned off), their seat is Learning for
// the game: after each move the game's TipGame names the key moments the
// move was for them, and the first of those not yet shown this game shows
// on their hand in private as a short tip until their next move, with a
// button that turns tips off for good. The tips shown are kept on the
// seat, so each comes once a game; a game recorded makes the next one no
// first game.

// Tips are the first-game tips: who is learning, what they are taught,
// and «tips off».
type Tips struct {
	store   TipsStore
	results Played
	tx      *txn.Txn
	views   *view.Renderer
}

// TipsStore is where a person's «tips off» is kept.
type TipsStore interface {
	Pointer(ctx context.Context, key string) (string, error)
	SetPointer(ctx context.Context, key, value string) error
}

// Played is what the tips ask of the results: whether a person has a
// recorded game of a game.
type Played interface {
	Played(ctx context.Context, user int64, gameID string) bool
}

// NewTips builds the tips.
func NewTips(st TipsStore, res Played, tx *txn.Txn, views *view.Renderer) *Tips {
	return &Tips{store: st, results: res, tx: tx, views: views}
}

// tipsOffKey is the pointer that says a person turned tips off.
func tipsOffKey(user int64) string { return "tipsoff:" + strconv.FormatInt(user, 10) }

// Learning reports whether user plays their first game of g with tips on.
// It reads the store (from startGame's closure: reads only).
func (tp *Tips) Learning(ctx context.Context, g adapter.Game, user int64) bool {
	if _, ok := g.(adapter.TipGame); !ok {
		return false
	}
	if off, err := tp.store.Pointer(ctx, tipsOffKey(user)); err == nil && off != "" {
		return false
	}
	return !tp.results.Played(ctx, user, g.ID())
}

// Teach gives each learning person at most one tip about the move from
// before to after: the first key moment of a kind they have not been told
// about this game. The tip shows on their hand until their next move, so
// it costs no call of its own and never holds the table's queue; while one
// shows, later moments wait for a moment of their kind after it.
func (tp *Tips) Teach(t *record.Table, g adapter.Game, before, after game.State) {
	tg, ok := g.(adapter.TipGame)
	if !ok {
		return
	}
	for i := range t.Seats {
		s := &t.Seats[i]
		if !s.Learning || !s.Human() || s.Leaver != nil || s.Auto() || s.Tip != "" {
			continue // the bot plays for an absent person: nobody reads
		}
		for _, tip := range tg.Tips(before, after, i) {
			if !slices.Contains(s.Tips, tip) {
				s.Tips = append(s.Tips, tip)
				s.Tip = tip
				break
			}
		}
	}
}

// OnTipsOff turns tips off for the presser for good, and at this table.
func (tp *Tips) OnTipsOff(ctx context.Context, updateID int64, who int64, p callback.Data) (string, error) {
	if err := tp.store.SetPointer(ctx, tipsOffKey(who), "1"); err != nil {
		return "", err
	}
	t, _, err := tp.tx.Transact(ctx, p.Table, updateID, func(t *record.Table, ch *txn.Change) error {
		changed := false
		for i := range t.Seats {
			if t.Seats[i].UserID == who && t.Seats[i].Learning {
				t.Seats[i].Learning, t.Seats[i].Tip = false, ""
				changed = true
			}
		}
		if !changed {
			return refusal.ErrNoChange
		}
		return nil
	})
	if err := refusal.Settle(err); err != nil {
		return "", err
	}
	return tp.views.TableLoc(t).T("tips.off"), nil
}
