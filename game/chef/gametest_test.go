package chef

import (
	"testing"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/gametest"
)

// TestConformance runs the shared engine conformance suite.
func TestConformance(t *testing.T) {
	gametest.Run(t, conformance())
}

// conformance describes the engine to the shared suite and fuzz harnesses.
func conformance() gametest.Game {
	return gametest.Game{
		New: func(seats int, seed uint64) (game.State, error) {
			return New(Config{Players: seats, Seed: seed})
		},
		Decode:    func(data []byte) (game.State, error) { return Unmarshal(data) },
		Seats:     []int{2, 3, 4, 5, 6, 7, 8},
		Games:     100, // random games are long (about 650 actions): 10 per seat count under -race
		MaxSteps:  maxSteps,
		MaxAction: MaxAction,
		View: func(st game.State, s game.Seat) any {
			if s == game.System {
				return st.(*State).PublicView()
			}
			return st.(*State).SeatView(s)
		},
		Rehide: func(st game.State, s game.Seat, seed uint64) game.State {
			return rehide(st.(*State), s, seed)
		},
	}
}

// rehide returns a copy of st in which everything nobody at the table may
// know is redrawn from seed: the order of the face-down pile, the seed and
// the generator (which decide future shuffles). Everything else is public,
// so the same holds for every seat s.
func rehide(st *State, _ game.Seat, seed uint64) *State {
	c := st.Clone()
	r := rng(seed)
	c.rng = rng(r.Next())
	c.shuffle(c.pile[:c.npile])
	c.seed, c.rng = r.Next(), rng(r.Next())
	return c
}
