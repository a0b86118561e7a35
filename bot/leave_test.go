package bot

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
)

// TestResultOfLeaverAndAutopilot: a person who left is recorded last,
// marked, with score 0, under their own id; those who stayed are ranked
// among themselves; a person the bot made most moves for is unrated, one
// it made half of them for is rated.
func TestResultOfLeaverAndAutopilot(t *testing.T) {
	b, _ := resultsBot(t, nil)
	g := testGame(t, "trickchef")
	tab, st := fixtures.Table(t, g, 4, 0, "", 21, nil)
	fixtures.PlayRandom(t, g, tab, st, 100000, 3)
	if !st.Over() {
		t.Fatal("the game did not end")
	}
	// Seat 0 left (a robot finished for them); seat 1 was away for most of
	// their moves, seat 2 for exactly half.
	tab.Seats[0] = record.Seat{Name: "Робот 1", AI: "novice", Leaver: &record.Leaver{UserID: 1, Name: fixtures.Names[0]}}
	// (The log is what counts, not the engine's moves.)
	tab.Log = []record.Move{{Seat: 1, Auto: true}, {Seat: 2, Auto: true}, {Seat: 3}, {Seat: 1}, {Seat: 2}, {Seat: 3}, {Seat: 1, Auto: true},
		{Seat: 0}, {Seat: 0, Auto: true}, {Seat: 0, Auto: true}, {Seat: game.System, Auto: true}}
	r := b.results.resultOf(tab, g, st, fixtures.Clock)
	if len(r.Seats) != 4 || !r.valid() {
		t.Fatalf("seats %+v", r.Seats)
	}
	left := r.Seats[0]
	if left.Player != humanPlayer(1) || left.Name != fixtures.Names[0] || !left.Left || left.Place != 4 || left.Score != 0 || left.Unrated {
		t.Errorf("the leaver: %+v", left)
	}
	if !r.Seats[1].Unrated || r.Seats[2].Unrated || r.Seats[3].Unrated || r.Seats[1].Left {
		t.Errorf("unrated marks: %+v", r.Seats)
	}
	// The others keep their order, counted among the three.
	placeOf := map[game.Seat]int{}
	for _, s := range adapter.Standings(st.Result()) {
		placeOf[s.Seat] = s.Place
	}
	for i := 1; i < 4; i++ {
		want := 1
		for j := 1; j < 4; j++ {
			if placeOf[game.Seat(j)] < placeOf[game.Seat(i)] {
				want++
			}
		}
		if r.Seats[i].Place != want || r.Seats[i].Place > 3 {
			t.Errorf("seat %d: place %d, want %d (engine places %v)", i, r.Seats[i].Place, want, placeOf)
		}
	}
}

// TestRateSkipsUnrated: an unrated seat keeps its rating (a newcomer stays
// never rated), the others are rated among themselves as if it had not
// played; the callback sees every seat's shown rating before and after.
func TestRateSkipsUnrated(t *testing.T) {
	cur := []store.PlayerStats{{Player: "u1"}, {Player: "u2", Mu: 30, Sigma: 2}, {Player: "u3"}, {Player: "u4", Mu: 20, Sigma: 3}}
	var seen []ratingChange
	mu, sigma := rate([]int{1, 2, 3, 4}, []bool{true, false, true, false}, func(c []ratingChange) { seen = c })(cur)
	if mu[1] != 30 || sigma[1] != 2 || mu[3] != 20 || sigma[3] != 3 {
		t.Errorf("unrated seats changed: mu %v sigma %v", mu, sigma)
	}
	want, wantSigma := rate([]int{1, 3}, nil, nil)([]store.PlayerStats{cur[0], cur[2]})
	if mu[0] != want[0] || mu[2] != want[1] || sigma[0] != wantSigma[0] || sigma[2] != wantSigma[1] {
		t.Errorf("rated seats: mu %v sigma %v, want as a game of two: %v %v", mu, sigma, want, wantSigma)
	}
	if len(seen) != 4 || seen[1].Before != seen[1].After || seen[0].After <= seen[0].Before || seen[2].After >= seen[0].After {
		t.Errorf("changes seen %+v", seen)
	}
	never := rate([]int{1, 2}, []bool{false, true}, nil)
	if mu, sigma := never([]store.PlayerStats{{Player: "u1"}, {Player: "u2"}}); mu[0] != 0 || sigma[0] != 0 {
		t.Errorf("an unrated newcomer got a rating: %v %v", mu, sigma)
	}
}

// TestSignedChange shows a rating change with its sign.
func TestSignedChange(t *testing.T) {
	b := goldenResultsBot(t)
	l := b.loc("ru")
	for x, want := range map[float64]string{1.84: "+1,8", -0.44: "−0,4", 0.01: "±0,0", -0.04: "±0,0", 0: "±0,0"} {
		if got := signed(l, x); got != want {
			t.Errorf("signed(%v) = %q, want %q", x, got, want)
		}
	}
}

// TestLeaveInEveryGame: in each game a person asks to leave and confirms;
// a robot at the table's level takes the seat and can move, the group is
// told, the leaver's message says they left, and the finished game records
// them last.
func TestLeaveInEveryGame(t *testing.T) {
	b, _ := resultsBot(t, nil)
	for i, g := range testGames() {
		t.Run(g.ID(), func(t *testing.T) {
			lo, _ := g.SeatRange()
			tab, st := fixtures.Table(t, g, max(lo, 3), 1, adapter.Levels(g)[0], uint64(40+i), nil)
			tab.AILevel = adapter.Levels(g)[len(adapter.Levels(g))-1]
			press := func(step int) error {
				ch := &change{}
				err := b.onLeave(tab, ch, callback.Data{Op: 'x', Table: tab.ID, GameNo: tab.GameNo, Args: []int{1, step}}, 2)
				if err == nil && step == leaveYes && len(ch.outbox) != 1 {
					t.Errorf("the group was told %d times", len(ch.outbox))
				}
				return err
			}
			if err := press(leaveYes); err == nil {
				t.Fatal("left without confirming")
			}
			if err := press(leaveAsk); err != nil {
				t.Fatal(err)
			}
			if m, _ := b.SeatMessage(tab, 1); len(m.Keyboard) != 1 || len(m.Keyboard[0]) != 2 {
				t.Errorf("the confirmation: %+v", m)
			}
			if err := press(leaveYes); err != nil {
				t.Fatal(err)
			}
			s := tab.Seats[1]
			if s.Human() || s.AI != tab.AILevel || s.Leaver == nil || s.Leaver.UserID != 2 || tab.Phase != record.PhasePlaying {
				t.Fatalf("the seat after leaving: %+v", s)
			}
			if key, _ := RefusalKey(press(leaveAsk)); key != "leave.already" {
				t.Errorf("a press after leaving: %q", key)
			}
			if m, _ := b.SeatMessage(tab, 1); m.Text != b.leftMessage(tab).Text || len(m.Keyboard) != 0 {
				t.Errorf("the leaver's message: %+v", m)
			}
			if m, _ := b.SeatMessage(tab, 0); !hasLeave(m) {
				t.Errorf("no leave button for the others: %+v", m.Keyboard)
			}
			if slices.Contains(st.ToAct(), 1) {
				if tab.Seats[1].Due.IsZero() {
					t.Error("the robot has no timer")
				}
				if err := b.actFor(tab, &change{}, g, st, 1); err != nil {
					t.Fatal(err)
				}
			}
			fixtures.PlayRandom(t, g, tab, st, 1_000_000, uint64(i))
			r := b.results.resultOf(tab, g, st, fixtures.Clock)
			var left resultSeat
			for _, rs := range r.Seats {
				if rs.Player == humanPlayer(2) {
					left = rs
				}
			}
			if !left.Left || !r.valid() {
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
			if p, err := callback.Parse(bt.Data); err == nil && p.Op == 'x' && p.Args[1] == leaveAsk {
				return true
			}
		}
	}
	return false
}

// BenchmarkRenderWaitingHand measures a waiting player's hand redrawn
// after a move (the most frequent render: a lazy view, whose record is
// checked for a platform state before it is left as it was).
func BenchmarkRenderWaitingHand(bm *testing.B) {
	b := goldenResultsBot(bm)
	g := testGame(bm, "trickchef")
	tab, st := fixtures.Table(bm, g, 4, 0, "", 3, nil)
	seat := -1
	for i := range tab.Seats {
		if !slices.Contains(st.ToAct(), game.Seat(i)) {
			seat = i
		}
	}
	rec := msgRecord{ID: 7, Digest: "old"}
	for bm.Loop() {
		if j, ok, err := b.delivery.renderView(tab, handView(tab.GameNo, seat), rec); err != nil || !ok || !j.quiet {
			bm.Fatalf("%+v %v %v", j, ok, err)
		}
	}
}
