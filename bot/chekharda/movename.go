package chekharda

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// MoveName names a move once it is made, as a noun phrase with the sets as
// they were before it: «⚡ кража 🐷×3 ← Оля», «➕ 🐟 в сет 🐟×2», «🂠 карта из
// колоды». Plain text: the platform escapes it.
func (chekhardaGame) MoveName(l adapter.Loc, t adapter.TableView, before game.State, seat game.Seat, a game.Action) string {
	return adapter.NameMove(a, ck.Decode, func(m ck.Move) string {
		return moveText(l, before.(*ck.State).SeatView(seat), m, func(s game.Seat) string { return chekhardaName(t, s) })
	})
}

// moveText is the noun phrase of move m seen from v (chekharda.move.*);
// name names the victim: plain for a toast, HTML-escaped for a hint.
func moveText(l adapter.Loc, v ck.SeatView, m ck.Move, name func(game.Seat) string) string {
	switch m.Type {
	case ck.MoveSteal:
		return l.T("chekharda.move.steal", "Set", chekhardaSet(m.Kind, v.SetOf(m.Victim, m.Kind)), "Victim", name(m.Victim))
	case ck.MoveAdd:
		return l.T("chekharda.move.add", "Emoji", m.Kind.Emoji(), "Set", chekhardaSet(m.Kind, v.SetOf(v.Seat, m.Kind)))
	case ck.MoveDraw:
		return l.T("chekharda.move.draw")
	}
	return ""
}
