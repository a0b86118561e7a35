package sausages

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// Weigh plays every legal move out and measures it against Sharp's mix
// there: Best is the mix's move that won most and costs nothing, Par is
// the mix's mean, a random move loses on average what Random says, and
// the same inputs weigh alike.
func TestWeigh(t *testing.T) {
	checked, mattered := 0, 0
	judgeWalk(t, 2, func(st *State, s game.Seat, _ game.Action, g, i int) {
		v := st.SeatView(s)
		seed := uint64(g*1000 + i)
		wg := Weigh(v, seed, 20)
		if wg.Deals != 20 || len(wg.Win) != len(v.Legal) || len(wg.Mix) != len(v.Legal) || !slices.Equal(wg.Legal, v.Legal) {
			t.Fatalf("game %d move %d: %+v", g, i, wg)
		}
		b := slices.Index(v.Legal, wg.Best)
		if b < 0 || wg.Mix[b] == 0 || wg.Mix[slices.Index(v.Legal, Sharp(v, seed))] == 0 || wg.Why.Action != wg.Best {
			t.Fatalf("game %d move %d: best %d (why %+v) not of Sharp's mix %v", g, i, wg.Best, wg.Why, wg.Mix)
		}
		share, par, loss := 0.0, 0.0, 0.0
		for k, a := range v.Legal {
			share += wg.Mix[k]
			par += wg.Mix[k] * wg.Win[k]
			if wg.Mix[k] > 0 && wg.Win[k] > wg.Win[b] {
				t.Fatalf("game %d move %d: %d of the mix won more than the best %d", g, i, a, wg.Best)
			}
			loss += wg.Verdict(a).Loss()
		}
		if share < 1-1e-9 || share > 1+1e-9 || par-wg.Par > 1e-9 || wg.Par-par > 1e-9 {
			t.Fatalf("game %d move %d: mix sums to %v, par %v want %v", g, i, share, wg.Par, par)
		}
		mean := loss / float64(len(v.Legal))
		if r := wg.Random(); wg.Verdict(wg.Best).Loss() != 0 || r < 0 || r > 1 || r-mean > 1e-9 || mean-r > 1e-9 {
			t.Fatalf("game %d move %d: best loses %v, random %v, mean loss %v", g, i, wg.Verdict(wg.Best).Loss(), r, mean)
		}
		if again := Weigh(v, seed, 20); !slices.Equal(again.Win, wg.Win) || again.Best != wg.Best || again.Par != wg.Par {
			t.Fatalf("game %d move %d: weighed twice differently", g, i)
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
