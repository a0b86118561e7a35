package chef

import (
	"github.com/trickchef/trickchef/bot/adapter"
	ce "github.com/trickchef/trickchef/game/chef"
)

// ScoreText names the engine's score: the colours of the menu, or the
// Bill card (a score above every menu).
func (chefGame) ScoreText(l adapter.Loc, score int) string {
	if score > ce.NumColours {
		return chefCardText(l, ce.Addition)
	}
	return l.T("chef.colours", "Count", score)
}
