package chekharda

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// MoveName names a move as the button that makes it, with the sets as
// they were before it: «⚡ 🐷×3 ← Оля», «➕ 🐟 в 🐟×2», «🂠 Взять карту».
func (chekhardaGame) MoveName(l adapter.Loc, t adapter.TableView, before game.State, seat game.Seat, a game.Action) string {
	m, ok := ck.Decode(a)
	if !ok {
		return ""
	}
	v := before.(*ck.State).SeatView(seat)
	switch m.Type {
	case ck.MoveSteal:
		return l.T("chekharda.steal_button", "Set", chekhardaSet(m.Kind, v.SetOf(m.Victim, m.Kind)), "Victim", chekhardaName(t, m.Victim))
	case ck.MoveAdd:
		return l.T("chekharda.add_button", "Emoji", m.Kind.Emoji(), "Set", chekhardaSet(m.Kind, v.SetOf(v.Seat, m.Kind)))
	case ck.MoveDraw:
		return l.T("chekharda.draw_button")
	}
	return ""
}
