package trickchef

import (
	"testing"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/gametest"
)

// fuzzGame is the engine as the fuzz harnesses see it: the removed suit
// and the first player vary with the seed, and every state reached must
// pass validate.
func fuzzGame() gametest.Game {
	g := conformance()
	g.New = func(seats int, seed uint64) (game.State, error) {
		return New(Config{Players: seats, Removed: Suit(seed % 4), First: game.Seat(seed % 3), Seed: seed})
	}
	g.Validate = func(st game.State) error { return st.(*State).validate() }
	return g
}

// FuzzActions drives games with arbitrary action sequences (see
// gametest.FuzzActions).
func FuzzActions(f *testing.F) { gametest.FuzzActions(f, fuzzGame()) }

// FuzzUnmarshal: garbage never panics, and anything accepted re-encodes to
// the same bytes and can be played on (see gametest.CheckDecode).
func FuzzUnmarshal(f *testing.F) {
	gametest.FuzzUnmarshal(f, fuzzGame(), append(gametest.Encodings(f, fuzzGame(), 3, 7), []byte{codecVersion})...)
}

// TestUnmarshalGarbage mutates valid encodings and feeds random bytes:
// never a panic, and no accepted state that does not round-trip or cannot
// be played on.
func TestUnmarshalGarbage(t *testing.T) {
	gametest.DecodeMutations(t, fuzzGame(), gametest.Encodings(t, fuzzGame(), 6, 7), 20000)
}

// Specific corruptions are refused; the encoding covers the whole state.
func TestUnmarshalRejects(t *testing.T) {
	st, _ := New(cfg4())
	apply(t, st, picks+"* * * *")
	var x State
	if err := x.UnmarshalBinary(mustMarshal(t, st)); err != nil || x != *st {
		t.Fatalf("round trip: %v", err)
	}
	gametest.Corruptions(t, fuzzGame(), st, (*State).Clone, map[string]func(s *State){
		"coin created":       func(s *State) { s.reserve++ },
		"card duplicated":    func(s *State) { s.hands[0] |= s.hands[1] & -s.hands[1] },
		"chef lost":          func(s *State) { s.pool[0]-- },
		"turn":               func(s *State) { s.turn = (s.turn + 1) % 4 },
		"players":            func(s *State) { s.players = 5 },
		"phase":              func(s *State) { s.phase = 9 },
		"trick":              func(s *State) { s.trick = 11 },
		"round result early": func(s *State) { s.results[0].coins[0] = 1 },
	})
}
