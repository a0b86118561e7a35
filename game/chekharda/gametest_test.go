package chekharda

import (
	"testing"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/gametest"
)

// conformance describes the engine to the shared suite; cfg sets the
// options every game uses.
func conformance(cfg func(seats int, seed uint64) Config) gametest.Game {
	return gametest.Game{
		New: func(seats int, seed uint64) (game.State, error) {
			return New(cfg(seats, seed))
		},
		Decode: func(data []byte) (game.State, error) {
			return Unmarshal(data)
		},
		Seats:     []int{2, 3, 4, 5, 6},
		MaxAction: MaxAction,
		// A random 4-player game to 77 lasts about 150 actions (see
		// BenchmarkRandomGame); far more means it does not end.
		MaxSteps: 20000,
		View: func(st game.State, s game.Seat) any {
			c := st.(*State)
			if s == game.System {
				return c.PublicView()
			}
			return c.SeatView(s)
		},
		Rehide: func(st game.State, s game.Seat, seed uint64) game.State {
			return rehide(st.(*State), s, seed)
		},
	}
}

func TestConformance(t *testing.T) {
	g := conformance(func(seats int, seed uint64) Config {
		return DefaultConfig(seats, seed)
	})
	g.Games = 120 // per seat count; 12 under -race
	gametest.Run(t, g)
}

// The variant «Хотите большего?» on a short game, dealers rotating.
func TestConformanceVariant(t *testing.T) {
	g := conformance(func(seats int, seed uint64) Config {
		return Config{Players: seats, Target: TargetShort, DrawForSelf: true, Dealer: game.Seat(seed % uint64(seats)), Seed: seed}
	})
	g.Games = 60
	gametest.Run(t, g)
}
