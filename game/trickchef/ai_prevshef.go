package trickchef

import (
	"math"
	"math/bits"
	"sort"

	"github.com/trickchef/trickchef/game"
)

// «Шеф» as it was first built, kept unchanged as PrevShef: the yardstick
// the arena measures today's Shef against (kind prevtop). Determinized
// ("perfect information") Monte Carlo. Each iteration
// deals the cards the seat cannot see, consistently with its hand and won
// pile, every card seen played this round (History), the suits each seat
// is known to lack, and the public hand sizes and trick counts; then every
// candidate action is played out on that same deal to the end of the round
// with the cook heuristic for all seats. Using the same deal (and the same
// playout randomness) for every candidate compares them on equal terms, so
// a few hundred deals separate them. The candidate with the best mean
// utility is played.
//
// Candidates are the legal actions with coins pruned to those that change
// the trick (the fewest coins to become its winner, or its lowest card):
// any other coin count only spends points.

// shefRolloutNoise perturbs the playout policy's scores so that the
// opponents in playouts are not perfectly predictable.
const shefRolloutNoise = 0.15

type candidate struct {
	a     game.Action
	prior float64 // the cook heuristic's score: the tie-break
	sum   float64
}

func prevShef(v *SeatView, h History, seed uint64, b Budget) game.Action {
	w, cands, playouts, decided, search := searchStart(v, h, seed, b)
	if !search {
		return decided
	}
	iters := max(1, playouts/len(cands))
	var start int64
	capped := b.Clock != nil && b.Wall > 0
	if capped {
		start = b.Clock().UnixNano()
	}
	r := rng(seed ^ 0x73686566)
	var deal, st State
	for it := 0; it < iters; it++ {
		if capped && it > 0 && b.Clock().UnixNano()-start >= int64(b.Wall) {
			break
		}
		w.sample(&deal, &r)
		rs := r.Next()
		for i := range cands {
			st = deal
			if st.Apply(st.turnSeat(), cands[i].a) != nil {
				cands[i].sum = math.Inf(-1)
				continue
			}
			pr := rng(rs)
			cands[i].sum += shefPlayout(&st, w.me, &pr)
		}
	}
	best := 0
	for i := range cands {
		if cands[i].sum > cands[best].sum {
			best = i
		}
	}
	return cands[best].a
}

func (st *State) turnSeat() game.Seat { return game.Seat(st.turn) }

// searchStart is where both searches begin: the world the seat's view
// implies, the candidates, and the budget in playouts. With search false
// there is nothing to search (no consistent world, at most one
// candidate) and decided is the answer; w is then the world, or nil when
// the view allows none.
func searchStart(v *SeatView, h History, seed uint64, b Budget) (w *world, cands []candidate, playouts int, decided game.Action, search bool) {
	w, ok := newWorld(v, h)
	if !ok {
		return nil, nil, 0, Baseline(*v, seed), false
	}
	cands = shefCandidates(w)
	switch len(cands) {
	case 0:
		return w, nil, 0, Baseline(*v, seed), false
	case 1:
		return w, nil, 0, cands[0].a, false
	}
	playouts = b.Playouts
	if playouts <= 0 {
		playouts = DefaultPlayouts
	}
	return w, cands, playouts, 0, true
}

// shefCandidates lists the actions worth searching, best prior first.
func shefCandidates(w *world) []candidate {
	st := &w.base
	var e cookEval
	e.init(st, st.turn, w.unknown, &defaultCook)
	var out []candidate
	switch st.phase {
	case PhasePick, PhaseAward:
		from := &st.pool
		if st.phase == PhasePick {
			from = &st.setAside
		}
		for s := Suit(0); s < NumSuits; s++ {
			if from[s] > 0 {
				out = append(out, candidate{a: ChefAction(s), prior: e.chefValue(s, st.phase == PhasePick)})
			}
		}
	case PhasePlay:
		for x := uint64(st.playable(st.turn)); x != 0; x &= x - 1 {
			c := cardAt(uint8(bits.TrailingZeros64(x)))
			out = append(out, candidate{a: PlayAction(c, 0), prior: e.playValue(c, 0)})
			up, down := e.swings(c)
			if up != 0 {
				out = append(out, candidate{a: PlayAction(c, up), prior: e.playValue(c, up)})
			}
			if down != 0 {
				out = append(out, candidate{a: PlayAction(c, down), prior: e.playValue(c, down)})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].prior > out[j].prior })
	return out
}

// shefPlayout plays st to the end of its round with the cook heuristic for
// every seat (each knowing only its own cards and what is out) and returns
// seat me's marginUtility.
func shefPlayout(st *State, me uint8, r *rng) float64 {
	round := st.round
	for st.round == round && st.phase != PhaseOver {
		seat := st.turn
		var out cardSet
		for i := 0; i < int(st.players); i++ {
			if uint8(i) != seat {
				out |= st.hands[i]
			}
		}
		if st.Apply(game.Seat(seat), cookAct(st, out, r, shefRolloutNoise, &defaultCook)) != nil {
			break // cannot happen: cookAct plays legal actions
		}
	}
	return marginUtility(st, me)
}

// marginUtility is seat me's utility at the end of a playout: its game
// total minus the best other total, plus half its lead over the others'
// mean. The first term is what wins games; the second keeps a seat that
// cannot catch the leader this round from throwing points away.
func marginUtility(st *State, me uint8) float64 {
	t := st.totals()
	n := int(st.players)
	best, sum := math.Inf(-1), 0.0
	for i := 0; i < n; i++ {
		if uint8(i) == me {
			continue
		}
		best = math.Max(best, float64(t[i]))
		sum += float64(t[i])
	}
	mine := float64(t[me])
	return mine - best + 0.5*(mine-sum/float64(n-1))
}
