package trickchef

import (
	"slices"

	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// Tips names the first game's key moments of a move for seat: the round
// scored, a chef taken, coins won, the trump changed.
func (trickchefGame) Tips(before, after game.State, seat int) []string {
	b, a := before.(*tc.State).PublicView(), after.(*tc.State).PublicView()
	if seat >= len(a.Seats) || seat >= len(b.Seats) {
		return nil
	}
	var tips []string
	if len(a.RoundResults) > len(b.RoundResults) {
		tips = append(tips, "round")
	}
	if chefs(a.Seats[seat].Chefs) > chefs(b.Seats[seat].Chefs) && a.Round == b.Round && b.Phase == tc.PhaseAward {
		tips = append(tips, "chef")
	}
	if a.Seats[seat].Coins > b.Seats[seat].Coins && a.Round == b.Round {
		tips = append(tips, "coins")
	}
	if a.Round == b.Round && a.Phase != tc.PhaseOver && !slices.Equal(a.Trumps, b.Trumps) {
		tips = append(tips, "trump")
	}
	return tips
}

func chefs(c [tc.NumSuits]int) int {
	n := 0
	for _, x := range c {
		n += x
	}
	return n
}
