package trickchef

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/game"
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

// Shef's decisions are pinned: a hash of them over seeded games, taken
// when the search last changed its choices on purpose.
func TestShefDecisionsPinned(t *testing.T) {
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

// Advise searches as Decide does: at every decision of seeded games, the
// last trick of each round included (where counting the trick once played
// on into the next round's scoring), its move is Shef's.
func TestAdviseIsShef(t *testing.T) {
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
		n++
	})
	if n < 200 {
		t.Fatalf("only %d decisions", n)
	}
}

// A position where counting the evidence once played the round's last
// trick on into the next round's scoring, so Advise chose 229 where Shef
// plays 230: the last trick of round 1, seat 2 to play, a 3-player game
// from cmd/aibench review's games (seed 1, game 3).
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
	shef := Decide(Shef, st.SeatView(2), h, seed, Budget{})
	if ad := Advise(st.SeatView(2), h, seed, Budget{}); ad.Action != shef {
		t.Fatalf("Advise %d, Shef %d", ad.Action, shef)
	}
}

// At a round's last chef award every card is out and the history holds
// every trick, so the round's end is known: Shef's search scores the award
// there. Before, it played the next round out too, and its hint told the
// chance to lead after that round as this one's (and chose by it).
func TestShefScoresTheLastAwardAtItsRound(t *testing.T) {
	checked := 0
	walkGames(t, 24, func(st *State, h History, g, step int) {
		s, _ := st.Current()
		v := st.SeatView(s)
		if st.phase != PhaseAward || v.Trick != HandSize || v.Round == Rounds || len(v.Legal) < 2 {
			return
		}
		ad := Advise(v, h, uint64(step), Budget{})
		after := *st
		if err := after.Apply(s, ad.Action); err != nil {
			t.Fatal(err)
		}
		want := 0.0
		if roundAhead(&after, uint8(s)) {
			want = 1
		}
		if ad.Deals == 0 || ad.Ahead != want {
			t.Fatalf("game %d step %d, round %d: Shef's chef %d leads after the round in %.2f of %d deals; the round's end says %v", g, step, v.Round, ad.Action, ad.Ahead, ad.Deals, want)
		}
		checked++
	})
	if checked < 10 {
		t.Fatalf("only %d last awards with a choice", checked)
	}
}
