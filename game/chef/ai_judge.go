package chef

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// Verdict is Shef's judgement of one action of a seat («🔍 Разбор»): the
// move Shef makes there and the seat's chance to win after each move,
// measured by Shef's own search in the same sampled worlds (common random
// numbers: the same pile, the same later rebuilds), so the difference is
// the move's, not the pile's.
type Verdict struct {
	// Best is Shef's move: the very action DecideBudget(Shef, …) returns
	// for the same view, seed and Budget.
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

// Judge weighs the seat's action a (one of v.Legal) against Shef's move
// for the same view, seed and Budget: Shef's own search, with a played out
// beside the candidates in every world it samples. Budget is meant as a
// count of playouts: a wall-clock cap makes the verdict depend on the
// machine. When Shef's move needs no search (a sure thing, the only
// sensible move), a different a is still weighed against it in worlds of
// the same budget.
func Judge(v SeatView, seed uint64, b Budget, a game.Action) Verdict {
	if len(v.Legal) == 0 || !slices.Contains(v.Legal, a) {
		return Verdict{Best: -1}
	}
	var ev Advice
	pb := probe{a: a}
	best := decideWhy(Shef, v, seed, b, &ev, &pb)
	if !slices.Contains(v.Legal, best) {
		ev = Advice{}
	}
	ev.Action = best
	vd := Verdict{Best: best, Why: ev}
	switch {
	case pb.searched:
		n := float64(pb.n)
		vd.Playouts, vd.Win, vd.BestWin = pb.n, (pb.cook+pb.gain)/n, pb.value
	case pb.ok && a != best:
		vd.Playouts, vd.BestWin, vd.Win = pairOut(&pb.base, &pb.r, best, a, b)
	}
	return vd
}

// probe plays one more action out in every world of Shef's search, beside
// Cook's move, and keeps its values.
type probe struct {
	a        game.Action
	base     State // the state the view implies (ok), also when nothing was searched
	r        rng   // the generator as the search received it
	ok       bool
	searched bool
	n        int     // worlds
	gain     float64 // the probed action's values less Cook's move's, summed as the search sums its candidates'
	cook     float64 // Cook's move's values
	value    float64 // the chosen move's mean value
}

func (pb *probe) set(st *State, r rng) { pb.base, pb.r, pb.ok = *st, r, true }

// world plays the probed action out in world (Cook's move gave v0 there).
func (pb *probe) world(world *State, me uint8, v0 float64) {
	pb.cook += v0
	w := *world
	if w.Apply(game.Seat(me), pb.a) != nil {
		return // cannot happen: a legal action is legal in every world
	}
	pb.gain += rollout(&w, me) - v0
}

// pairOut plays x and y out in the worlds of one budget (half each) and
// returns the worlds and each move's mean value.
func pairOut(base *State, r *rng, x, y game.Action, b Budget) (worlds int, vx, vy float64) {
	playouts := b.Playouts
	if playouts <= 0 {
		playouts = DefaultPlayouts
	}
	me := base.turn
	for range max(1, playouts/2) {
		world := *base
		world.rng = rng(r.Next())
		world.shuffle(world.pile[:world.npile])
		wx, wy := world, world
		if wx.Apply(game.Seat(me), x) != nil || wy.Apply(game.Seat(me), y) != nil {
			return 0, 0, 0 // cannot happen: both are legal
		}
		vx += rollout(&wx, me)
		vy += rollout(&wy, me)
		worlds++
	}
	return worlds, vx / float64(worlds), vy / float64(worlds)
}

// Loss is what the judged move gave up against Best: the chance to win
// the game it lost, in [0, 1]; 0 when it measured as good.
func (vd Verdict) Loss() float64 { return min(1, max(0, vd.BestWin-vd.Win)) }
