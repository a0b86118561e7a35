package chekharda_test

import (
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/chekharda"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// TestOpenScene: the replay shows every seat's sets and its hand face up,
// and nothing to press.
func TestOpenScene(t *testing.T) {
	last := reviewtest.CheckOpenScene(t, chekharda.Game(), 30, func(st game.State, seat int) int {
		sp := st.(*ck.State).PublicView().Seats[seat]
		return len(sp.Sets) + sp.Hand
	})
	golden.Check(t, "open_scene", last)
}
