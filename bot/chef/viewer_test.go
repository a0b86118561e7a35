package chef

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	ce "github.com/trickchef/trickchef/game/chef"
)

// The viewer's own cards lie in front of their seat as in everyone
// else's scene, and make their hand: nothing of theirs is missing from the
// seat marked «вы». (docs/img/chef.png and chef-8.png show «вы» without
// cards because Аня holds none at those moments: 0 colours, no action
// card, and no hand under the table.)
func TestSceneViewerCards(t *testing.T) {
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	g := chefGame{}
	held := 0
	chefScenePositions(t, func(tab *record.Table, st *ce.State) {
		spectator := g.Scene(l, adapter.View(tab), st, adapter.Spectator)
		for seat := range tab.Seats {
			own := g.Scene(l, adapter.View(tab), st, seat)
			n := 0
			for _, c := range st.PublicView().Seats[seat].Cards {
				n += c
			}
			mine, theirs := chefNames(own.Seats[seat].Cards), chefNames(spectator.Seats[seat].Cards)
			if len(mine) != n || !slices.Equal(mine, theirs) || len(own.Hand) != n {
				t.Fatalf("seat %d holds %d cards: its own scene shows %v in front of it and %d in hand, the others see %v", seat, n, mine, len(own.Hand), theirs)
			}
			if n > 0 {
				held++
			}
		}
	})
	if held < 50 {
		t.Fatalf("only %d seats held cards", held)
	}
}
