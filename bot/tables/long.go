package tables

import (
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
// A long game does not hold its chat: /newgame opens the group's next free
// table (several.go), where a quick game may go on meanwhile.

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
	if record.TableNo(t.ID) > 1 {
		ch.groupZone = t.Zone // the group's, kept at its table 1 (afterCommit)
	}
	ch.answer = lb.loc(t.Lang).T("lobby.zone_set", "Zone", view.ZoneName(lb.loc(t.Lang), t))
	return nil
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
