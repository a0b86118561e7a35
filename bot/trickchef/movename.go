package trickchef

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// MoveName names a move once it is made, as a noun phrase: «карта 🟨9»,
// «карта 🟨9 и 1 монета (+2 → 11)», «Шеф 🟥».
func (trickchefGame) MoveName(l adapter.Loc, _ adapter.TableView, _ game.State, _ game.Seat, a game.Action) string {
	return adapter.NameMove(a, tc.Decode, func(m tc.Move) string { return moveText(l, m) })
}

// moveText is the noun phrase of move m (trickchef.move.*): the card with
// the coins put on it and the value they make, or the chef taken.
func moveText(l adapter.Loc, m tc.Move) string {
	switch {
	case m.Kind == tc.KindChef:
		return l.T("trickchef.move.chef", "Suit", suitEmoji(m.Suit))
	case m.Kind != tc.KindPlay:
		return ""
	case m.Coins == 0:
		return l.T("trickchef.move.card", "Card", cardText(m.Card))
	}
	return l.T("trickchef.move.card_coins", "Card", cardText(m.Card), "Coins", l.T("count.coins", "Count", abs(m.Coins)),
		"Delta", signed(2*m.Coins), "Value", number(m.Card.Value+2*m.Coins))
}
