package chef

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// Weigh measures every legal move in the same worlds: Best is the move of
// the highest chance and costs nothing, a random move loses on average
// what Random says, and the same inputs weigh alike.
func TestWeigh(t *testing.T) {
	checked, mattered := 0, 0
	for g := 0; g < 4; g++ {
		st, _ := New(Config{Players: 2 + g%4, AutoAnnounce: g%3 == 2, Seed: uint64(g) + 11})
		for i := 0; !st.Over(); i++ {
			s := game.Seat(st.turn)
			v := st.SeatView(s)
			if len(v.Legal) > 1 && i%4 == 0 {
				seed := uint64(i)*3 + uint64(g)
				wg := Weigh(v, seed, 400)
				if wg.Worlds < weighMinWorlds || len(wg.Win) != len(v.Legal) || !slices.Equal(wg.Legal, v.Legal) {
					t.Fatalf("game %d move %d: %+v", g, i, wg)
				}
				b := slices.Index(v.Legal, wg.Best)
				loss := 0.0
				for k, a := range v.Legal {
					if wg.Win[k] > wg.Win[b] {
						t.Fatalf("game %d move %d: %d measures above the best %d", g, i, a, wg.Best)
					}
					loss += wg.Verdict(a).Loss()
				}
				if r := wg.Random(); wg.Verdict(wg.Best).Loss() != 0 || r < 0 || r > 1 || r-loss/float64(len(v.Legal)) > 1e-9 || loss/float64(len(v.Legal))-r > 1e-9 {
					t.Fatalf("game %d move %d: best loses %v, random %v, mean loss %v", g, i, wg.Verdict(wg.Best).Loss(), r, loss/float64(len(v.Legal)))
				}
				if again := Weigh(v, seed, 400); !slices.Equal(again.Win, wg.Win) || again.Best != wg.Best {
					t.Fatalf("game %d move %d: weighed twice differently", g, i)
				}
				if wg.Random() > 0 {
					mattered++
				}
				checked++
			}
			if err := st.Apply(s, DecideBudget(Cook, v, uint64(i), Budget{})); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 20 || mattered < checked/2 {
		t.Fatalf("%d weighings, %d where the choice mattered", checked, mattered)
	}
}
