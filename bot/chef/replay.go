package chef

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// OpenScene is the spectator's table, where every card in front of a seat
// is already face up, with the pile's next card turned: the replay of a
// finished game.
func (k chefGame) OpenScene(l adapter.Loc, t adapter.TableView, st game.State) adapter.Scene {
	sc := adapter.OpenScene(k, l, t, st, nil)
	pile := st.(*ce.State).Pile()
	if len(pile) > 0 {
		sc.TurnCentre(chefPicture(l, pile[0]))
	}
	return sc
}
