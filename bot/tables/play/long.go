package play

import (
	"slices"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/txn"
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
// table (bot/tables/lobby, group.go), where a quick game may go on meanwhile.

// longTurn makes seat i's turn, just given d of time at now, a long one
// when it is: a person's (not one the bot plays for) at a game that takes
// turns, with an hour or more. Its deadline is then the group's clock time
// with the night not counting, and its reminder is due when a quarter of
// that time is left (the same clock: never at night). A group's table
// reminds; a practice table, whose chat is the person's own, does not.
func (m *Moves) longTurn(t *record.Table, g adapter.Game, i int, now time.Time, d time.Duration) {
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

// Remind queues the reminders due at now, one private message each, and
// reports whether it did anything. A reminder goes to a person who still
// has this turn to make: their seat acts, with the nonce the turn began
// with (record.Seat.RemindAt), the bot does not play for them and can
// write to them, and the deadline is still ahead (timers served late, after
// the bot was down for hours, time the turn out without a reminder first).
// It is queued in the change that clears it, so it is posted once whatever
// crashes when.
func (m *Moves) Remind(t *record.Table, ch *txn.Change, st game.State, now time.Time) bool {
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
		ch.Outbox = append(ch.Outbox, outbox.Entry{ChatID: s.UserID, Message: m.views.Reminder(t, i)})
	}
	return reminded
}

// toldAuto tells the group of a long game, once, that the bot plays for
// seat from now on: its time ran out a second time in a row. (The table's
// timeout notice is an edit, which nobody notices for hours.)
func (m *Moves) toldAuto(t *record.Table, ch *txn.Change, seat int) {
	if t.Seats[seat].Auto() && !t.Practice() && m.views.Long(t) {
		ch.Post(t, m.views.AutoNotice(t, seat))
	}
}
