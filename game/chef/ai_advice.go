package chef

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// Advice is Shef's choice for a seat together with the evidence its search
// gathered for it: what a hint tells a person, in numbers.
type Advice struct {
	Action game.Action // -1: the seat has nothing to do
	// Playouts is how many sampled piles the chosen move was played out
	// on; 0 when nothing was searched (a sure thing: «Счёт!», a redraw,
	// the Addition that wins, or the only legal move).
	Playouts int
	// Win is the chosen move's mean value over those playouts: the share
	// of them the seat wins (a playout cut at the search's horizon counts
	// the seat's chance as the robots estimate it).
	Win float64
}

// Advise is DecideBudget(Shef, …) with the evidence: for the same view,
// seed and Budget it returns the very action DecideBudget does.
func Advise(v SeatView, seed uint64, b Budget) Advice {
	if len(v.Legal) == 0 {
		return Advice{Action: -1}
	}
	var ev Advice
	a := decideWhy(Shef, v, seed, b, &ev)
	if !slices.Contains(v.Legal, a) {
		ev = Advice{}
	}
	ev.Action = a
	return ev
}
