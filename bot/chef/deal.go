package chef

import (
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// Deal tells the pile as shuffled: the cards turned onto the discard pile
// at the start (until a dish showed), then the face-down pile in the order
// it is drawn. A rebuilt pile is the discard pile shuffled again, so it
// follows from the reveal and the moves before it.
func (chefGame) Deal(l adapter.Loc, t adapter.TableView, st game.State) string {
	s := st.(*ce.State)
	v := s.PublicView()
	var lines []string
	if v.Rebuilds == 0 {
		lines = append(lines, l.T("chef.deal.discard", "Cards", chefCardRow(v.Discard)))
	} else {
		lines = append(lines, l.T("chef.deal.rebuilt", "Round", v.Rebuilds+1))
	}
	lines = append(lines, l.T("chef.deal.pile", "Cards", chefCardRow(s.Pile())))
	return strings.Join(lines, "\n")
}

// chefCardRow lists cards by their marks: the dishes' emoji, the action
// cards' own.
func chefCardRow(cs []ce.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		if c.IsDish() {
			parts[i] = chefDishEmoji(c)
		} else {
			parts[i] = chefCardEmoji(c)
		}
	}
	return strings.Join(parts, " ")
}

// Shuffled: the pile was rebuilt from the discard pile.
func (chefGame) Shuffled(before, after game.State) bool {
	return after.(*ce.State).PublicView().Rebuilds != before.(*ce.State).PublicView().Rebuilds
}
