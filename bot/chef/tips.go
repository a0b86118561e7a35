package chef

import (
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// Tips names the first game's key moments of a move for seat: an action
// card played at them, their menu complete.
func (chefGame) Tips(before, after game.State, seat int) []string {
	b, a := before.(*ce.State).PublicView(), after.(*ce.State).PublicView()
	last := 0
	if n := len(b.Events); n > 0 {
		last = b.Events[n-1].Seq
	}
	var tips []string
	for _, e := range a.Events {
		if e.Seq > last && e.Kind == ce.EventPlay && int(e.Target) == seat {
			tips = append(tips, "hit")
			break
		}
	}
	if seat < len(a.Seats) && seat < len(b.Seats) && a.Seats[seat].Complete && !b.Seats[seat].Complete {
		tips = append(tips, "complete")
	}
	return tips
}
