package trickchef

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// JudgePlayouts is Weigh's budget when none is given: three times Shef's
// default, spent on every legal move alike rather than raced among the
// candidates Shef keeps.
const JudgePlayouts = 3 * DefaultPlayouts

// Weighing is every legal move of a seat measured the way Shef's search
// measures its candidates («🔍 Разбор»'s judge): each played out on the
// same sampled deals with the same playout seeds (common random numbers),
// so the differences are the moves', not the deals'.
type Weighing struct {
	Legal []game.Action // the seat's legal moves, in the view's order
	// Best is the move of the highest Margin (the earliest on a tie);
	// Baseline's when nothing could be measured (Deals 0).
	Best game.Action
	// Deals is how many sampled deals every move was played out on; 0
	// when the view allows no deal.
	Deals int
	// Margin, Ahead, Took and Chef are, by legal move, the mean margin
	// utility Shef's search maximises (points), the share of deals after
	// whose round the seat leads the game outright, and for a card the
	// shares of deals in which it wins the trick and in which it is the
	// trick's lowest card.
	Margin, Ahead, Took, Chef []float64
	// Tally is, by legal move, what the round scored on average: the
	// seat's stars and coins and the others' (the review's reasons say
	// where a move's points came from or went).
	Tally []Tally
}

// Tally is what one round scored, averaged over the deals it was played
// out on: the seat's stars and coins, and the other seats' together.
type Tally struct {
	Stars, Coins, RivalStars, RivalCoins float64
}

// add counts the finished round rec for seat me.
func (t *Tally) add(rec *roundRecord, players int, me uint8) {
	for i := 0; i < players; i++ {
		stars := rec.stars(i)
		if uint8(i) == me {
			t.Stars += float64(stars)
			t.Coins += float64(rec.coins[i])
		} else {
			t.RivalStars += float64(stars)
			t.RivalCoins += float64(rec.coins[i])
		}
	}
}

func (t Tally) over(d float64) Tally {
	return Tally{t.Stars / d, t.Coins / d, t.RivalStars / d, t.RivalCoins / d}
}

// Weigh plays every legal move of the view out on the deals of playouts
// Shef playouts' worth of moves (0: JudgePlayouts), seeded by seed.
func Weigh(v SeatView, h History, seed uint64, playouts int) Weighing {
	n := len(v.Legal)
	wg := Weighing{Legal: slices.Clone(v.Legal), Best: -1}
	if n == 0 {
		return wg
	}
	wg.Best = Baseline(v, seed)
	w, ok := newWorld(&v, h)
	if !ok {
		return wg
	}
	if playouts <= 0 {
		playouts = JudgePlayouts
	}
	margin := make([]float64, n)
	ahead, took, chef := make([]int, n), make([]int, n), make([]int, n)
	tally := make([]Tally, n)
	budget := playouts * roundMoves(int(w.base.players))
	r := rng(seed ^ 0x7765696768)
	var deal, st State
	moves, deals := 0, 0
	for deals < shefMaxDeals && moves < budget {
		w.sample(&deal, &r)
		moves += shefDealMoves
		rs := r.Next()
		for i, a := range v.Legal {
			st = deal
			if st.Apply(st.turnSeat(), a) != nil {
				return wg // cannot happen: a legal action is legal in every deal
			}
			pr := rng(rs)
			// The round the move is made in: a last chef award ends it, and
			// what follows belongs to the next round, not to this move.
			m, round := 0, deal.round
			if deal.phase == PhasePlay {
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
			var u float64
			rest := 0
			if st.round == round {
				u, rest = shefRollout(&st, w.me, &pr)
			} else {
				u = marginUtility(&st, w.me) // the trick played on ended the round
			}
			moves += m + rest + 1
			margin[i] += u
			if int(round) <= st.finishedRounds() {
				tally[i].add(&st.results[round-1], int(st.players), w.me)
			}
			if roundAhead(&st, w.me) {
				ahead[i]++
			}
		}
		deals++
	}
	wg.Deals = deals
	d := float64(deals)
	wg.Margin, wg.Ahead, wg.Took, wg.Chef = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	wg.Tally = make([]Tally, n)
	best := 0
	for i := range n {
		wg.Margin[i], wg.Ahead[i] = margin[i]/d, float64(ahead[i])/d
		wg.Took[i], wg.Chef[i] = float64(took[i])/d, float64(chef[i])/d
		wg.Tally[i] = tally[i].over(d)
		if wg.Margin[i] > wg.Margin[best] {
			best = i
		}
	}
	wg.Best = v.Legal[best]
	return wg
}

// Verdict is the judge's word on one action of a seat («🔍 Разбор»):
// the move of the Weighing's highest margin and what each move brings,
// measured on the same sampled deals (common random numbers), so the
// difference is the move's, not the deals'.
type Verdict struct {
	// Best is the Weighing's best move.
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
	// average.
	Tally, BestTally Tally
	// Why is the evidence for Best, as Advise reports it.
	Why Advice
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

// Verdict is the Weighing as a Verdict on the move a (one of Legal): Best
// and its evidence are the Weighing's.
func (wg Weighing) Verdict(a game.Action) Verdict {
	vd := Verdict{Best: wg.Best, Why: Advice{Action: wg.Best}}
	i, b := slices.Index(wg.Legal, a), slices.Index(wg.Legal, wg.Best)
	if wg.Deals == 0 || i < 0 || b < 0 {
		return vd
	}
	vd.Deals = wg.Deals
	vd.Margin, vd.Ahead = wg.Margin[i], wg.Ahead[i]
	vd.BestMargin, vd.BestAhead = wg.Margin[b], wg.Ahead[b]
	vd.Tally, vd.BestTally = wg.Tally[i], wg.Tally[b]
	vd.Why = Advice{Action: wg.Best, Deals: wg.Deals, Ahead: wg.Ahead[b], Took: wg.Took[b], Chef: wg.Chef[b]}
	return vd
}

// Random is what a uniformly random legal move gives up against Best on
// average, on Loss's scale: the mean margin lost over LossScale.
func (wg Weighing) Random() float64 {
	b := slices.Index(wg.Legal, wg.Best)
	if wg.Deals == 0 || b < 0 {
		return 0
	}
	sum := 0.0
	for _, m := range wg.Margin {
		sum += min(1, (wg.Margin[b]-m)/LossScale)
	}
	return sum / float64(len(wg.Margin))
}
