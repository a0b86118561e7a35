package sausages

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// OpenScene is the spectator's table with every stack face up (bottom to
// top) and every hand beside it, noted «🖐»: the replay of a finished
// game.
func (k sausagesGame) OpenScene(l adapter.Loc, t adapter.TableView, st game.State) adapter.Scene {
	s := st.(*ss.State)
	sc := k.Scene(l, t, st, adapter.Spectator)
	for i := range sc.Seats {
		v := s.SeatView(game.Seat(i))
		var cards []adapter.Card
		for _, c := range v.Stack {
			cards = append(cards, cardPicture(l, c))
		}
		for _, n := range []struct {
			card  ss.Card
			count int
		}{{ss.Sausage, v.Hand.Sausages}, {ss.Boot, v.Hand.Boots}} {
			for range n.count {
				c := cardPicture(l, n.card)
				c.Note = adapter.HandNote
				cards = append(cards, c)
			}
		}
		sc.Seats[i].Cards = cards
	}
	return sc
}

// Round is the round st is in: the replay's round picker.
func (sausagesGame) Round(st game.State) int { return st.(*ss.State).PublicView().Round }
