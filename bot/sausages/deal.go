package sausages

import (
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// Deal: every player starts with the same four cards, so the only shuffle
// is a blind pick's — the challenger's cards in the order the engine laid
// them, one of which the boot's owner picks by position. It follows from
// the reveal and the moves before it.
func (sausagesGame) Deal(l adapter.Loc, t adapter.TableView, st game.State) string {
	s := st.(*ss.State)
	order := s.BlindOrder()
	if order == nil {
		return l.T("sausages.deal.start")
	}
	v := s.PublicView()
	cards := make([]string, len(order))
	for i, c := range order {
		cards[i] = cardEmoji(c)
	}
	return l.T("sausages.deal.pick", "Round", v.Round, "Name", adapter.SeatPlainName(t, v.Challenger), "Cards", strings.Join(cards, " "))
}

// Shuffled: a failed attempt laid the challenger's cards out for a blind
// pick.
func (sausagesGame) Shuffled(before, after game.State) bool {
	return after.(*ss.State).Phase() == ss.PhasePick && before.(*ss.State).Phase() != ss.PhasePick
}
