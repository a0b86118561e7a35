package trickchef

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// OpenScene is the spectator's table with every hand face up in front of
// its seat, after the seat's chefs: the replay of a finished game.
func (k trickchefGame) OpenScene(l adapter.Loc, t adapter.TableView, st game.State) adapter.Scene {
	s := st.(*tc.State)
	return adapter.OpenScene(k, l, t, st, func(seat game.Seat) []adapter.Card {
		var cards []adapter.Card
		for _, c := range s.SeatView(seat).Hand {
			cards = append(cards, cardPicture(l, c))
		}
		return cards
	})
}

// Round is the round st is in (1..3): the replay's round picker.
func (trickchefGame) Round(st game.State) int { return st.(*tc.State).PublicView().Round }
