package chef

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// MoveName names a move once it is made, as a noun phrase judged in the
// state before it: «карта из колоды», «🍝 в сброс», «🥗 Диета → Серёжа: −🍝».
// Plain text: the platform escapes it.
func (k chefGame) MoveName(l adapter.Loc, t adapter.TableView, before game.State, seat game.Seat, a game.Action) string {
	if _, ok := ce.DecodeAction(a); !ok {
		return ""
	}
	return moveText(l, before.(*ce.State).SeatView(seat), a, adapter.PlainNamer(t))
}

// moveText is the noun phrase of action a seen from v (chef.move.*), the
// same for the toast of a move made and the move a hint advises; name
// names a seat: plain for a toast, HTML-escaped for a hint.
func moveText(l adapter.Loc, v ce.SeatView, a game.Action, name func(game.Seat) string) string {
	m, _ := ce.DecodeAction(a)
	next := name(v.Next)
	switch m.Kind {
	case ce.KindDraw:
		return l.T("chef.move.draw")
	case ce.KindTake:
		if v.DiscardTop == ce.Addition {
			return l.T("chef.move.take_bill")
		}
		return l.T("chef.move.take", "Card", chefDishEmoji(v.DiscardTop))
	case ce.KindAnnounce:
		return l.T("chef.move.announce")
	case ce.KindRedraw:
		return l.T("chef.move.redraw")
	case ce.KindEnd:
		return l.T("chef.move.end")
	case ce.KindDiscard:
		return l.T("chef.move.discard", "Card", chefDishEmoji(m.Dish))
	}
	card := chefCardText(l, m.Card)
	switch m.Card {
	case ce.EmptyPlate:
		return l.T("chef.move.empty_plate", "Card", card, "Name", next)
	case ce.BlankMenu:
		return l.T("chef.move.blank_menu", "Card", card, "Direction", chefDirection(l, !v.Clockwise))
	case ce.Hangover:
		return l.T("chef.move.penalty", "Card", card, "Name", next, "Lost", "−"+chefDishEmoji(m.Dish)+" −"+chefDishEmoji(m.Dish2))
	case ce.Diet:
		return l.T("chef.move.penalty", "Card", card, "Name", next, "Lost", "−"+chefDishEmoji(m.Dish))
	case ce.ChefCard:
		return l.T("chef.move.chef", "Card", card, "Name", next, "Dish", chefDishEmoji(m.Dish))
	}
	return m.String()
}
