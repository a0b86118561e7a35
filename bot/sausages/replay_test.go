package sausages_test

import (
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/bot/sausages"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// TestOpenScene: the replay shows every card a seat owns face up, its
// stack and its hand, and nothing to press.
func TestOpenScene(t *testing.T) {
	last := reviewtest.CheckOpenScene(t, sausages.Game(), 40, func(st game.State, seat int) int {
		return st.(*ss.State).PublicView().Seats[seat].Owned
	})
	golden.Check(t, "open_scene", last)
}
