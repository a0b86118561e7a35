package trickchef

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// Advice is Shef's choice for a seat together with the evidence its search
// gathered for it: what a hint tells a person, in numbers.
type Advice struct {
	Action game.Action // -1: the seat has nothing to do
	// Deals is how many sampled deals the chosen move was played out on;
	// 0 when nothing was searched (a single sensible move, or a view no
	// deal is consistent with).
	Deals int
	// Ahead is the share of those deals after whose round the seat leads
	// the game outright.
	Ahead float64
	// Took and Chef, for a card, are the shares of those deals in which
	// it wins the trick, and in which it is the trick's lowest card (its
	// player takes a chef).
	Took, Chef float64
}

// Advise is Decide(Shef, …) with the evidence: for the same view, History,
// seed and Budget it returns the very action Decide does.
func Advise(v SeatView, h History, seed uint64, b Budget) Advice {
	if len(v.Legal) == 0 {
		return Advice{Action: -1}
	}
	var ev Advice
	a := shefSearch(&v, h, seed, b, &ev)
	if !slices.Contains(v.Legal, a) {
		a, ev = Baseline(v, seed), Advice{}
	}
	ev.Action = a
	return ev
}
