package chef

import "github.com/trickchef/trickchef/game/internal/splitmix"

// rng is the state's random generator (splitmix64: one word, so it lives
// inside the State and marshals as a uint64).
type rng = splitmix.Rand
