package chef

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// JudgePlayouts is Weigh's budget when none is given: twice Shef's
// default, shared by every legal move alike rather than halved among
// Shef's candidates.
const JudgePlayouts = 2 * DefaultPlayouts

// weighMinWorlds is the sampled worlds Weigh plays every move out in at
// least, however many legal moves share the budget.
const weighMinWorlds = 200

// Weighing is every legal move of a seat measured the way Shef's search
// measures its candidates («🔍 Разбор»'s judge): each played out in the
// same sampled worlds (the same pile, the same later rebuilds), so the
// differences are the moves', not the pile's.
type Weighing struct {
	Legal []game.Action // the seat's legal moves, in the view's order
	// Best is the move of the highest Win (the earliest on a tie); Cook's
	// when nothing could be measured (Worlds 0).
	Best game.Action
	// Worlds is how many sampled worlds every move was played out in; 0
	// for a view the engine could not have made.
	Worlds int
	// Win is, by legal move, the seat's chance to win the game after it:
	// the share of the playouts it wins, a playout cut at the search's
	// horizon counting the chance the robots estimate.
	Win []float64
}

// Weigh plays every legal move of the view out in the worlds of playouts
// (0: JudgePlayouts) shared among them, at least weighMinWorlds, seeded
// by seed.
func Weigh(v SeatView, seed uint64, playouts int) Weighing {
	n := len(v.Legal)
	wg := Weighing{Legal: slices.Clone(v.Legal), Best: -1}
	if n == 0 {
		return wg
	}
	wg.Best = DecideBudget(Cook, v, seed, Budget{})
	r := aiRand(&v, seed^0x7765696768)
	base, ok := fromView(&v, &r)
	if !ok {
		return wg
	}
	if playouts <= 0 {
		playouts = JudgePlayouts
	}
	worlds := max(weighMinWorlds, playouts/n)
	me := base.turn
	win := make([]float64, n)
	for range worlds {
		world := base
		world.rng = rng(r.Next())
		world.shuffle(world.pile[:world.npile])
		for i, a := range v.Legal {
			w := world
			if w.Apply(game.Seat(me), a) != nil {
				return wg // cannot happen: a legal action is legal in every world
			}
			win[i] += rollout(&w, me)
		}
	}
	wg.Worlds = worlds
	best := 0
	for i := range win {
		win[i] /= float64(worlds)
		if win[i] > win[best] {
			best = i
		}
	}
	wg.Win, wg.Best = win, v.Legal[best]
	return wg
}

// Verdict is the judge's word on one action of a seat («🔍 Разбор»):
// the move of the Weighing's highest chance to win and the seat's chance
// after each move, measured in the same sampled worlds (common random
// numbers: the same pile, the same later rebuilds), so the difference is
// the move's, not the pile's.
type Verdict struct {
	// Best is the Weighing's best move.
	Best game.Action
	// Playouts is how many sampled worlds both moves were played out in;
	// 0 when nothing could be measured (a view the engine could not have
	// made).
	Playouts int
	// Win and BestWin are the seat's chance to win the game after the
	// judged move and after Best: the share of the playouts it wins, a
	// playout cut at the search's horizon counting the chance the robots
	// estimate from the menus on the table.
	Win, BestWin float64
	// Why is the evidence for Best, as Advise reports it.
	Why Advice
}

// Loss is what the judged move gave up against Best: the chance to win
// the game it lost, in [0, 1]; 0 when it measured as good.
func (vd Verdict) Loss() float64 { return min(1, max(0, vd.BestWin-vd.Win)) }

// Verdict is the Weighing as a Verdict on the move a (one of Legal): Best
// and its evidence are the Weighing's.
func (wg Weighing) Verdict(a game.Action) Verdict {
	vd := Verdict{Best: wg.Best, Why: Advice{Action: wg.Best}}
	i, b := slices.Index(wg.Legal, a), slices.Index(wg.Legal, wg.Best)
	if wg.Worlds == 0 || i < 0 || b < 0 {
		return vd
	}
	vd.Playouts, vd.Win, vd.BestWin = wg.Worlds, wg.Win[i], wg.Win[b]
	vd.Why = Advice{Action: wg.Best, Playouts: wg.Worlds, Win: wg.Win[b]}
	return vd
}

// Random is what a uniformly random legal move gives up against Best on
// average: the mean chance to win lost.
func (wg Weighing) Random() float64 {
	b := slices.Index(wg.Legal, wg.Best)
	if wg.Worlds == 0 || b < 0 {
		return 0
	}
	sum := 0.0
	for _, w := range wg.Win {
		sum += wg.Win[b] - w
	}
	return sum / float64(len(wg.Win))
}
