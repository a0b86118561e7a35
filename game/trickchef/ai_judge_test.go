package trickchef

import (
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// Shef decides as before Judge shared its search: a hash of Shef's
// decisions over seeded games, taken before the search learned to weigh a
// move it was not going to choose.
func TestShefUnchangedByJudge(t *testing.T) {
	var hsh uint64 = 1
	n := 0
	walkGames(t, 6, func(st *State, h History, g, step int) {
		if step%2 != 0 {
			return
		}
		s, _ := st.Current()
		a := Decide(Shef, st.SeatView(s), h, uint64(step)*7+uint64(g), Budget{Playouts: 150})
		hsh = hsh*1000003 + uint64(a)
		n++
	})
	t.Logf("%d decisions, hash %x", n, hsh)
	if hsh != 0x7f73b332ad37af6a {
		t.Fatalf("decision hash %x, want 7f73b332ad37af6a", hsh)
	}
}

// Judge's Best is Shef's own move for the same inputs, judging that move
// costs nothing, and a verdict repeats for the same inputs.
func TestJudgeAgreesWithShef(t *testing.T) {
	b := Budget{Playouts: 60}
	checked, differ := 0, 0
	walkGames(t, 4, func(st *State, h History, g, step int) {
		if step%5 != 0 {
			return
		}
		s, _ := st.Current()
		v := st.SeatView(s)
		if len(v.Legal) < 2 {
			return
		}
		seed := uint64(step)*3 + uint64(g)
		shef := Decide(Shef, v, h, seed, b)
		a := v.Legal[(step*7+g)%len(v.Legal)]
		vd := Judge(st.SeatView(s), h, seed, b, a)
		if vd.Best != shef {
			t.Fatalf("game %d step %d: Judge's best %d, Shef plays %d", g, step, vd.Best, shef)
		}
		if again := Judge(st.SeatView(s), h, seed, b, a); again != vd {
			t.Fatalf("game %d step %d: %+v, then %+v", g, step, vd, again)
		}
		if a != shef {
			differ++
			if vd.Deals == 0 {
				t.Fatalf("game %d step %d: %d against %d not measured", g, step, a, shef)
			}
		}
		own := Judge(st.SeatView(s), h, seed, b, shef)
		if own.Margin != own.BestMargin || own.Ahead != own.BestAhead {
			t.Fatalf("game %d step %d: Shef's own move measured %+v", g, step, own)
		}
		checked++
	})
	if checked < 50 || differ < 20 {
		t.Fatalf("%d verdicts, %d of other moves", checked, differ)
	}
}

// Judge refuses what is not the seat's legal move.
func TestJudgeIllegal(t *testing.T) {
	st, err := New(DefaultConfig(4, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := st.Current()
	if vd := Judge(st.SeatView(s), History{}, 1, Budget{Playouts: 10}, 999); vd.Best != -1 || vd.Deals != 0 {
		t.Fatalf("illegal move judged: %+v", vd)
	}
	other := (s + 1) % 4
	if vd := Judge(st.SeatView(other), History{}, 1, Budget{Playouts: 10}, 0); vd.Best != -1 {
		t.Fatalf("a seat not to act judged: %+v", vd)
	}
}

// Advise and Judge search as Decide does: at every decision of seeded
// games, the last trick of each round included (where counting the trick
// once played on into the next round's scoring), their move is Shef's.
func TestAdviseAndJudgeAreShef(t *testing.T) {
	b := Budget{Playouts: 40}
	n := 0
	walkGames(t, 24, func(st *State, h History, g, step int) {
		s, _ := st.Current()
		v := st.SeatView(s)
		if len(v.Legal) < 2 || v.Trick < 10 && (g >= 8 || step%4 != 0) {
			return
		}
		seed := uint64(step)*11 + uint64(g)
		shef := Decide(Shef, v, h, seed, b)
		if ad := Advise(st.SeatView(s), h, seed, b); ad.Action != shef {
			t.Fatalf("game %d step %d (trick %d): Advise %d, Shef %d", g, step, v.Trick, ad.Action, shef)
		}
		if vd := Judge(st.SeatView(s), h, seed, b, v.Legal[0]); vd.Best != shef {
			t.Fatalf("game %d step %d (trick %d): Judge's best %d, Shef %d", g, step, v.Trick, vd.Best, shef)
		}
		n++
	})
	if n < 200 {
		t.Fatalf("only %d decisions", n)
	}
}

// A position where counting the evidence once played the round's last
// trick on into the next round's scoring, so Advise (and Judge) chose 229
// where Shef plays 230: the last trick of round 1, seat 2 to play, a
// 3-player game from cmd/aibench review's games (seed 1, game 3).
func TestAdviseAtTheRoundsLastTrick(t *testing.T) {
	st, err := New(Config{Players: 3, Removed: DefaultRemoved, Seed: 0xbeeb8da1658eec67})
	if err != nil {
		t.Fatal(err)
	}
	var h History
	h.Observe(st.PublicView())
	for _, m := range strings.Fields("0:1 1:2 0:721 1:475 2:803 1:2 2:65 0:311 1:106 2:1 0:762 1:557 2:434 2:1 0:516 1:680 2:598 0:1 " +
		"1:1213 2:1049 0:926 0:1 1:188 2:147 0:393 2:2 0:844 1:1005 2:1090 1:2 2:639 0:885 1:352 0:0 0:967 1:1131 2:24 2:2 1:270") {
		seat, action, _ := strings.Cut(m, ":")
		s, _ := strconv.Atoi(seat)
		a, _ := strconv.Atoi(action)
		if err := st.Apply(game.Seat(s), game.Action(a)); err != nil {
			t.Fatal(err)
		}
		h.Observe(st.PublicView())
	}
	const seed = 0x2fb2119a222fc277 // record.DecisionSeed(0xbeeb8da1658eec67, 39)
	v := st.SeatView(2)
	shef := Decide(Shef, v, h, seed, Budget{})
	if ad := Advise(st.SeatView(2), h, seed, Budget{}); ad.Action != shef {
		t.Fatalf("Advise %d, Shef %d", ad.Action, shef)
	}
	if vd := Judge(st.SeatView(2), h, seed, Budget{}, v.Legal[0]); vd.Best != shef {
		t.Fatalf("Judge's best %d, Shef %d", vd.Best, shef)
	}
}
