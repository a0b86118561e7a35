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

// Weigh's Tally is the round as the engine scores it: where a move ends
// the round (the last chef award), the seat's stars and coins are known
// whatever the deal, and the Tally must be them exactly.
func TestWeighTallyIsTheRoundsScore(t *testing.T) {
	checked := 0
	walkGames(t, 6, func(st *State, h History, g, step int) {
		s, _ := st.Current()
		v := st.SeatView(s)
		if st.phase != PhaseAward || len(v.Legal) < 2 {
			return
		}
		wg := Weigh(v, h, uint64(step), 20)
		for i, a := range v.Legal {
			after := *st
			if err := after.Apply(s, a); err != nil {
				t.Fatal(err)
			}
			if after.finishedRounds() < int(st.round) {
				return // the round goes on: the rest depends on the deal
			}
			res := after.PublicView().RoundResults[st.round-1].Seats[s]
			got := wg.Tally[i]
			if wg.Deals == 0 || got.Stars != float64(res.Stars) || got.Coins != float64(res.Coins) {
				t.Fatalf("game %d step %d, chef %d: tally %+v over %d deals, the round scored %+v", g, step, a, got, wg.Deals, res)
			}
			if wg.Verdict(a).Tally != got || wg.Verdict(a).BestTally != wg.Tally[slices.Index(v.Legal, wg.Best)] {
				t.Fatalf("game %d step %d: the verdict's tallies are not the weighing's", g, step)
			}
		}
		checked++
	})
	if checked < 3 {
		t.Fatalf("only %d last awards with a choice checked", checked)
	}
}

// On the round's last trick, played last, what the card does is known
// whatever the deal: Weigh's Took and Chef, and Advise's for its move,
// must say it exactly, also when the trick ends the round at once (the
// last chef award forced, as with three players when two suits have left
// the pool).
func TestWeighLastTrickTookAndChef(t *testing.T) {
	checked, forced := 0, 0
	walkGames(t, 16, func(st *State, h History, g, step int) {
		s, _ := st.Current()
		v := st.SeatView(s)
		if st.phase != PhasePlay || v.Trick != HandSize || len(v.CurrentTrick) != v.Players-1 || len(v.Legal) < 2 {
			return
		}
		suits := 0
		for _, n := range v.Pool {
			if n > 0 {
				suits++
			}
		}
		wg := Weigh(v, h, uint64(step), 10)
		ad := Advise(v, h, uint64(step), Budget{Playouts: 10})
		for i, a := range v.Legal {
			m, _ := Decode(a)
			plays := append(slices.Clone(v.CurrentTrick), Played{Seat: s, Card: m.Card, Coins: m.Coins})
			var trumps SuitSet
			for _, x := range v.Trumps {
				trumps |= 1 << x
			}
			w, c := Resolve(plays, trumps)
			took, chef := 0.0, 0.0
			if w == len(plays)-1 {
				took = 1
			}
			if c == len(plays)-1 {
				chef = 1
			}
			if wg.Took[i] != took || wg.Chef[i] != chef {
				t.Fatalf("game %d step %d (%d suits in the pool), %d: took %v chef %v, the trick says %v %v", g, step, suits, a, wg.Took[i], wg.Chef[i], took, chef)
			}
			if a == ad.Action && ad.Deals > 0 && (ad.Took != took || ad.Chef != chef) {
				t.Fatalf("game %d step %d (%d suits in the pool), %d: Advise says took %v chef %v, the trick %v %v", g, step, suits, a, ad.Took, ad.Chef, took, chef)
			}
		}
		if suits == 1 {
			forced++
		}
		checked++
	})
	if forced == 0 || checked < 5 {
		t.Fatalf("%d last tricks checked, %d with the award forced", checked, forced)
	}
}

// A view whose round is not one of the game's (a damaged view) allows no
// deal: Weigh measures nothing and the search falls back, neither panics
// (a deal of round 0 or 4 would score into a round record that does not
// exist).
func TestWeighDamagedRound(t *testing.T) {
	st, err := New(Config{Players: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := st.Current()
	for _, r := range []int{0, -1, Rounds + 1, 255} {
		v := st.SeatView(s)
		v.Round = r
		if wg := Weigh(v, History{}, 1, 5); wg.Deals != 0 || !slices.Contains(v.Legal, wg.Best) {
			t.Fatalf("round %d: weighed %+v", r, wg)
		}
		if a := Decide(Shef, v, History{}, 1, Budget{Playouts: 5}); !slices.Contains(v.Legal, a) {
			t.Fatalf("round %d: Shef chose %d", r, a)
		}
		if ad := Advise(v, History{}, 1, Budget{Playouts: 5}); ad.Deals != 0 {
			t.Fatalf("round %d: advised %+v", r, ad)
		}
	}
}
