package tables

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// Long games. A table whose time for a move is an hour or more plays over
// days (record.LongTurn): a person's deadline is a clock time in the
// group's zone, the night does not count (record.Deadline), and they get
// one reminder in private when about a quarter of their time is left —
// a timer on their seat like the deadline itself, fired by the tables'
// timers, so a waiting table is its record and one entry of the store's
// Timers queue, and a restart loses nothing and sends nothing twice.
// Robots keep their pace; the bot plays for a person after their time ran
// out twice in a row, as in any game, and tells the group once.
//
// A long game does not hold its chat: a chat (or topic) has a second
// table (record.SecondID) where a quick game may go on meanwhile. A
// command names no table, so route picks the one it means; every button
// names its own.

// longTurn makes seat i's turn, just given d of time at now, a long one
// when it is: a person's (not one the bot plays for) at a game that takes
// turns, with an hour or more. Its deadline is then the group's clock time
// with the night not counting, and its reminder is due when a quarter of
// that time is left (the same clock: never at night). A group's table
// reminds; a practice table, whose chat is the person's own, does not.
func (m *moves) longTurn(t *record.Table, g adapter.Game, i int, now time.Time, d time.Duration) {
	s := &t.Seats[i]
	s.Turn = nil
	if !s.Human() || s.Auto() || !view.HasTurnTime(g) || !record.Long(d) {
		return
	}
	loc, night := t.Location(), record.DefaultNight()
	s.Due = record.Deadline(now, d, loc, night)
	s.Turn = &record.Turn{Nonce: s.Nonce, Night: record.Skips(now, s.Due, d)}
	if !t.Practice() {
		s.Turn.Remind = record.Deadline(now, d-d/4, loc, night)
	}
}

// remind queues the reminders due at now, one private message each, and
// reports whether it did anything. A reminder goes to a person who still
// has this turn to make: their seat acts, with the nonce the turn began
// with (record.Seat.RemindAt), the bot does not play for them and can
// write to them, and the deadline is still ahead (timers served late, after
// the bot was down for hours, time the turn out without a reminder first).
// It is queued in the change that clears it, so it is posted once whatever
// crashes when.
func (m *moves) remind(t *record.Table, ch *change, st game.State, now time.Time) bool {
	acting := st.ToAct()
	reminded := false
	for i := range t.Seats {
		s := &t.Seats[i]
		if at := s.RemindAt(); at.IsZero() || now.Before(at) {
			continue
		}
		s.Turn.Remind = time.Time{}
		reminded = true
		if !slices.Contains(acting, game.Seat(i)) || !s.Human() || s.Auto() || s.Unreachable || !now.Before(s.Due) {
			continue // the turn is not theirs to make any more, or its time is up (its timeout says so)
		}
		ch.outbox = append(ch.outbox, outbox.Entry{ChatID: s.UserID, Message: m.views.Reminder(t, i)})
	}
	return reminded
}

// toldAuto tells the group of a long game, once, that the bot plays for
// seat from now on: its time ran out a second time in a row. (The table's
// timeout notice is an edit, which nobody notices for hours.)
func (m *moves) toldAuto(t *record.Table, ch *change, seat int) {
	if t.Seats[seat].Auto() && !t.Practice() && m.views.Long(t) {
		ch.post(t, m.views.AutoNotice(t, seat))
	}
}

// onZone is the lobby's time zone button: with no zone it shows the zones
// (or hides them), with one it sets the group's zone, kept for its next
// games like the time for a move.
func (lb *lobby) onZone(t *record.Table, ch *change, p callback.Data) error {
	if !lb.views.Long(t) {
		return refusal.New("error.stale") // the zone matters to long games only
	}
	if len(p.Args) < 2 {
		t.ZonePick = !t.ZonePick
		return nil
	}
	zones := record.Zones()
	if p.Args[1] < 0 || p.Args[1] >= len(zones) {
		return refusal.New("error.bad_button")
	}
	t.Zone, t.ZonePick = zones[p.Args[1]].Name, false
	ch.answer = lb.loc(t.Lang).T("lobby.zone_set", "Zone", view.ZoneName(lb.loc(t.Lang), t))
	return nil
}

// turnChoices are the times for a move t's lobby offers. A chat holds at
// most one long game and one quick one: its second table plays quick
// games only, and its own table, while the second is taken, long ones
// only. It reads the store.
func (lb *lobby) turnChoices(ctx context.Context, t *record.Table) []time.Duration {
	switch {
	case t.Practice():
		return view.TurnChoices()
	case record.IsSecond(t.ID):
		return view.TurnChoicesOf(false)
	case lb.busy(ctx, record.Beside(t.ID)):
		return view.TurnChoicesOf(true)
	}
	return view.TurnChoices()
}

// turnAllowed refuses to start t's game at a time for a move of a kind
// its chat has no room for (turnChoices): a long game at the second table,
// a quick one at the group's own table while the second is taken. The time
// itself may be one the lobby does not offer (a TURN_TIMEOUT of 5 s).
func (lb *lobby) turnAllowed(ctx context.Context, t *record.Table, g adapter.Game) error {
	if !view.HasTurnTime(g) || t.Practice() {
		return nil
	}
	long := record.Long(lb.views.TurnTime(t))
	switch {
	case record.IsSecond(t.ID) && long:
		return refusal.New("lobby.second")
	case !record.IsSecond(t.ID) && !long && lb.busy(ctx, record.Beside(t.ID)):
		return refusal.New("lobby.turn_long_only")
	}
	return nil
}

// busy reports whether table id has a lobby open or a game on.
func (c *core) busy(ctx context.Context, id string) bool {
	t, _, err := c.load(ctx, id)
	return err == nil && t.Phase != record.PhaseIdle
}

// newGameTable is the table of a group where a new game goes, given the
// group's own table own: the own table, unless it plays a long game (then
// the second table: a quick game beside it) or is idle while the second is
// taken (then the second, which says what is on there). A lobby open at
// either is where it is. It only reads the store.
func (c *core) newGameTable(ctx context.Context, own string) string {
	t, _, err := c.load(ctx, own)
	if err != nil || t.Phase == record.PhaseLobby || t.Practice() {
		return own
	}
	second := record.Beside(own)
	switch {
	case t.Phase == record.PhasePlaying && c.views.Long(t):
		return second
	case t.Phase == record.PhaseIdle && c.busy(ctx, second):
		return second
	}
	return own
}

// followOwn gives a second table about to open a lobby its group's
// language, title and zone (the group's settings live at its own table),
// and a quick time for a move when it has none. It runs inside the
// change that opens the lobby, so a refused press or command changes
// nothing; it only reads the store.
func (c *core) followOwn(ctx context.Context, t *record.Table) error {
	if !record.IsSecond(t.ID) || t.Phase != record.PhaseIdle {
		return nil // its lobby or game goes on as it is
	}
	own, _, err := c.load(ctx, record.Beside(t.ID))
	if err != nil {
		return err
	}
	t.Lang, t.Title, t.Zone = own.Lang, own.Title, own.Zone
	if record.Long(c.views.TurnTime(t)) {
		t.TurnTime = time.Minute
	}
	return nil
}

// route is the table a group's command acts on, and what it does there. A
// command names no table; with a second game on, /newgame goes where a new
// game goes (newGameTable), /table posts both tables, /stop asks which game
// to stop, and /table, /stop and /rules act on the second table when only
// it is taken. Everything else acts on the group's own table, which keeps
// the group's settings and its results commands.
func (c *commands) route(ctx context.Context, r request, fn func(t *record.Table, ch *change) error) (string, func(t *record.Table, ch *change) error, error) {
	own := record.ID(r.msg.Chat.ID, threadOf(r.msg))
	second := record.Beside(own)
	switch r.name {
	case "newgame":
		return c.newGameTable(ctx, own), func(t *record.Table, ch *change) error {
			if err := c.followOwn(ctx, t); err != nil {
				return err
			}
			return fn(t, ch)
		}, nil
	case "table", "stop", "rules":
	default:
		return own, fn, nil
	}
	ownBusy, secondBusy := c.busy(ctx, own), c.busy(ctx, second)
	switch {
	case ownBusy && secondBusy && r.name == "table":
		// Both are posted anew: the second first, then the group's own
		// with the command.
		_, _, err := c.transact(ctx, second, 0, func(t *record.Table, ch *change) error {
			if t.Phase == record.PhaseIdle {
				return refusal.ErrNoChange
			}
			t.Repost(view.Table(t.GameNo))
			return nil
		})
		return own, fn, refusal.Settle(err)
	case ownBusy && secondBusy && r.name == "stop":
		return own, func(t *record.Table, ch *change) error {
			other, _, err := c.load(ctx, second)
			if err != nil {
				return err
			}
			if t.Phase == record.PhaseIdle || other.Phase == record.PhaseIdle {
				return fn(t, ch) // one of them ended meanwhile
			}
			ch.post(t, c.views.StopChoice(c.loc(t.Lang), t, other))
			return nil
		}, nil
	case secondBusy && !ownBusy:
		return second, fn, nil
	}
	return own, fn, nil
}

// openTable is the table a ▶️ button (/help, a picker) opens its lobby at:
// where a new game goes (newGameTable; a second table follows its group in
// the press's change, onOpen). Any other press acts on the table it names.
func (pr *presses) openTable(ctx context.Context, p callback.Data) string {
	chat, _, err := record.ParseID(p.Table)
	if p.Op != callback.Open || err != nil || chat > 0 || record.IsSecond(p.Table) {
		return p.Table
	}
	return pr.newGameTable(ctx, p.Table)
}

// onStopAsk answers a button of the question «which game to stop?»: the
// question turns into /stop's own for that game, asked by the presser
// (who may: the table's creator or a group admin).
func (lb *lobby) onStopAsk(t *record.Table, ch *change, p callback.Data, user *models.User, admin bool, msg *models.Message) error {
	if t.Phase == record.PhaseIdle || p.GameNo != t.GameNo {
		return refusal.New("error.stale_game")
	}
	if user.ID != t.Creator && !admin {
		return refusal.New("stop.not_allowed")
	}
	ask := &change{}
	if err := lb.askStop(t, ask, user.ID, admin); err != nil {
		return err
	}
	for _, e := range ask.outbox {
		if msg != nil {
			e.ChatID, e.Edit = msg.Chat.ID, msg.ID // the question becomes this one
		}
		e.Reply = true
		ch.outbox = append(ch.outbox, e)
	}
	return nil
}

// closeSecond closes the second table of a group the bot was removed
// from, as its own table is closed.
func (c *commands) closeSecond(ctx context.Context, chat int64) error {
	_, _, err := c.transact(ctx, record.SecondID(chat, 0), 0, func(t *record.Table, ch *change) error {
		if t.Phase == record.PhaseIdle {
			return refusal.ErrNoChange
		}
		closeTable(t)
		return nil
	})
	if errors.Is(err, refusal.ErrNoChange) {
		return nil
	}
	return err
}
