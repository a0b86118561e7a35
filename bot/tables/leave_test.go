package tables

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/play"
	"github.com/trickchef/trickchef/bot/tables/txn"
)

// TestLeaveInEveryGame: in each game a person asks to leave and confirms;
// a robot at the table's level takes the seat and can move, the group is
// told, the leaver's message says they left, and the finished game records
// them last.
func TestLeaveInEveryGame(t *testing.T) {
	tb := newTables(t, nil, nil)
	for i, g := range testGames() {
		t.Run(g.ID(), func(t *testing.T) {
			lo, _ := g.SeatRange()
			tab, st := golden.Table(t, g, max(lo, 3), 1, adapter.Levels(g)[0], uint64(40+i), nil)
			tab.AILevel = adapter.Levels(g)[len(adapter.Levels(g))-1]
			press := func(step int) error {
				ch := &txn.Change{}
				err := tb.leaving.OnLeave(tab, ch, callback.Data{Op: callback.Leave, Table: tab.ID, GameNo: tab.GameNo, Args: []int{1, step}}, 2)
				if err == nil && step == callback.LeaveYes && len(ch.Outbox) != 1 {
					t.Errorf("the group was told %d times", len(ch.Outbox))
				}
				return err
			}
			if err := press(callback.LeaveYes); err == nil {
				t.Fatal("left without confirming")
			}
			if err := press(callback.LeaveAsk); err != nil {
				t.Fatal(err)
			}
			if m, _ := tb.views.Seat(tab, 1); len(m.Keyboard) != 1 || len(m.Keyboard[0]) != 2 {
				t.Errorf("the confirmation: %+v", m)
			}
			if err := press(callback.LeaveYes); err != nil {
				t.Fatal(err)
			}
			s := tab.Seats[1]
			if s.Human() || s.AI != tab.AILevel || s.Leaver == nil || s.Leaver.UserID != 2 || tab.Phase != record.PhasePlaying {
				t.Fatalf("the seat after leaving: %+v", s)
			}
			if key, _ := refusal.Key(press(callback.LeaveAsk)); key != "leave.already" {
				t.Errorf("a press after leaving: %q", key)
			}
			// The leaver's message is the platform's «you left» (view's).
			if m, _ := tb.views.Seat(tab, 1); m.Text != tb.views.Loc(tab.Lang).T("leave.left") || len(m.Keyboard) != 0 {
				t.Errorf("the leaver's message: %+v", m)
			}
			if m, _ := tb.views.Seat(tab, 0); !hasLeave(m) {
				t.Errorf("no leave button for the others: %+v", m.Keyboard)
			}
			if slices.Contains(st.ToAct(), 1) {
				if tab.Seats[1].Due.IsZero() {
					t.Error("the robot has no timer")
				}
				if err := tb.moves.ActFor(tab, &txn.Change{}, g, st, 1); err != nil {
					t.Fatal(err)
				}
			}
			golden.PlayRandom(t, g, tab, st, 1_000_000, uint64(i))
			r := play.ResultOf(tab, g, st, golden.Clock)
			var left record.ResultSeat
			for _, rs := range r.Seats {
				if rs.Player == record.PersonPlayer(2) {
					left = rs
				}
			}
			if !left.Left || !tb.results.Valid(r) {
				t.Fatalf("the leaver in the result: %+v of %+v", left, r.Seats)
			}
			for _, rs := range r.Seats {
				if rs.Player != left.Player && rs.Place >= left.Place {
					t.Errorf("the leaver is not last: %+v", r.Seats)
				}
			}
		})
	}
}

// hasLeave reports whether a message offers «leave the game».
func hasLeave(m adapter.Message) bool {
	for _, row := range m.Keyboard {
		for _, bt := range row {
			if p, err := callback.Parse(bt.Data); err == nil && p.Op == callback.Leave && p.Args[1] == callback.LeaveAsk {
				return true
			}
		}
	}
	return false
}
