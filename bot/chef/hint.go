package chef

import (
	"math"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// Hint is «Профи»'s move for the seat (ce.Advise: the very search its
// robot runs, with the same seed and budget), named like its button, and
// the share of the search's playouts the seat wins after it.
func (k chefGame) Hint(l bot.Loc, t bot.TableView, st game.State, seat int, d bot.Decision) bot.Hint {
	v := st.(*ce.State).SeatView(game.Seat(seat))
	ad := ce.Advise(v, d.Seed, ce.Budget{Wall: d.Budget, Clock: time.Now})
	h := bot.Hint{Action: ad.Action}
	if ad.Action < 0 {
		return h
	}
	pro, move := l.T("chef.level.shef"), k.hintMove(l, t, v, ad.Action)
	if ad.Playouts == 0 {
		h.Why = l.T("chef.hint.sure", "Pro", pro, "Move", move)
	} else {
		h.Why = l.T("chef.hint.search", "Pro", pro, "Move", move, "Share", int(math.Round(100*ad.Win)))
	}
	return h
}

// hintMove names a move as its button does.
func (k chefGame) hintMove(l bot.Loc, t bot.TableView, v ce.SeatView, a game.Action) string {
	m, _ := ce.DecodeAction(a)
	switch m.Kind {
	case ce.KindTake:
		if v.DiscardTop == ce.Addition {
			return l.T("chef.btn.take_bill")
		}
		return l.T("chef.btn.take", "Card", chefDishEmoji(v.DiscardTop))
	case ce.KindDraw:
		return l.T("chef.btn.draw")
	case ce.KindAnnounce:
		return l.T("chef.btn.announce")
	case ce.KindRedraw:
		return l.T("chef.btn.redraw")
	case ce.KindEnd:
		return l.T("chef.btn.end")
	case ce.KindPlay:
		switch m.Card {
		case ce.EmptyPlate:
			return l.T("chef.btn.empty_plate", "Card", chefCardText(l, m.Card), "Name", bot.SeatPlainName(t, v.Next))
		case ce.BlankMenu:
			return l.T("chef.btn.blank_menu", "Card", chefCardText(l, m.Card), "Direction", chefDirection(l, !v.Clockwise))
		}
	}
	return k.moveLabel(l, t, v, a)
}
