package chekharda

import (
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// Tips names the first game's key moments of a move for seat: a set of
// theirs stolen, a set laid from their hand.
func (chekhardaGame) Tips(before, after game.State, seat int) []string {
	b, a := before.(*ck.State).PublicView(), after.(*ck.State).PublicView()
	last := 0
	if n := len(b.Events); n > 0 {
		last = b.Events[n-1].Seq
	}
	var stolen, laid bool
	for _, e := range a.Events {
		if e.Seq <= last {
			continue
		}
		stolen = stolen || e.Type == ck.EventSteal && int(e.Victim) == seat
		laid = laid || e.Type == ck.EventLay && int(e.Seat) == seat
	}
	var tips []string
	if stolen {
		tips = append(tips, "stolen")
	}
	if laid {
		tips = append(tips, "laid")
	}
	return tips
}
