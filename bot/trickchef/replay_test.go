package trickchef_test

import (
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// TestOpenScene: the replay shows every seat's chefs and its whole hand
// face up, and nothing to press.
func TestOpenScene(t *testing.T) {
	last := reviewtest.CheckOpenScene(t, trickchef.Game(), 30, func(st game.State, seat int) int {
		sp := st.(*tc.State).PublicView().Seats[seat]
		n := sp.HandSize
		for _, c := range sp.Chefs {
			if c > 0 {
				n++
			}
		}
		return n
	})
	golden.Check(t, "open_scene", last)
}
