package trickchef

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The race drops a candidate whose paired utilities trail the leader's
// clearly, keeps one that is as good, and keeps everything while the
// difference is within the noise.
func TestShefRace(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rs := newRaceStats(4)
	u := make([]float64, 4)
	for d := 0; d < 200; d++ {
		deal := r.NormFloat64() * 10 // shared by every candidate: the deal's luck
		u[0] = deal + 1 + r.NormFloat64()*0.1
		u[1] = deal + r.NormFloat64()*0.1       // 1 behind, little noise: dropped
		u[2] = deal + 1 + r.NormFloat64()*0.1   // as good as 0: kept
		u[3] = deal + 0.9 + r.NormFloat64()*5.0 // behind, but noisy: kept
		rs.add(u)
	}
	if left := rs.prune(); left != 3 || !rs.active[0] || rs.active[1] || !rs.active[2] || !rs.active[3] {
		t.Fatalf("active %v after 200 deals", rs.active)
	}
	// A dropped candidate is never the leader again.
	if l := rs.leader(); l == 1 {
		t.Fatalf("leader %d", l)
	}
}

// Shef answers legally whatever its budget, down to a single playout's
// worth of moves (the race then has fewer deals than it needs to drop
// anything).
func TestShefBudgets(t *testing.T) {
	walkGames(t, 2, func(st *State, h History, g, step int) {
		if step%5 != 0 {
			return
		}
		s, _ := st.Current()
		v := st.SeatView(s)
		for _, p := range []int{1, 2, 7, 50} {
			if a := Decide(Shef, v, h, uint64(step), Budget{Playouts: p}); !slices.Contains(v.Legal, a) {
				t.Fatalf("game %d step %d playouts %d: %d not legal", g, step, p, a)
			}
		}
	})
}
