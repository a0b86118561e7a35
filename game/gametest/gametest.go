// Package gametest is the conformance suite every engine passes, in the
// spirit of a single random-simulation test shared by all games: it plays
// many seeded random games through the game.State interface and checks the
// platform's contract at every step. It imports "testing" and is meant to be
// imported only from an engine's _test.go files.
package gametest

import (
	"fmt"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// Game describes one engine to the conformance suite.
type Game struct {
	// New deals a fresh game for the given number of seats from a seed (default options).
	New func(seats int, seed uint64) (game.State, error)
	// Decode reads what MarshalBinary wrote.
	Decode func(data []byte) (game.State, error)
	// Seats lists every supported seat count; each is played.
	Seats []int
	// Games is the number of random full games per seat count (0: 200; divided by 10 under -race/-short).
	Games int
	// MaxSteps bounds one game's length in applied actions; longer fails the termination check (0: 100000).
	MaxSteps int
	// MaxAction is the largest action value the engine defines; the suite also probes
	// illegal values around and beyond it.
	MaxAction game.Action
	// View returns what seat s may see; game.System asks for the public view.
	// Values are compared with reflect.DeepEqual.
	View func(st game.State, s game.Seat) any
	// Rehide returns a new state, equal to st except that everything seat s may not
	// know (other seats' hidden cards, the order of the face-down deck, ...) is redrawn
	// from seed, consistently with what s knows. game.System: everything hidden from the
	// public. st itself must not change. Nil means the game hides nothing.
	Rehide func(st game.State, s game.Seat, seed uint64) game.State
	// Validate, if set, reports what is wrong with a state: the engine's own
	// invariants, and whatever else must hold in every valid state (its
	// robots choose legal actions there, say). FuzzActions and FuzzUnmarshal
	// call it after every accepted action and on every accepted encoding;
	// Run does not.
	Validate func(st game.State) error
}

// Run plays Games random games per seat count (a random seat from ToAct — including
// game.System when the engine lists it — and a random legal action) and checks, at every step:
// ToAct non-empty until Over; every listed seat has ≥1 legal action; only legal actions
// are applied and they succeed; MarshalBinary → Decode → MarshalBinary is byte-identical;
// an illegal action (values outside Legal, seats not in ToAct, out-of-range seats) returns a
// *game.RuleError with a non-empty Code and leaves the marshaled state byte-identical;
// replaying the same seed and actions gives byte-identical states; the game ends within
// MaxSteps and Result() names ≥1 winner with len(Scores)==Seats(); and, where Rehide is set,
// for sampled steps and every seat s (and game.System), View(st, s), View(st, System) and
// Legal(s) are unchanged in Rehide(st, s, seed).
//
// Every step also checks that ToAct has no duplicates and only seats in
// range (or game.System), that legal actions are distinct and within
// 0..MaxAction, that seats outside ToAct (and out-of-range ones) have no
// legal action, and that a decoded copy, given the same action, ends up
// byte-identical to the original. Once over: ToAct and every Legal are
// empty and any action is refused with a code.
//
// Sampling: the deep checks (views, Rehide) run at every step of the
// first 3 games of each seat count (1 under -race or -short), up to 1000
// such steps in all (300), every 16th step beyond; in the other games at
// the final state and at every k-th step (offset by the game number),
// k = max(16, L/8) with L the length of the previous game, so about 8
// steps of a long game. Views are checked to leave the state unchanged and
// to be the same for a decoded copy. Rehide is checked to leave st
// unchanged, to be deterministic per seed, to return a valid state (it
// round-trips and accepts one of its own legal actions) and, over the
// whole run, to change something at least once. Every game is replayed
// from its seed at the end, the first 3 (1) compared at every step.
//
// Seat counts run as parallel subtests. Game k with n seats is dealt with
// seed n*1000000+k; a failure names the check, the seat count, the game
// seed, the step and every (seat:action) applied so far, enough to replay
// it with New and Apply alone.
func Run(t *testing.T, g Game) {
	t.Helper()
	if err := g.check(); err != nil {
		t.Fatal(err)
	}
	p := g.plan(testing.Short() || raceEnabled)
	for _, n := range g.Seats {
		t.Run(fmt.Sprintf("seats=%d", n), func(t *testing.T) {
			t.Parallel()
			if err := runSeats(g, n, p); err != nil {
				t.Fatal(err)
			}
		})
	}
}
