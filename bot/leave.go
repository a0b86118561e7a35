package bot

import (
	"slices"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// Leaving a running game: a person presses «Выйти из игры» on their
// private message and confirms; a robot at the table's level takes the
// seat, the group is told, and the results record the leaver last. The
// leaver's private message then says they left and gets nothing more. When
// the last person leaves, the game ends there (see allLeft).

// Steps of the leave button (payload x:<table>:<game>:<seat>:<step>).
const (
	leaveNo  = 0 // keep playing
	leaveAsk = 1 // «Выйти из игры»: ask to confirm
	leaveYes = 2 // confirmed
)

// canLeave reports whether a game lets people leave: a robot must be able
// to take the seat.
func canLeave(g adapter.Game) bool { return len(adapter.Levels(g)) > 0 }

// leaveButton is the row offering to leave (or, with step leaveYes and
// leaveNo, to confirm).
func leaveButton(t *record.Table, seat, step int, text string) adapter.Button {
	return adapter.Button{Text: text, Data: callback.Data{Op: 'x', Table: t.ID, GameNo: t.GameNo, Args: []int{seat, step}}.String()}
}

// onLeave handles the leave button and its confirmation. The buttons carry
// no nonce: they stay valid while the player plays this game.
func (b *Bot) onLeave(t *record.Table, ch *change, p callback.Data, who int64) error {
	seat, s, err := buttonSeat(t, p)
	if err != nil {
		return err
	}
	switch {
	case s.Leaver != nil && s.Leaver.UserID == who:
		return refuse("leave.already")
	case !s.Human() || s.UserID != who:
		return refuse("error.not_yours")
	}
	g, st, err := b.decode(t)
	if err != nil {
		return err
	}
	if !canLeave(g) {
		return refuse("error.bad_button")
	}
	l := b.loc(t.Lang)
	switch p.Args[1] {
	case leaveAsk:
		if s.LeaveAsked {
			return errNoChange
		}
		s.LeaveAsked = true
		return nil
	case leaveNo:
		if !s.LeaveAsked {
			return refuse("error.stale")
		}
		s.LeaveAsked = false
		ch.answer = l.T("leave.kept")
		return nil
	case leaveYes:
		if !s.LeaveAsked {
			return refuse("error.stale")
		}
		ch.answer = l.T("leave.done")
		return b.leave(t, ch, g, st, seat)
	}
	return refuse("error.bad_button")
}

// leave gives a person's seat to a robot at the table's level and tells
// the group. The seat keeps who left, for the results.
func (b *Bot) leave(t *record.Table, ch *change, g adapter.Game, st game.State, seat int) error {
	l := b.loc(t.Lang)
	s := &t.Seats[seat]
	leaver := &record.Leaver{UserID: s.UserID, Name: s.Name}
	level := aiLevel(g, t.AILevel)
	robot := b.aiName(l, t)
	// A fresh nonce: the leaver's old buttons are stale.
	*s = record.Seat{Name: robot, AI: level, Nonce: s.Nonce + 1, Leaver: leaver}
	if t.Event != nil && t.Event.Seat == seat {
		t.Event = nil // «время вышло» would now name the robot
	}
	ch.post(t, adapter.Message{Text: l.T("leave.announce", "Name", adapter.Esc(leaver.Name), "Robot", adapter.Esc(robot), "Level", levelLabel(l, g, level))})
	if !slices.ContainsFunc(t.Seats, record.Seat.Human) {
		return b.allLeft(t, ch, g, st)
	}
	b.schedule(t, g, st, false)
	return nil
}

// allLeft ends a game nobody plays any more: robots playing on for no one
// would only spend the group's calls. When robots sat at the table from
// the start, the game is recorded with them first and the people who
// left last (leaving cannot dodge a loss); without them there is no one to
// rank, as after /stop.
func (b *Bot) allLeft(t *record.Table, ch *change, g adapter.Game, st game.State) error {
	robots := slices.ContainsFunc(t.Seats, func(s record.Seat) bool { return s.Leaver == nil })
	if robots {
		ch.outbox = append(ch.outbox, outMsg{ChatID: t.ChatID, Thread: t.Thread, Result: b.results.resultOf(t, g, st, b.now())})
	}
	b.closeTable(t)
	t.Event = &record.Event{Key: "event.all_left"} // the table says it is over
	return nil
}

// leftMessage is the leaver's private message from then on.
func (b *Bot) leftMessage(t *record.Table) adapter.Message {
	return adapter.Message{Text: b.loc(t.Lang).T("leave.left")}
}

// leaveConfirm is the player's private message while it asks to confirm
// leaving. ping keeps what the message under it was, so asking is an edit.
func (b *Bot) leaveConfirm(t *record.Table, g adapter.Game, seat int, ping bool) adapter.Message {
	l := b.loc(t.Lang)
	return adapter.Message{
		Text: l.T("leave.confirm", "Level", levelLabel(l, g, aiLevel(g, t.AILevel))),
		Keyboard: [][]adapter.Button{{
			leaveButton(t, seat, leaveYes, l.T("leave.yes")),
			leaveButton(t, seat, leaveNo, l.T("leave.no")),
		}},
		Ping: ping,
	}
}
