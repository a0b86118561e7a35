package chef

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// MoveName names a move as the button that makes it, judged in the state
// before it: «🃏 Тянуть из колоды», «🗑 Сбросить 🍝», «🥗 Диета → Серёжа: −🍝».
func (k chefGame) MoveName(l adapter.Loc, t adapter.TableView, before game.State, seat game.Seat, a game.Action) string {
	if _, ok := ce.DecodeAction(a); !ok {
		return ""
	}
	return k.buttonName(l, t, before.(*ce.State).SeatView(seat), a)
}

// buttonName names a move as its button does, seen from v: the toast of
// a move made and the move a hint advises read like the button pressed.
func (k chefGame) buttonName(l adapter.Loc, t adapter.TableView, v ce.SeatView, a game.Action) string {
	m, _ := ce.DecodeAction(a)
	switch m.Kind {
	case ce.KindDraw:
		return l.T("chef.btn.draw")
	case ce.KindTake:
		if v.DiscardTop == ce.Addition {
			return l.T("chef.btn.take_bill")
		}
		return l.T("chef.btn.take", "Card", chefDishEmoji(v.DiscardTop))
	case ce.KindAnnounce:
		return l.T("chef.btn.announce")
	case ce.KindRedraw:
		return l.T("chef.btn.redraw")
	case ce.KindEnd:
		return l.T("chef.btn.end")
	case ce.KindPlay:
		switch m.Card {
		case ce.EmptyPlate:
			return l.T("chef.btn.empty_plate", "Card", chefCardText(l, m.Card), "Name", adapter.SeatPlainName(t, v.Next))
		case ce.BlankMenu:
			return l.T("chef.btn.blank_menu", "Card", chefCardText(l, m.Card), "Direction", chefDirection(l, !v.Clockwise))
		}
	}
	return k.moveLabel(l, t, v, a)
}
