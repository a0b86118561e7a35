package trickchef

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// MoveName names a move as the table shows it: the card with its coins
// («🟨9 +2 → 11»), or the chef taken («👨‍🍳 🟥»).
func (trickchefGame) MoveName(_ adapter.Loc, _ adapter.TableView, _ game.State, seat game.Seat, a game.Action) string {
	m, ok := tc.Decode(a)
	if !ok {
		return ""
	}
	switch m.Kind {
	case tc.KindChef:
		return "👨‍🍳 " + suitEmoji(m.Suit)
	case tc.KindPlay:
		return playedText(tc.Played{Seat: seat, Card: m.Card, Coins: m.Coins, Effective: m.Card.Value + 2*m.Coins})
	}
	return ""
}
