package highcard_test

import (
	"testing"

	"github.com/trickchef/trickchef/bot/internal/highcard"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/gametest"
)

// TestConformance: the example engine keeps the contract every engine
// keeps.
func TestConformance(t *testing.T) {
	gametest.Run(t, gametest.Game{
		New: func(seats int, seed uint64) (game.State, error) { return highcard.New(seed), nil },
		Decode: func(data []byte) (game.State, error) {
			return highcard.Decode(data)
		},
		Seats:     []int{highcard.Players},
		MaxAction: highcard.Cards,
		View:      func(st game.State, s game.Seat) any { return *st.(*highcard.State) },
	})
}
