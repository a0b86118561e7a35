package sausages

import "github.com/trickchef/trickchef/game"

// BidChance is the chance, as Sharp's belief weighs it from the seat's
// view, of making a bid of n: turning n cards, the own stack first,
// without meeting a boot (the own stack taken as safe). A review tells it
// to say why a bid is too high, or worth making.
func BidChance(v SeatView, n int) float64 { return newBelief(&v).success(n) }

// SafeChance is the chance, as Sharp's belief weighs it from the seat's
// view, that the next face-down card of seat s's stack is no boot (0 for
// a seat out of range).
func SafeChance(v SeatView, s game.Seat) float64 {
	b := newBelief(&v)
	if s < 0 || int(s) >= b.n {
		return 0
	}
	return 1 - b.at[s][0]
}
