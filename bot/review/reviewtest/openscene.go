package reviewtest

import (
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/game"
)

// GoldenOpenScene is every game's TestOpenScene: CheckOpenScene over n
// moves, each seat showing count(st, seat) cards of the game's own state
// type S, and the scene it returns pinned by the golden file open_scene.
func GoldenOpenScene[S game.State](t *testing.T, g adapter.Game, n int, count func(st S, seat int) int) {
	t.Helper()
	golden.Check(t, "open_scene", CheckOpenScene(t, g, n, func(st game.State, seat int) int { return count(st.(S), seat) }))
}
