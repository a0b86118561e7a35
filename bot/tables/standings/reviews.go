package standings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// Reviews is the tables' side of «🔍 Разбор»: a finished game of a game
// whose robots review is kept apart from its table (record.Table.Finished,
// kept by the job that records it, for store.GameRetention); its people
// get the button under their private result (a practice table: under its
// final message), and /history in private lists their kept games with
// one each. A press is answered at once: from the review kept with the
// game, or by queueing the request for the reviews role's pool — the
// review itself never runs here.
type Reviews struct {
	store   ReviewStore
	games   view.Games
	views   *view.Renderer
	tx      *txn.Txn
	answer  lobby.Answer
	now     func() time.Time
	metrics *metrics.Metrics // nil: not measured
	// wake tells the reviews' pool a request was queued.
	wake func()
}

// ReviewStore keeps the finished games for their reviews, and the queue
// of reviews asked for.
type ReviewStore interface {
	Schedule(ctx context.Context, q store.Queue, name string, at time.Time) error
	KeepGame(ctx context.Context, ref string, people []int64, data []byte) error
	KeptGame(ctx context.Context, ref string) ([]byte, error)
	KeptGames(ctx context.Context, user int64, n int) ([]string, error)
	Review(ctx context.Context, ref string, user int64) ([]byte, error)
}

// NewReviews builds the reviews' presses; answer answers them.
func NewReviews(st ReviewStore, views *view.Renderer, tx *txn.Txn, answer lobby.Answer, now func() time.Time, m *metrics.Metrics) *Reviews {
	return &Reviews{store: st, games: views.Games(), views: views, tx: tx, answer: answer, now: now, metrics: m, wake: func() {}}
}

// OnQueued sets what a queued review request calls: the reviews' pool's
// wake-up.
func (rv *Reviews) OnQueued(wake func()) { rv.wake = wake }

// historyGames is how many kept games /history in private lists.
const historyGames = 8

// keep keeps a finished game for its reviews (a retried job keeps it
// once: the store's first write wins).
func (rv *Reviews) keep(ctx context.Context, f *record.Table) error {
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return rv.store.KeepGame(ctx, record.GameRef(f), f.People(), data)
}

// reviewed is the game gameID when the bot reviews its games.
func (rv *Reviews) reviewed(gameID string) (adapter.Game, bool) {
	g, ok := rv.games.Get(gameID)
	return g, ok && adapter.Reviewable(g)
}

// OnReview answers a press of «🔍 Разбор».
func (rv *Reviews) OnReview(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data) error {
	user := q.From.ID
	l := rv.views.Loc(rv.tx.UserLang(&q.From))
	ref := record.RefOf(p.Table, p.GameNo, time.Unix(int64(p.Args[0]), 0))
	f, err := rv.kept(ctx, ref)
	if errors.Is(err, store.ErrNotFound) {
		rv.metrics.Review("gone")
		rv.answer(ctx, q, l.T("review.gone"), true, "")
		return nil
	}
	if err != nil {
		return err // not answered: the redelivered press tries again
	}
	l = rv.views.Loc(f.Lang)
	if f.PlayedBy(user) < 0 {
		rv.answer(ctx, q, l.T("error.not_yours"), false, "")
		return nil
	}
	g, ok := rv.reviewed(f.GameID)
	if !ok {
		rv.answer(ctx, q, l.T("review.failed"), false, "")
		return nil
	}
	kept, err := rv.store.Review(ctx, ref, user)
	if err == nil {
		var rep review.Report
		if err := rep.UnmarshalBinary(kept); err == nil {
			rv.metrics.Review("kept")
			rv.answer(ctx, q, "", false, "")
			return rv.tx.Queue(ctx, record.ID(user, 0), updateID, outbox.Entry{ChatID: user, Message: rep.Message(l), Reply: true})
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	// Asked twice before it is made: the queue holds one request.
	if err := rv.store.Schedule(ctx, store.Reviews, store.ReviewRequest(ref, user), rv.now()); err != nil {
		return err
	}
	rv.metrics.Review("queued")
	rv.wake()
	rv.answer(ctx, q, l.T("review.queued", "Pro", topLevel(l, g)), false, "")
	return nil
}

// kept is the finished game ref as kept; a game whose job has not kept it
// yet (the button of a practice table's last message is pressed at once)
// is kept here from the job.
func (rv *Reviews) kept(ctx context.Context, ref string) (*record.Table, error) {
	data, err := rv.store.KeptGame(ctx, ref)
	if errors.Is(err, store.ErrNotFound) {
		id, _, _, _ := record.ParseRef(ref)
		t, _, lerr := rv.tx.Load(ctx, id)
		if lerr != nil {
			return nil, lerr
		}
		for _, j := range t.Jobs {
			if j.Finished != nil && record.GameRef(j.Finished) == ref {
				return j.Finished, rv.keep(ctx, j.Finished)
			}
		}
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	f := &record.Table{}
	if err := json.Unmarshal(data, f); err != nil {
		return nil, fmt.Errorf("kept game %s: %w", ref, err)
	}
	return f, nil
}

// topLevel is the name of the robots' top level of a reviewed game
// («Профи»): the level that reviews.
func topLevel(l adapter.Loc, g adapter.Game) string {
	levels := adapter.Levels(g) // a reviewed game has some
	return view.LevelLabel(l, g, levels[len(levels)-1])
}

// PrivateHistory answers /history in private: the person's kept games,
// newest first, each with its review button.
func (rv *Reviews) PrivateHistory(ctx context.Context, r txn.Request, l adapter.Loc) error {
	user := r.Msg.From.ID
	refs, err := rv.store.KeptGames(ctx, user, historyGames)
	if err != nil {
		return err
	}
	var kept []*record.Table
	for _, ref := range refs {
		f, err := rv.kept(ctx, ref)
		if errors.Is(err, store.ErrNotFound) {
			continue // gone since it was listed
		}
		if err != nil {
			return err
		}
		kept = append(kept, f)
	}
	return rv.tx.Reply(ctx, r.UpdateID, r.Msg.Chat.ID, rv.History(l, user, kept))
}

// History is /history in private: user's kept games (newest first) as
// numbered lines — when, the game, where, the place — and a review
// button for each.
func (rv *Reviews) History(l adapter.Loc, user int64, kept []*record.Table) adapter.Message {
	var lines []string
	var rows [][]adapter.Button
	for _, f := range kept {
		seat := f.PlayedBy(user)
		g, ok := rv.reviewed(f.GameID)
		if seat < 0 || !ok {
			continue
		}
		n, title := len(lines)+1, adapter.Title(l, g)
		lines = append(lines, l.T("review.history_line", "N", n, "When", view.Ago(l, rv.now().Sub(f.Updated)),
			"Game", title, "Where", rv.where(l, f), "Place", rv.place(l, f, seat)))
		rows = append(rows, []adapter.Button{view.ReviewButtonOf(l.T("review.history_button", "N", n, "Game", title), f.ID, f.GameNo, f.Started)})
	}
	if len(lines) == 0 {
		return adapter.Message{Text: l.T("review.history_empty")}
	}
	return adapter.Message{Text: l.T("review.history_title") + "\n\n" + strings.Join(lines, "\n"), Keyboard: rows}
}

// where names where a kept game was played: the group, or practice.
func (rv *Reviews) where(l adapter.Loc, f *record.Table) string {
	switch {
	case view.PracticeChat(f.ChatID):
		return l.T("review.history_practice")
	case f.Title != "":
		return l.T("review.history_group_named", "Title", adapter.Esc(f.Title))
	}
	return l.T("review.history_group")
}

// place is the seat's place in a kept game, as its results list says.
func (rv *Reviews) place(l adapter.Loc, f *record.Table, seat int) string {
	g, st, err := rv.views.Decode(f)
	if err != nil || g == nil {
		return ""
	}
	for _, fs := range adapter.FinalList(adapter.View(f), st.Result(), st.Over()) {
		if fs.Seat == seat {
			return l.T("review.history_place", "Place", fs.Place, "Players", len(f.Seats))
		}
	}
	return ""
}
