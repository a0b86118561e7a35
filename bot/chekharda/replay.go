package chekharda

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// OpenScene is the spectator's table with every hand face up beside its
// seat's sets, noted «🖐», and the deck's next card turned: the replay of
// a finished game.
func (g chekhardaGame) OpenScene(l adapter.Loc, t adapter.TableView, st game.State) adapter.Scene {
	s := st.(*ck.State)
	sc := adapter.OpenScene(g, l, t, st, func(seat game.Seat) []adapter.Card {
		var cards []adapter.Card
		for _, k := range s.SeatView(seat).Hand {
			c := chekhardaPicture(l, k)
			c.Note = adapter.HandNote
			cards = append(cards, c)
		}
		return cards
	})
	if next := deckTop(s); next != ck.NoKind {
		sc.TurnCentre(chekhardaPicture(l, next))
	}
	return sc
}

// deckTop is the deck's next card, NoKind when it is empty: read from the
// engine's full notation, the one place the deck's order shows.
func deckTop(s *ck.State) ck.Kind {
	if k, ok := deckKinds(s); ok && len(k) > 0 {
		return k[0]
	}
	return ck.NoKind
}

// Round is the round st is in: the replay's round picker.
func (chekhardaGame) Round(st game.State) int { return st.(*ck.State).PublicView().Round }
