package trickchef

import "testing"

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
