package trickchef

import (
	"slices"
	"testing"
)

// Weigh measures every legal move on the same deals: Best is the move of
// the highest margin and costs nothing, a random move loses on average
// what Random says, and the same inputs weigh alike.
func TestWeigh(t *testing.T) {
	checked, mattered := 0, 0
	walkGames(t, 3, func(st *State, h History, g, step int) {
		if step%6 != 0 {
			return
		}
		s, _ := st.Current()
		v := st.SeatView(s)
		if len(v.Legal) < 2 {
			return
		}
		seed := uint64(step)*5 + uint64(g)
		wg := Weigh(v, h, seed, 40)
		if wg.Deals == 0 || len(wg.Margin) != len(v.Legal) || !slices.Equal(wg.Legal, v.Legal) {
			t.Fatalf("game %d step %d: %+v", g, step, wg)
		}
		b := slices.Index(v.Legal, wg.Best)
		loss := 0.0
		for i, a := range v.Legal {
			if wg.Margin[i] > wg.Margin[b] {
				t.Fatalf("game %d step %d: %d measures above the best %d", g, step, a, wg.Best)
			}
			loss += wg.Verdict(a).Loss()
		}
		if wg.Verdict(wg.Best).Loss() != 0 || wg.Random() < 0 || wg.Random() > 1 || abs(wg.Random()-loss/float64(len(v.Legal))) > 1e-9 {
			t.Fatalf("game %d step %d: best loses %v, random %v, mean loss %v", g, step, wg.Verdict(wg.Best).Loss(), wg.Random(), loss/float64(len(v.Legal)))
		}
		if again := Weigh(v, h, seed, 40); !slices.Equal(again.Margin, wg.Margin) || again.Best != wg.Best {
			t.Fatalf("game %d step %d: weighed twice differently", g, step)
		}
		if wg.Random() > 0 {
			mattered++
		}
		checked++
	})
	if checked < 20 || mattered < checked/2 {
		t.Fatalf("%d weighings, %d where the choice mattered", checked, mattered)
	}
}

func abs(x float64) float64 { return max(x, -x) }
