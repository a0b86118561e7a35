package play

import (
	"slices"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// Leaving a running game: a person presses «Выйти из игры» on their
// private message and confirms; a robot at the table's level takes the
// seat, the group is told, and the results record the leaver last. The
// leaver's private message then says they left and gets nothing more. When
// the last person leaves, the game ends there (see allLeft).
type Leaving struct {
	views *view.Renderer
	moves *Moves
	now   func() time.Time
}

// NewLeaving builds leaving.
func NewLeaving(views *view.Renderer, moves *Moves, now func() time.Time) *Leaving {
	return &Leaving{views: views, moves: moves, now: now}
}

// OnLeave handles the leave button and its confirmation. The buttons carry
// no nonce: they stay valid while the player plays this game.
func (lv *Leaving) OnLeave(t *record.Table, ch *txn.Change, p callback.Data, who int64) error {
	seat, s, err := buttonSeat(t, p)
	if err != nil {
		return err
	}
	switch {
	case s.Leaver != nil && s.Leaver.UserID == who:
		return refusal.New("leave.already")
	case !s.Human() || s.UserID != who:
		return refusal.New("error.not_yours")
	}
	g, st, err := txn.Decode(lv.views, t)
	if err != nil {
		return err
	}
	if !view.CanLeave(g) {
		return refusal.New("error.bad_button")
	}
	l := lv.views.Loc(t.Lang)
	switch p.Args[1] {
	case callback.LeaveAsk:
		if s.LeaveAsked {
			return refusal.ErrNoChange
		}
		s.LeaveAsked = true
		return nil
	case callback.LeaveNo:
		if !s.LeaveAsked {
			return refusal.New("error.stale")
		}
		s.LeaveAsked = false
		ch.Answer = l.T("leave.kept")
		return nil
	case callback.LeaveYes:
		if !s.LeaveAsked {
			return refusal.New("error.stale")
		}
		ch.Answer = l.T("leave.done")
		return lv.Leave(t, ch, g, st, seat)
	}
	return refusal.New("error.bad_button")
}

// Leave gives a person's seat to a robot at the table's level and tells
// the group. The seat keeps who left, for the results.
func (lv *Leaving) Leave(t *record.Table, ch *txn.Change, g adapter.Game, st game.State, seat int) error {
	l := lv.views.Loc(t.Lang)
	s := &t.Seats[seat]
	leaver := &record.Leaver{UserID: s.UserID, Name: s.Name}
	level := view.AILevel(g, t.AILevel)
	robot := AIName(l, t)
	// A fresh nonce: the leaver's old buttons are stale.
	*s = record.Seat{Name: robot, AI: level, Nonce: s.Nonce + 1, Leaver: leaver}
	if t.Event != nil && t.Event.Seat == seat {
		t.Event = nil // «время вышло» would now name the robot
	}
	ch.Post(t, adapter.Message{Text: l.T("leave.announce", "Name", adapter.Esc(leaver.Name), "Robot", adapter.Esc(robot), "Level", view.LevelLabel(l, g, level))})
	if !slices.ContainsFunc(t.Seats, record.Seat.Human) {
		return lv.AllLeft(t, g, st)
	}
	lv.moves.Schedule(t, g, st, false)
	return nil
}

// AllLeft ends a game nobody plays any more: robots playing on for no one
// would only spend the group's calls. When robots sat at the table from
// the start, the game is recorded with them first and the people who
// left last (leaving cannot dodge a loss); without them there is no one to
// rank, as after /stop.
func (lv *Leaving) AllLeft(t *record.Table, g adapter.Game, st game.State) error {
	robots := slices.ContainsFunc(t.Seats, func(s record.Seat) bool { return s.Leaver == nil })
	switch {
	case robots:
		t.Jobs = append(t.Jobs, record.Job{Result: ResultOf(t, g, st, lv.now())})
	case t.CupOf != nil:
		// A cup's round waits for every table: told, it goes on.
		t.Jobs = append(t.Jobs, record.Job{Cup: &record.CupJob{Cup: t.CupOf.Cup, Round: t.CupOf.Round, Unranked: true}})
	}
	txn.CloseTable(t)
	t.Event = &record.Event{Key: "event.all_left"} // the table says it is over
	return nil
}

// AIName gives an AI seat a name not yet used at the table.
func AIName(l adapter.Loc, t *record.Table) string {
	for i := 1; ; i++ {
		name := l.T("ai.name", "N", i)
		taken := false
		for _, s := range t.Seats {
			if s.Name == name {
				taken = true
			}
		}
		if !taken {
			return name
		}
	}
}
