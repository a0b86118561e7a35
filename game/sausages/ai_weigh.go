package sausages

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// JudgeDeals is Weigh's budget when none is given: sampled deals, each
// played to the end of the game once per legal move.
const JudgeDeals = 400

// Weighing is every legal move of a seat played out to the end of the
// game («🔍 Разбор»'s judge): the seat and the others play on as
// judgeTable has them, from deals of the hidden cards as Sharp's belief
// (with the judge's prior) weighs them, on the same deals and random
// numbers for every move, so the differences are the moves', not the
// deals'. The yardstick is Sharp's own play there: a bluffing game is
// played by a mix, so a move costs what it wins less than Sharp's mix
// does on average (Par), not less than the luckiest of all the measured
// moves.
type Weighing struct {
	Legal []game.Action // the seat's legal moves, in the view's order
	// Best is the move of Sharp's mix that won the most games (Sharp's
	// move for the seed when nothing could be measured, Deals 0); Why is
	// Sharp's reason for it.
	Best game.Action
	Why  Advice
	// Deals is how many sampled deals every move was played out on; 0
	// for a view the engine could not have made.
	Deals int
	// Win is, by legal move, the seat's chance to win the game after it.
	Win []float64
	// Mix is, by legal move, the share of the seeds for which Sharp makes
	// it; Par is Sharp's chance to win here, the mean of Win over Mix.
	Mix []float64
	Par float64
}

// Weigh plays every legal move of the view out on deals deals (0:
// JudgeDeals), seeded by seed, with the judge's model of the table
// (judgeTable).
func Weigh(v SeatView, seed uint64, deals int) Weighing {
	return weigh(v, seed, deals, judgeTable())
}

// judgeModel is how Weigh sees the table: the prior of its deals that a
// player holding the boot lays it first, the levels the others play by in
// the playouts, one drawn per seat and deal (none: Sharp), and the level
// the seat plays on by after the judged move (nil: Sharp).
type judgeModel struct {
	setupBoot float64
	others    []aiLevel
	self      aiLevel
}

// judgeSetupBoot is the prior of the judge's deals that a player holding
// the boot lays it first, measured over the levels' own play (4 players,
// one of each level, 2,000 games: random 0.54, Baseline 0.85, Sly 0.95,
// Sharp 0.29, all 0.68); Sharp's own belief keeps beliefSetupBoot.
const judgeSetupBoot = 0.7

// judgeTable is the judge's model: each other seat plays on, per deal, as
// a uniformly random player or as Baseline, the two levels that model
// nobody's stack. The judge does not know who the others are, and a
// model that reads the table makes its own blind spots everyone's: with
// Sharp at every seat, a raise onto one's own boot that only spoils
// Sharp's sure attempts measured as the best move at nearly every
// bidding, and every level's pass as a blunder (docs/ai.md, «Разбор»,
// has the models measured).
//
// The seat itself plays on as Sly, not Sharp: Sharp's play with its own
// boot down is a passive pass or a bluff only a reader answers, so with
// Sharp playing on, every first card that is the boot measured as a loss
// of 1.5–4% and that single habit decided every lower level's accuracy
// (docs/ai.md has the runs).
func judgeTable() judgeModel {
	return judgeModel{setupBoot: judgeSetupBoot, others: []aiLevel{randomLevel, Baseline}, self: Sly}
}

// randomLevel plays a uniformly random legal move.
func randomLevel(v SeatView, seed uint64) game.Action {
	r := rng(seed)
	return v.Legal[r.Below(len(v.Legal))]
}

func weigh(v SeatView, seed uint64, deals int, m judgeModel) Weighing {
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
	b := newBeliefPrior(&v, m.setupBoot)
	r := rng(seed ^ 0x7765696768)
	me := uint8(v.Seat)
	wins := make([]int, n)
	for range deals {
		deal := base
		dealHiddenPrior(&deal, &v, b, &r, m.setupBoot)
		var pol [MaxPlayers]aiLevel
		for s := range pol {
			if game.Seat(s) == v.Seat {
				pol[s] = m.self
			} else if len(m.others) > 0 {
				pol[s] = m.others[r.Below(len(m.others))]
			}
		}
		play := r.Next()
		for i, x := range v.Legal {
			st := deal
			if st.Apply(v.Seat, x) != nil {
				return wg // cannot happen: a legal move is legal in every deal
			}
			if playOutWith(&st, play, &pol) == me {
				wins[i]++
			}
		}
	}
	wg.Deals, wg.Win, wg.Mix = deals, make([]float64, n), make([]float64, n)
	for i, w := range wins {
		wg.Win[i] = float64(w) / float64(deals)
	}
	// Sharp's mix: its move for the seed and for mixSeeds more.
	seeds := make([]uint64, n)
	add := func(s uint64) {
		if i := slices.Index(v.Legal, Sharp(v, s)); i >= 0 {
			if wg.Mix[i] == 0 {
				seeds[i] = s
			}
			wg.Mix[i]++
		}
	}
	add(seed)
	mr := rng(seed ^ 0x6d6978)
	for range mixSeeds {
		add(mr.Next())
	}
	best, par := -1, 0.0
	for i := range wg.Mix {
		par += wg.Mix[i] * float64(wins[i])
		wg.Mix[i] /= mixSeeds + 1
		if wg.Mix[i] > 0 && (best < 0 || wg.Win[i] > wg.Win[best]) {
			best = i
		}
	}
	// Par in whole games first: a mix of equal moves is exactly their Win.
	wg.Par = par / (mixSeeds + 1) / float64(deals)
	if best >= 0 {
		wg.Par = min(wg.Par, wg.Win[best])
	}
	if best >= 0 && v.Legal[best] != sharp.Action {
		wg.Best, wg.Why = v.Legal[best], AdviseSharp(v, seeds[best])
	}
	return wg
}

// Verdict is the Weighing as a Verdict on the move a (one of Legal): Best
// and its reason are the Weighing's, BestWin is Par.
func (wg Weighing) Verdict(a game.Action) Verdict {
	vd := Verdict{Best: wg.Best, Why: wg.Why}
	i := slices.Index(wg.Legal, a)
	if wg.Deals == 0 || i < 0 {
		return vd
	}
	vd.Deals, vd.Win, vd.BestWin = wg.Deals, wg.Win[i], max(wg.Par, wg.Win[i])
	return vd
}

// Random is what a uniformly random legal move gives up against Par on
// average: the mean chance to win lost.
func (wg Weighing) Random() float64 {
	if wg.Deals == 0 {
		return 0
	}
	sum := 0.0
	for _, w := range wg.Win {
		sum += max(wg.Par, w) - w
	}
	return sum / float64(len(wg.Win))
}
