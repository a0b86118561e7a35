package play

import (
	"slices"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// Seats is what a seat's buttons do: a move, a step of a multi-press
// choice, «I'm back», a seat's private information, a hint.
type Seats struct {
	games    view.Games
	views    *view.Renderer
	moves    *Moves
	aiBudget time.Duration
	log      zerolog.Logger
}

// NewSeats builds the seats' buttons.
func NewSeats(views *view.Renderer, moves *Moves, aiBudget time.Duration, log zerolog.Logger) *Seats {
	return &Seats{games: views.Games(), views: views, moves: moves, aiBudget: aiBudget, log: log}
}

// buttonSeat is the seat a seat's button names in the table's current
// game, or the refusal: a button of another game, or of one no longer
// played, is stale; a seat the table lacks makes a bad button. Whether the
// presser may press it is the caller's question (seatFor, onLeave).
func buttonSeat(t *record.Table, p callback.Data) (int, *record.Seat, error) {
	if t.Phase != record.PhasePlaying || p.GameNo != t.GameNo {
		return 0, nil, refusal.New("error.stale_game")
	}
	seat := p.Args[0]
	s := t.Seat(game.Seat(seat))
	if s == nil {
		return 0, nil, refusal.New("error.bad_button")
	}
	return seat, s, nil
}

// seatFor checks that a game button belongs to the current game and to the
// presser, and (unless the game's buttons stay live) was drawn after the
// seat's last action.
func (p *Seats) seatFor(t *record.Table, d callback.Data, who int64) (int, error) {
	seat, s, err := buttonSeat(t, d)
	if err != nil {
		return 0, err
	}
	if !s.Human() || s.UserID != who {
		return 0, refusal.New("error.not_yours")
	}
	if len(d.Args) > 1 && d.Args[1] != s.Nonce {
		if g, ok := p.games.Get(t.GameID); !ok || !adapter.LiveButtons(g) {
			return 0, refusal.New("error.stale")
		}
	}
	return seat, nil
}

// seatGame is the seat a press or a page's request is for (seatFor) with
// the table's game decoded, or the refusal why the presser may not act
// there: what every seat's button but «I'm back» and «leave» opens with.
func (p *Seats) seatGame(t *record.Table, d callback.Data, who int64) (int, adapter.Game, game.State, error) {
	seat, err := p.seatFor(t, d, who)
	if err != nil {
		return 0, nil, nil, err
	}
	g, st, err := txn.Decode(p.views, t)
	if err != nil {
		return 0, nil, nil, err
	}
	return seat, g, st, nil
}

// OnAction makes the presser's move.
func (p *Seats) OnAction(t *record.Table, ch *txn.Change, d callback.Data, who int64) error {
	seat, g, st, err := p.seatGame(t, d, who)
	if err != nil {
		return err
	}
	t.Seats[seat].Timeouts = 0 // the player is back
	if err := p.moves.Apply(t, ch, g, st, game.Seat(seat), game.Action(d.Args[2]), false); err != nil {
		return err
	}
	if t.Event != nil && t.Event.Seat == seat && t.Event.Key == "event.timeout" {
		t.Event = nil
	}
	ch.Answer = view.MoveToast(p.views.Loc(t.Lang), t.Seats[seat].Moved)
	return nil
}

// OnBack ends auto-play for a player who had let their turns run out.
func (p *Seats) OnBack(t *record.Table, ch *txn.Change, d callback.Data, who int64) error {
	seat, err := p.seatFor(t, d, who)
	if err != nil {
		return err
	}
	if t.Seats[seat].Timeouts == 0 {
		return refusal.New("auto.not_auto")
	}
	t.Seats[seat].Timeouts = 0
	if t.Event != nil && t.Event.Seat == seat {
		t.Event = nil
	}
	if g, st, err := txn.Decode(p.views, t); err == nil {
		t.Seats[seat].Due = time.Time{} // the player gets a full turn again
		p.moves.Schedule(t, g, st, false)
	}
	ch.Answer = p.views.Loc(t.Lang).T("auto.welcome_back")
	return nil
}

// OnDraft records one press of a multi-press choice on a seat's keyboard.
func (p *Seats) OnDraft(t *record.Table, ch *txn.Change, d callback.Data, who int64) error {
	seat, g, st, err := p.seatGame(t, d, who)
	if err != nil {
		return err
	}
	dg, ok := g.(adapter.DraftGame)
	if !ok {
		return refusal.New("error.bad_button")
	}
	next, ok := dg.Draft(st, game.Seat(seat), t.Seats[seat].Draft, d.Args[2])
	if !ok {
		return refusal.New("error.bad_choice")
	}
	if slices.Equal(next, t.Seats[seat].Draft) {
		return refusal.ErrNoChange
	}
	t.Seats[seat].Draft = next
	return nil
}

// PressDraft is Tables.PressDraft.
func (p *Seats) PressDraft(t *record.Table, data string, user int64) error {
	d, err := callback.Parse(data)
	if err != nil || d.Op != callback.Draft || d.Table != t.ID {
		return refusal.New("error.bad_button")
	}
	return p.OnDraft(t, &txn.Change{}, d, user)
}

// SeatInfo is a seat's private information (InfoGame) for the person who
// asked, or the refusal why not: the chat's alert and the page's are one.
// The button carries no nonce, so it is never stale within its game.
func (p *Seats) SeatInfo(t *record.Table, d callback.Data, who int64) (string, error) {
	seat, g, st, err := p.seatGame(t, callback.Data{Op: d.Op, Table: d.Table, GameNo: d.GameNo, Args: d.Args[:1]}, who)
	if err != nil {
		return "", err
	}
	info, ok := g.(adapter.InfoGame)
	if !ok {
		return "", refusal.New("error.bad_button")
	}
	return info.Info(p.views.Loc(t.Lang), p.views.AdapterView(t), st, seat), nil
}

// ToAct reports whether a seat has to act in the table's game now.
func (p *Seats) ToAct(t *record.Table, seat int) bool {
	if t == nil || t.Phase != record.PhasePlaying {
		return false
	}
	_, st, err := txn.Decode(p.views, t)
	return err == nil && slices.Contains(st.ToAct(), game.Seat(seat))
}

// OnHint answers a press of «💡 Подсказка»: the top level's move for the
// seat, kept on the seat (and the seat marked unrated) in this change.
// The hand then shows the reason and marks the advised button; the person
// is not rated for this game, and the group's table names them.
func (p *Seats) OnHint(t *record.Table, ch *txn.Change, d callback.Data, who int64) error {
	seat, g, st, err := p.seatGame(t, d, who)
	if err != nil {
		return err
	}
	hg, ok := view.HintGame(g)
	if !ok || !t.Hints {
		return refusal.New("hints.off")
	}
	if !view.MayAsk(st, seat) {
		return refusal.New("error.not_your_turn")
	}
	s := &t.Seats[seat]
	if view.HintInForce(t, seat) != nil {
		return refusal.ErrNoChange // shown already
	}
	lv := adapter.Levels(g)
	dec := adapter.Decision{Level: lv[len(lv)-1], Seed: seatSeed(t), Memory: t.Memory, Budget: p.aiBudget}
	h := hg.Hint(p.views.Loc(t.Lang), p.views.AdapterView(t), st, seat, dec)
	if h.Action >= 0 && !slices.Contains(st.Legal(game.Seat(seat)), h.Action) {
		p.log.Error().Str("table", t.ID).Int("seat", seat).Int("action", int(h.Action)).Msg("hint is not a legal move")
		return refusal.New("error.busy")
	}
	s.Hint = &record.SeatHint{At: len(t.Log), Action: h.Action, Why: h.Why}
	s.Hinted = true
	ch.Answer = p.views.Loc(t.Lang).T("hints.shown")
	return nil
}
