package games_test

import (
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/contract"
	"github.com/trickchef/trickchef/cmd/games"
)

// TestContract checks every game the bot offers as the platform relies on
// it: a game added to All is covered without a test naming it.
func TestContract(t *testing.T) { contract.Run(t, games.All()) }
