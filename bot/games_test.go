package bot_test

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/cmd/games"
)

// allGames are the games the tests' bot offers, as cmd/trickchef wires them.
// The platform's tests in this external package use the real adapters;
// package bot itself never imports one (they import it).
func allGames() []adapter.Game {
	return games.All()
}
