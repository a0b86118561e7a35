package sausages

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// JudgeDeals is Weigh's budget when none is given: sampled deals, each
// played to the end of the game once per legal move.
const JudgeDeals = 400

// ReasonMeasured is the reason Weigh gives for a best move Sharp would not
// make there: of all the legal moves, it won the most played-out games.
const ReasonMeasured Reason = "measured"

// Weighing is every legal move of a seat played out to the end of the
// game («🔍 Разбор»'s judge): Sharp at every seat, from deals of the hidden
// cards as Sharp's belief weighs them, on the same deals and random
// numbers for every move, so the differences are the moves', not the
// deals'. Sharp's mixes count for nothing here: every move is measured.
type Weighing struct {
	Legal []game.Action // the seat's legal moves, in the view's order
	// Best is the move that won the most games (Sharp's own move on a
	// tie with it, else the earliest); Sharp's when nothing could be
	// measured (Deals 0). Why is its reason: Sharp's when Sharp makes
	// it for the seed, else ReasonMeasured.
	Best game.Action
	Why  Advice
	// Deals is how many sampled deals every move was played out on; 0
	// for a view the engine could not have made.
	Deals int
	// Win is, by legal move, the seat's chance to win the game after it.
	Win []float64
}

// Weigh plays every legal move of the view out on deals deals (0:
// JudgeDeals), seeded by seed.
func Weigh(v SeatView, seed uint64, deals int) Weighing {
	n := len(v.Legal)
	wg := Weighing{Legal: slices.Clone(v.Legal), Best: -1}
	if n == 0 {
		return wg
	}
	sharp := AdviseSharp(v, seed)
	wg.Best, wg.Why = sharp.Action, sharp
	base, ok := fromView(&v)
	if !ok {
		return wg
	}
	if deals <= 0 {
		deals = JudgeDeals
	}
	b := newBelief(&v)
	r := rng(seed ^ 0x7765696768)
	me := uint8(v.Seat)
	wins := make([]int, n)
	for range deals {
		deal := base
		dealHidden(&deal, &v, b, &r)
		play := r.Next()
		for i, x := range v.Legal {
			st := deal
			if st.Apply(v.Seat, x) != nil {
				return wg // cannot happen: a legal move is legal in every deal
			}
			if playOut(&st, play) == me {
				wins[i]++
			}
		}
	}
	wg.Deals, wg.Win = deals, make([]float64, n)
	best := max(0, slices.Index(v.Legal, sharp.Action))
	for i, w := range wins {
		wg.Win[i] = float64(w) / float64(deals)
		if w > wins[best] {
			best = i
		}
	}
	if wg.Best = v.Legal[best]; wg.Best != sharp.Action {
		wg.Why = Advice{Action: wg.Best, Reason: ReasonMeasured}
	}
	return wg
}

// Verdict is the Weighing as a Verdict on the move a (one of Legal): Best
// and its reason are the Weighing's.
func (wg Weighing) Verdict(a game.Action) Verdict {
	vd := Verdict{Best: wg.Best, Why: wg.Why}
	i, b := slices.Index(wg.Legal, a), slices.Index(wg.Legal, wg.Best)
	if wg.Deals == 0 || i < 0 || b < 0 {
		return vd
	}
	vd.Deals, vd.Win, vd.BestWin = wg.Deals, wg.Win[i], wg.Win[b]
	return vd
}

// Random is what a uniformly random legal move gives up against Best on
// average: the mean chance to win lost.
func (wg Weighing) Random() float64 {
	b := slices.Index(wg.Legal, wg.Best)
	if wg.Deals == 0 || b < 0 {
		return 0
	}
	sum := 0.0
	for _, w := range wg.Win {
		sum += wg.Win[b] - w
	}
	return sum / float64(len(wg.Win))
}
