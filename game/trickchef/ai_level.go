package trickchef

import (
	"slices"
	"time"

	"github.com/trickchef/trickchef/game"
)

// Level is an AI player's strength.
type Level string

const (
	// Novice («Новичок») plays Baseline, but a quarter of the time
	// (noviceSlip) a random legal action, coins and all.
	Novice Level = "novice"
	// Cook («Повар») plays the cook heuristic (ai_policy.go).
	Cook Level = "cook"
	// Shef («Шеф») searches: determinized Monte Carlo over deals consistent
	// with everything its seat has seen (ai_shef.go).
	Shef Level = "shef"
	// PrevShef is the first «Шеф» (ai_prevshef.go), kept unchanged as the
	// yardstick the arena measures Shef against. The bot does not offer it.
	PrevShef Level = "prevshef"
)

// DefaultPlayouts is the search budget when Budget.Playouts is 0. For
// PrevShef it is the number of playouts (one sampled deal, one candidate
// action, played to the end of the round) per decision: 5–50 µs each (more
// early in a round), so 3–30 ms on one idle core. Shef spends the moves
// that many playouts from a round's start would make, whenever it decides,
// so its every decision costs about PrevShef's costliest; docs/ai.md has
// the measured strength and latency.
const DefaultPlayouts = 600

// Budget bounds Shef's search. The playout count keeps a decision
// deterministic: the same view, History, seed and Playouts always give the
// same action. Wall is an optional cap on top: with a Clock, the search
// stops at the first sampled deal that ends after Wall, which trades
// determinism (the result then depends on machine speed and load) for
// bounded latency. The package never reads the clock itself; the caller
// passes one (time.Now) to enable the cap.
type Budget struct {
	Playouts int              // 0: DefaultPlayouts
	Wall     time.Duration    // 0 or no Clock: no cap
	Clock    func() time.Time // nil: no cap
}

// noviceSlip is how often the novice plays a uniformly random legal action
// (any card or chef, with or without coins) instead of Baseline's choice.
const noviceSlip = 0.25

// Decide returns the action level chooses for the seat that v belongs to,
// or -1 if the seat has nothing to do (v.Legal is empty). It uses only v
// and h (public facts), never another seat's hidden cards, and always
// returns one of v.Legal. For a fixed seed it is deterministic unless b
// sets a wall-clock cap. An unknown level plays like Cook.
//
// h is the table's public record of the round (see History); the zero
// History works, Shef is just less informed with it. Decide does not
// change h: the caller keeps it by calling h.Observe after each action.
func Decide(level Level, v SeatView, h History, seed uint64, b Budget) game.Action {
	if len(v.Legal) == 0 {
		return -1
	}
	var a game.Action
	switch level {
	case Novice:
		a = novice(&v, seed)
	case Shef:
		a = shef(&v, h, seed, b)
	case PrevShef:
		a = prevShef(&v, h, seed, b)
	default:
		a = cook(&v, h, seed)
	}
	if !slices.Contains(v.Legal, a) {
		// Cannot happen with a view the engine made; a hand-built or
		// inconsistent view still gets a legal answer.
		return Baseline(v, seed)
	}
	return a
}

func novice(v *SeatView, seed uint64) game.Action {
	r := rng(seed ^ 0x6e6f76696365)
	if r.Float64() >= noviceSlip {
		return Baseline(*v, seed)
	}
	return v.Legal[r.Below(len(v.Legal))]
}

func cook(v *SeatView, h History, seed uint64) game.Action {
	w, ok := newWorld(v, h)
	if !ok {
		return Baseline(*v, seed)
	}
	r := rng(seed ^ 0x636f6f6b)
	return cookAct(&w.base, w.unknown, &r, 0, &defaultCook)
}
