package chef

import (
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// Hint is «Профи»'s move for the seat (ce.Advise: the very search its
// robot runs, with the same seed and budget), named as a move made is, and
// the share of the search's playouts the seat wins after it.
func (chefGame) Hint(l adapter.Loc, t adapter.TableView, st game.State, seat int, d adapter.Decision) adapter.Hint {
	v := st.(*ce.State).SeatView(game.Seat(seat))
	ad := ce.Advise(v, d.Seed, ce.Budget{Wall: d.Budget, Clock: time.Now})
	h := adapter.Hint{Action: ad.Action}
	if ad.Action < 0 {
		return h
	}
	pro, move := l.T("chef.level.shef"), moveText(l, v, ad.Action, adapter.HTMLNamer(t))
	if ad.Playouts == 0 {
		h.Why = l.T("chef.hint.sure", "Pro", pro, "Move", move)
	} else {
		h.Why = l.T("chef.hint.search", "Pro", pro, "Move", move, "Share", adapter.Percent(ad.Win))
	}
	return h
}
