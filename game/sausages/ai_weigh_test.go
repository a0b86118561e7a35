package sausages

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// Weigh plays every legal move out, Sharp's mixes included: Best is the
// move that won most and costs nothing, a random move loses on average
// what Random says, and the same inputs weigh alike.
func TestWeigh(t *testing.T) {
	checked, mattered := 0, 0
	judgeWalk(t, 2, func(st *State, s game.Seat, _ game.Action, g, i int) {
		v := st.SeatView(s)
		seed := uint64(g*1000 + i)
		wg := Weigh(v, seed, 20)
		if wg.Deals != 20 || len(wg.Win) != len(v.Legal) || !slices.Equal(wg.Legal, v.Legal) {
			t.Fatalf("game %d move %d: %+v", g, i, wg)
		}
		b := slices.Index(v.Legal, wg.Best)
		loss := 0.0
		for k, a := range v.Legal {
			if wg.Win[k] > wg.Win[b] {
				t.Fatalf("game %d move %d: %d won more than the best %d", g, i, a, wg.Best)
			}
			loss += wg.Verdict(a).Loss()
		}
		mean := loss / float64(len(v.Legal))
		if r := wg.Random(); wg.Verdict(wg.Best).Loss() != 0 || r < 0 || r > 1 || r-mean > 1e-9 || mean-r > 1e-9 {
			t.Fatalf("game %d move %d: best loses %v, random %v, mean loss %v", g, i, wg.Verdict(wg.Best).Loss(), r, mean)
		}
		if (wg.Best == Sharp(v, seed)) != (wg.Why.Reason != ReasonMeasured) {
			t.Fatalf("game %d move %d: best %d, Sharp's %d, reason %s", g, i, wg.Best, Sharp(v, seed), wg.Why.Reason)
		}
		if again := Weigh(v, seed, 20); !slices.Equal(again.Win, wg.Win) || again.Best != wg.Best {
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
