package chef

import (
	"testing"

	"github.com/trickchef/trickchef/game"
)

// Shef decides as before Judge shared its search: a hash of Shef's
// decisions over seeded games, taken before the search learned to weigh a
// move it was not going to choose.
func TestShefUnchangedByJudge(t *testing.T) {
	var hsh uint64 = 1
	n := 0
	for g := 0; g < 8; g++ {
		st, _ := New(Config{Players: 2 + g%5, AutoAnnounce: g%4 == 3, Seed: uint64(g) + 100})
		for i := 0; !st.Over(); i++ {
			s := game.Seat(st.turn)
			v := st.SeatView(s)
			a := DecideBudget(Shef, v, uint64(i)*13+uint64(g), Budget{Playouts: 600})
			hsh = hsh*1000003 + uint64(a)
			n++
			if err := st.Apply(s, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d decisions, hash %x", n, hsh)
	if hsh != 0x2a0d6c606cbc0341 {
		t.Fatalf("decision hash %x, want 2a0d6c606cbc0341", hsh)
	}
}

// Judge's Best is Shef's own move for the same inputs, judging that move
// costs nothing, a verdict repeats for the same inputs, and another move
// is measured in worlds, also where Shef's move is a sure thing.
func TestJudgeAgreesWithShef(t *testing.T) {
	b := Budget{Playouts: 300}
	checked, differ, sure := 0, 0, 0
	for g := 0; g < 6; g++ {
		st, _ := New(Config{Players: 2 + g%4, AutoAnnounce: g%3 == 2, Seed: uint64(g) + 7})
		for i := 0; !st.Over(); i++ {
			s := game.Seat(st.turn)
			v := st.SeatView(s)
			if len(v.Legal) > 1 && i%3 == 0 {
				seed := uint64(i)*5 + uint64(g)
				shef := DecideBudget(Shef, v, seed, b)
				a := v.Legal[(i*7+g)%len(v.Legal)]
				vd := Judge(st.SeatView(s), seed, b, a)
				if vd.Best != shef {
					t.Fatalf("game %d move %d: Judge's best %d, Shef plays %d", g, i, vd.Best, shef)
				}
				if again := Judge(st.SeatView(s), seed, b, a); again != vd {
					t.Fatalf("game %d move %d: %+v, then %+v", g, i, vd, again)
				}
				if a != shef {
					differ++
					if vd.Playouts == 0 {
						t.Fatalf("game %d move %d: %d against %d not measured", g, i, a, shef)
					}
					if vd.Why.Playouts == 0 {
						sure++
					}
				}
				own := Judge(st.SeatView(s), seed, b, shef)
				if own.Win != own.BestWin {
					t.Fatalf("game %d move %d: Shef's own move measured %+v", g, i, own)
				}
				checked++
			}
			if err := st.Apply(s, Decide(Cook, v, uint64(i))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 50 || differ < 20 || sure == 0 {
		t.Fatalf("%d verdicts, %d of other moves, %d against a sure thing", checked, differ, sure)
	}
	if vd := Judge(SeatView{}, 1, b, 0); vd.Best != -1 {
		t.Fatalf("an empty view judged: %+v", vd)
	}
}
