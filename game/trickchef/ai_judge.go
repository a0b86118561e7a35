package trickchef

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// Verdict is Shef's judgement of one action of a seat («🔍 Разбор»): the
// move Shef makes there and what each move brings, measured by Shef's own
// search on the same sampled deals (common random numbers), so the
// difference is the move's, not the deals'.
type Verdict struct {
	// Best is Shef's move: the very action Decide returns for the same
	// view, History, seed and Budget.
	Best game.Action
	// Deals is how many sampled deals both moves were played out on; 0
	// when nothing could be measured (the view allows no deal).
	Deals int
	// Margin and BestMargin are the search's utility of the judged move
	// and of Best, in points: the seat's game total at the end of the
	// round minus the best other total, plus half its lead over the
	// others' mean, averaged over the deals.
	Margin, BestMargin float64
	// Ahead and BestAhead are the shares of those deals after whose round
	// the seat leads the game outright.
	Ahead, BestAhead float64
	// Tally and BestTally are what the round scored after each move, on
	// average (Weigh's verdicts only).
	Tally, BestTally Tally
	// Why is the evidence for Best, as Advise reports it (zero when Shef
	// had nothing to search).
	Why Advice
}

// Judge weighs the seat's action a (one of v.Legal) against Shef's move
// for the same view, History, seed and Budget: Shef's own search, with a
// played out beside the candidates on every deal it samples. Budget is
// meant as a count of playouts: a wall-clock cap makes the verdict depend
// on the machine. When Shef's move needs no search (a single sensible
// move), a different a is still weighed against it on deals of the same
// budget.
func Judge(v SeatView, h History, seed uint64, b Budget, a game.Action) Verdict {
	if len(v.Legal) == 0 || !slices.Contains(v.Legal, a) {
		return Verdict{Best: -1}
	}
	var ev Advice
	pb := probe{a: a}
	best := shefSearch(&v, h, seed, b, &ev, &pb)
	if !slices.Contains(v.Legal, best) {
		best, ev = Baseline(v, seed), Advice{}
	}
	ev.Action = best
	vd := Verdict{Best: best, Why: ev}
	switch {
	case pb.searched:
		vd.Deals = pb.n
		vd.Margin, vd.Ahead = pb.margin/float64(pb.n), float64(pb.ahead)/float64(pb.n)
		vd.BestMargin, vd.BestAhead = pb.bestMargin/float64(pb.n), float64(pb.bestAhead)/float64(pb.n)
	case pb.world != nil && a != best:
		vd.Deals, vd.BestMargin, vd.BestAhead, vd.Margin, vd.Ahead = pairOut(pb.world, best, a, seed, b)
	}
	return vd
}

// probe plays one more action out on every deal of Shef's search, beside
// the candidates, and keeps the sums Judge needs of it and of the move the
// search ends up choosing.
type probe struct {
	a        game.Action
	world    *world // the search's world, also when there was nothing to search
	searched bool

	u     []float64 // this deal's utilities, by candidate
	up    []bool    // ... and whether the seat leads after the round
	sumU  []float64 // over the deals each candidate was played out on
	sumUp []int
	n     int // deals

	margin, bestMargin float64
	ahead, bestAhead   int
}

func (pb *probe) start(w *world, k int) {
	pb.world, pb.searched = w, true
	pb.u, pb.up = make([]float64, k), make([]bool, k)
	pb.sumU, pb.sumUp = make([]float64, k), make([]int, k)
}

// candidate records candidate i's playout on this deal.
func (pb *probe) candidate(i int, u float64, ahead bool) { pb.u[i], pb.up[i] = u, ahead }

// deal plays the probed action out on this deal with the playout seed
// the candidates used, and adds the deal to the sums of the candidates
// played out on it.
func (pb *probe) deal(deal *State, me uint8, rs uint64, active []bool) {
	st := *deal
	if st.Apply(st.turnSeat(), pb.a) != nil {
		return // cannot happen: a legal action is legal in every deal
	}
	pr := rng(rs)
	u, _ := shefRollout(&st, me, &pr)
	pb.n++
	pb.margin += u
	if roundAhead(&st, me) {
		pb.ahead++
	}
	for i, on := range active {
		if on {
			pb.sumU[i] += pb.u[i]
			if pb.up[i] {
				pb.sumUp[i]++
			}
		}
	}
}

// finish keeps the sums of the chosen candidate, which was played out on
// every deal (a candidate left behind never comes back).
func (pb *probe) finish(best int) {
	if pb.n > 0 {
		pb.bestMargin, pb.bestAhead = pb.sumU[best], pb.sumUp[best]
	}
}

// pairOut plays x and y out on the deals of one budget, on common random
// numbers, and returns the deals and each move's mean utility and share
// of deals the seat leads after.
func pairOut(w *world, x, y game.Action, seed uint64, b Budget) (deals int, ux, ax, uy, ay float64) {
	playouts := b.Playouts
	if playouts <= 0 {
		playouts = DefaultPlayouts
	}
	budget := playouts * roundMoves(int(w.base.players))
	r := rng(seed ^ 0x6a75646765)
	var deal, st State
	var sx, sy float64
	var nx, ny int
	moves := 0
	for deals < shefMaxDeals && moves < budget {
		w.sample(&deal, &r)
		moves += 2 * shefDealMoves
		rs := r.Next()
		for k, a := range [2]game.Action{x, y} {
			st = deal
			if st.Apply(st.turnSeat(), a) != nil {
				return 0, 0, 0, 0, 0 // cannot happen: both are legal
			}
			pr := rng(rs)
			u, m := shefRollout(&st, w.me, &pr)
			moves += m + 1
			up := 0
			if roundAhead(&st, w.me) {
				up = 1
			}
			if k == 0 {
				sx, nx = sx+u, nx+up
			} else {
				sy, ny = sy+u, ny+up
			}
		}
		deals++
	}
	if deals == 0 {
		return 0, 0, 0, 0, 0
	}
	n := float64(deals)
	return deals, sx / n, float64(nx) / n, sy / n, float64(ny) / n
}

// LossScale is the margin, in points, that Loss counts as everything a
// move could give up: about what separates the first seat from the last
// after a round (a round's margin spreads 2.6 points per seat).
const LossScale = 10

// Loss is what the judged move gave up against Best, normalised to
// [0, 1]: the margin lost over LossScale; 0 when it measured as good.
func (vd Verdict) Loss() float64 {
	return min(1, max(0, (vd.BestMargin-vd.Margin)/LossScale))
}
