package bottest

import (
	"math/rand/v2"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
)

// RandomWalk plays up to moves random legal moves on st (a seat that may
// act and its move drawn from r), stopping early when the game ends, and
// keeps a MemoryGame's memory in step from the start: it returns the
// memory (nil for a game that keeps none). The hint checks and cmd/aibench hint
// reach their positions this way.
func RandomWalk(g adapter.Game, st game.State, r *rand.Rand, moves int) ([]byte, error) {
	mg, remembers := g.(adapter.MemoryGame)
	var memory []byte
	if remembers {
		memory = mg.Observe(nil, st)
	}
	for i := 0; i < moves && !st.Over(); i++ {
		act := st.ToAct()
		s := act[r.IntN(len(act))]
		legal := st.Legal(s)
		if err := st.Apply(s, legal[r.IntN(len(legal))]); err != nil {
			return nil, err
		}
		if remembers {
			memory = mg.Observe(memory, st)
		}
	}
	return memory, nil
}
