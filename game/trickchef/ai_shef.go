package trickchef

import (
	"math"
	"math/bits"

	"github.com/trickchef/trickchef/game"
)

// «Шеф»: determinized Monte Carlo, like PrevShef (ai_prevshef.go), with the
// search budget spent where it decides something:
//
//   - The budget counts simulated moves, not playouts. A playout late in a
//     round is a few moves, one from the round's start about fifty; PrevShef
//     gave both the same number of deals, so its late decisions (the coin
//     swings, the last tricks) were as noisy as its first lead while costing
//     a tenth. Shef plays as many deals as fit the moves its Playouts would
//     cost from the round's start, so its worst case (and p99) stays
//     PrevShef's while every later decision sees many more deals.
//   - Candidates race: every candidate is played out on the same deals
//     (common random numbers), and one whose paired mean is clearly below
//     the leader's (shefRaceZ standard errors of the paired difference) is
//     dropped, so the remaining moves go to the candidates still in doubt.
//   - Its playouts are played by shefCook (ai_policy.go), cook numbers
//     tuned to beat the cook heuristic, for every seat: the playouts are
//     its forecast of the round, and better players in them forecast
//     better play.
//
// The count of moves is deterministic, so a decision depends only on the
// view, History, seed and Budget.Playouts; the wall cap stays a safety net.

const (
	// shefRaceZ is how many standard errors of the paired difference a
	// candidate must trail the leader by to be dropped. High, because it
	// is tested many times per decision.
	shefRaceZ = 3.0
	// shefRaceMin is the number of deals before any candidate is dropped,
	// and shefRaceEvery how often (in deals) the race is checked after.
	shefRaceMin   = 32
	shefRaceEvery = 8
	// shefDealMoves is what sampling one deal costs, counted in moves.
	shefDealMoves = 4
	// shefMaxDeals caps the deals of one decision; reached only when the
	// playouts are a move or two long.
	shefMaxDeals = 4000
)

// roundMoves is the number of moves a playout from a round's start makes:
// the chef picks, every card and every chef award.
func roundMoves(players int) int { return players - 1 + players*HandSize + HandSize }

// raceStats accumulates, per candidate, the sum and sum of squares of its
// utilities, and per pair the sum of products, over the deals every active
// candidate was played out on.
type raceStats struct {
	n      int
	sum    []float64
	sq     []float64
	cross  []float64 // k×k, row-major
	active []bool
	k      int
}

func newRaceStats(k int) *raceStats {
	rs := &raceStats{k: k, sum: make([]float64, k), sq: make([]float64, k), cross: make([]float64, k*k), active: make([]bool, k)}
	for i := range rs.active {
		rs.active[i] = true
	}
	return rs
}

// add records one deal's utilities (u[i] for active i).
func (rs *raceStats) add(u []float64) {
	rs.n++
	for i := 0; i < rs.k; i++ {
		if !rs.active[i] {
			continue
		}
		rs.sum[i] += u[i]
		rs.sq[i] += u[i] * u[i]
		for j := i + 1; j < rs.k; j++ {
			if rs.active[j] {
				rs.cross[i*rs.k+j] += u[i] * u[j]
			}
		}
	}
}

// leader is the active candidate with the best mean; ties go to the lower
// index (the better prior).
func (rs *raceStats) leader() int {
	best := -1
	for i := 0; i < rs.k; i++ {
		if rs.active[i] && (best < 0 || rs.sum[i] > rs.sum[best]) {
			best = i
		}
	}
	return best
}

// prune drops every active candidate clearly behind the leader and
// returns how many stay.
func (rs *raceStats) prune() int {
	l := rs.leader()
	n := float64(rs.n)
	left := 0
	for i := 0; i < rs.k; i++ {
		if !rs.active[i] {
			continue
		}
		if i != l {
			a, b := min(i, l), max(i, l)
			d := (rs.sum[l] - rs.sum[i]) / n
			// Var(u_l − u_i) from the running sums.
			v := (rs.sq[l]+rs.sq[i]-2*rs.cross[a*rs.k+b])/n - d*d
			if d > 0 && d*d*n > shefRaceZ*shefRaceZ*math.Max(v, 1e-9) {
				rs.active[i] = false
				continue
			}
		}
		left++
	}
	return left
}

func shef(v *SeatView, h History, seed uint64, b Budget) game.Action {
	return shefSearch(v, h, seed, b, nil)
}

// shefSearch is Shef's search; with ev it also counts, for every
// candidate, the evidence Advise reports. That draws nothing from the
// generators, counts nothing against the budget and takes no part in the
// race, so the choice is the same with ev or without.
func shefSearch(v *SeatView, h History, seed uint64, b Budget, ev *Advice) game.Action {
	w, cands, playouts, decided, search := searchStart(v, h, seed, b)
	if !search {
		return decided
	}
	var ahead, took, chef []int
	if ev != nil {
		ahead, took, chef = make([]int, len(cands)), make([]int, len(cands)), make([]int, len(cands))
	}
	budget := playouts * roundMoves(int(w.base.players))
	var start int64
	capped := b.Clock != nil && b.Wall > 0
	if capped {
		start = b.Clock().UnixNano()
	}
	race := newRaceStats(len(cands))
	u := make([]float64, len(cands))
	r := rng(seed ^ 0x73686566)
	var deal, st State
	moves := 0
	for d := 0; d < shefMaxDeals && moves < budget; d++ {
		if capped && d > 0 && b.Clock().UnixNano()-start >= int64(b.Wall) {
			break
		}
		w.sample(&deal, &r)
		moves += shefDealMoves
		rs := r.Next()
		for i := range cands {
			if !race.active[i] {
				continue
			}
			st = deal
			if st.Apply(st.turnSeat(), cands[i].a) != nil {
				// Cannot happen: candidates are legal in every deal.
				race.active[i] = false
				continue
			}
			pr := rng(rs)
			var m int
			// The round the playout scores: the one the move is made in. A
			// move that ends it (the last chef award, or a last card whose
			// chef is handed out by itself) is scored there, not at the end
			// of the next round.
			round := deal.round
			if ev != nil && deal.phase == PhasePlay {
				// Play on to the end of this trick to see who takes it.
				done := deal.tricksDone()
				for st.tricksDone() == done && shefStep(&st, &pr) {
					m++
				}
				if trickResolved(&deal, &st, done) {
					if st.last.winner == w.me {
						took[i]++
					}
					if st.last.taker == w.me {
						chef[i]++
					}
				}
			}
			var rest int
			if st.round == round {
				u[i], rest = shefRollout(&st, w.me, &pr)
			} else {
				// The trick played on was the round's last and scored it:
				// the playout is over, as it would be without the counting.
				u[i] = marginUtility(&st, w.me)
			}
			moves += m + rest + 1
			if ev != nil && roundAhead(&st, w.me) {
				ahead[i]++
			}
		}
		race.add(u)
		if race.n >= shefRaceMin && race.n%shefRaceEvery == 0 && race.prune() == 1 {
			break
		}
	}
	best := race.leader()
	if ev != nil && race.n > 0 {
		n := float64(race.n)
		ev.Deals = race.n
		ev.Ahead = float64(ahead[best]) / n
		ev.Took = float64(took[best]) / n
		ev.Chef = float64(chef[best]) / n
	}
	return cands[best].a
}

// tricksDone is the number of tricks resolved this round.
func (st *State) tricksDone() int {
	n := 0
	for i := 0; i < int(st.players); i++ {
		n += int(st.tricksWon[i])
	}
	return n
}

// trickResolved reports whether the trick on the table in deal, with done
// tricks resolved before it, has been resolved in st, played on from it:
// more tricks done, or, when it was the round's last and its chef award
// was forced, the round scored (the next one dealt, or the game over).
func trickResolved(deal, st *State, done int) bool {
	return st.tricksDone() > done || st.round != deal.round || st.phase == PhaseOver
}

// roundAhead reports whether seat me leads everyone after the round st
// was played to the end of.
func roundAhead(st *State, me uint8) bool {
	t := st.totals()
	for i := 0; i < int(st.players); i++ {
		if uint8(i) != me && t[i] >= t[me] {
			return false
		}
	}
	return true
}

// shefRollout plays st to the end of its round like shefPlayout and also
// returns the number of moves it made.
func shefRollout(st *State, me uint8, r *rng) (float64, int) {
	round := st.round
	moves := 0
	for st.round == round && st.phase != PhaseOver {
		moves++
		if !shefStep(st, r) {
			break // cannot happen: cookAct plays legal actions
		}
	}
	return marginUtility(st, me), moves
}

// shefStep makes one move of a playout: a forced card at once, else the
// tuned cook's choice. It reports false if the move was refused.
func shefStep(st *State, r *rng) bool {
	seat := st.turn
	if st.phase == PhasePlay && st.coins[seat] == 0 {
		// A forced card (one playable, no coins to add) needs no
		// thought: most of the last tricks' moves.
		if p := st.playable(seat); p != 0 && p&(p-1) == 0 {
			st.playCard(uint8(bits.TrailingZeros64(uint64(p))), 0)
			return true
		}
	}
	var out cardSet
	for i := 0; i < int(st.players); i++ {
		if uint8(i) != seat {
			out |= st.hands[i]
		}
	}
	return st.Apply(game.Seat(seat), cookAct(st, out, r, shefRolloutNoise, &shefCook)) == nil
}
