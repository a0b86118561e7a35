package sausages

import (
	"math/rand/v2"
	"testing"

	"github.com/trickchef/trickchef/game"
)

func sharpPolicy(st *State, seat game.Seat, r *rand.Rand) game.Action {
	return Sharp(st.SeatView(seat), r.Uint64())
}

// Sharp is the top level: alone against three Slys or three Baselines it
// wins far more than its share (its targets: at least 35% and 50%
// with 4 players), and it holds its own against wild random players.
// Seeds are fixed, so this is stable; docs/ai.md has the arena numbers.
func TestSharpStrength(t *testing.T) {
	games := 1200
	if raceEnabled || testing.Short() {
		games = 240
	}
	for _, players := range []int{3, 4, 6} {
		fair := 1 / float64(players)
		ss := winRate(games, players, sharpPolicy, slyPolicy)
		sb := winRate(games, players, sharpPolicy, baselinePolicy)
		sr := winRate(games, players, sharpPolicy, randomPolicy)
		ys := winRate(games, players, slyPolicy, sharpPolicy)
		t.Logf("%d players (fair share %.2f): Sharp vs Slys %.2f, vs Baselines %.2f, vs random %.2f; Sly vs Sharps %.2f",
			players, fair, ss, sb, sr, ys)
		if players == 4 && (ss < 0.35 || sb < 0.5) {
			t.Errorf("4 players: Sharp wins %.2f against Slys (want ≥ 0.35), %.2f against Baselines (want ≥ 0.5)", ss, sb)
		}
		// With 3 players random bidders are hard to read (as for Sly,
		// TestAIStrength): logged only.
		if ss < 2*fair || sb < 2*fair || players > 3 && sr <= fair || ys >= fair {
			t.Errorf("%d players: Sharp is not clearly the top level", players)
		}
	}
}

func TestSharpDeterministicAndLegal(t *testing.T) {
	if Sharp(SeatView{}, 1) != -1 {
		t.Fatal("empty view")
	}
	policies := []policy{randomPolicy, slyPolicy, sharpPolicy}
	for g := 0; g < 150; g++ {
		st, _ := New(Config{Players: 3 + g%4, Seed: uint64(g)})
		r := rand.New(rand.NewPCG(uint64(g), 11))
		for !st.Over() {
			to := st.ToAct()
			s := to[r.IntN(len(to))]
			v := st.SeatView(s)
			a := Sharp(v, uint64(g))
			if a != Sharp(st.SeatView(s), uint64(g)) || !contains(v.Legal, a) {
				t.Fatalf("game %d: %d not deterministic or not legal", g, a)
			}
			if err := st.Apply(s, policies[(g+int(s))%3](st, s, r)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Sharp decides from the seat's view only: two tables that differ only in
// where the other seats' boots lie get the same decisions.
func TestSharpNoPeeking(t *testing.T) {
	for _, twin := range [][2]string{
		{"SS BSS SBS SS", "SS SSB BSS BS"},
		{"S BS SB S", "S SB BS B"},
	} {
		a, b := newGame(t, 4, 1), newGame(t, 4, 1)
		lay(t, a, twin[0])
		lay(t, b, twin[1])
		for step := 0; !a.Over() && step < 40; step++ {
			// Seat 0's stack is the same on both tables, so is its view.
			for seed := uint64(0); seed < 30; seed++ {
				if x, y := Sharp(a.SeatView(0), seed), Sharp(b.SeatView(0), seed); x != y {
					t.Fatalf("%v step %d seed %d: %d here, %d on the twin table", twin, step, seed, x, y)
				}
			}
			s := a.ToAct()[0]
			act := Sharp(a.SeatView(s), uint64(step))
			if a.Apply(s, act) != nil || b.Apply(s, act) != nil || a.nRev != b.nRev || a.rev != b.rev {
				break // the tables part: a revealed card differs
			}
		}
	}
}

func TestSharpChoices(t *testing.T) {
	// Losing on an own boot: a sausage goes first.
	st := newGame(t, 3, 0)
	lay(t, st, "B S S")
	apply(t, st, "bid:1 pass pass")
	for seed := uint64(0); seed < 20; seed++ {
		if Sharp(st.SeatView(0), seed) != LoseAction(Sausage) {
			t.Fatal("Sharp loses the boot while holding sausages")
		}
	}
	// Seats 1 and 2 built tall stacks without a bid: their boots most
	// likely lie at the bottom, under the lures. Sharp (safe, two cards)
	// raises a bid of 1 by one, and would stay in up to 6.
	st = newGame(t, 4, 1)
	lay(t, st, "SS BSS BSS SS")
	apply(t, st, "bid:1") // seat 3 opens within its own stack
	v := st.SeatView(0)
	if a := Sharp(v, 1); a != BidAction(2) || newBelief(&v).success(6) < sharpRaise {
		t.Fatalf("over a bid of 1: %s; bid 6 is %.2f sure", mustDecode(a), newBelief(&v).success(6))
	}
	// As the challenger of 6 it takes the top cards, never a bottom one,
	// and makes it.
	apply(t, st, "bid:6 pass pass pass")
	for step := 0; st.phase == PhaseAttempt; step++ {
		a := Sharp(st.SeatView(0), uint64(step))
		m := mustDecode(a)
		if m.Kind != KindReveal || st.seats[m.Seat].rev+1 >= st.seats[m.Seat].n {
			t.Fatalf("reveal %s: a bottom card", m)
		}
		apply(t, st, m.String())
	}
	if l := st.PublicView().LastRound; l == nil || !l.Success {
		t.Fatalf("attempt on the lures failed: %+v", l)
	}
	// The bluff: with its boot down and a low bid on, Sharp sometimes
	// raises within its own stack (never above sharpPushMax), mostly passes.
	st = newGame(t, 3, 0)
	lay(t, st, "BSS SS SS")
	apply(t, st, "bid:1 pass") // seat 1 opens, seat 2 passes

	raises := 0
	for seed := uint64(0); seed < 200; seed++ {
		switch a := Sharp(st.SeatView(0), seed); a {
		case PassAction():
		case BidAction(2):
			raises++
		default:
			t.Fatalf("boot down over a bid of 1: %s", mustDecode(a))
		}
	}
	if raises == 0 || raises > 100 {
		t.Fatalf("boot down: %d bluff raises in 200", raises)
	}
}
