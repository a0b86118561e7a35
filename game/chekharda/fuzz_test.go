package chekharda

import (
	"fmt"
	"testing"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/gametest"
)

// fuzzGame is the engine as the fuzz harnesses see it: the dealer, the
// variant and the target vary with the seed, and every state reached must
// pass validate (which accounts for every card) and let each robot level
// choose a legal action, or wait, for every seat.
func fuzzGame() gametest.Game {
	g := conformance(func(seats int, seed uint64) Config {
		return Config{Players: seats, Dealer: game.Seat(seed / 5 % uint64(seats)), Seed: seed,
			DrawForSelf: seed&32 != 0, Target: 1 + int(seed>>8%100)}
	})
	g.Validate = func(gs game.State) error {
		st := gs.(*State)
		if err := st.validate(); err != nil {
			return err
		}
		_ = st.Notation()
		for s := game.Seat(0); int(s) < st.Seats(); s++ {
			v := st.SeatView(s)
			for _, lv := range Levels() {
				if a, ok := Decide(lv, v, uint64(s)); ok && !contains(v.Legal, a) {
					return fmt.Errorf("%s chose %d for seat %d, not in %v", lv, a, s, v.Legal)
				}
			}
		}
		return nil
	}
	return g
}

// sampleGame deals the games of the playouts, with their variety of
// options, for sample encodings.
func sampleGame() gametest.Game {
	return conformance(func(_ int, seed uint64) Config { return playoutConfig(seed) })
}

// FuzzActions drives games with arbitrary action sequences (see
// gametest.FuzzActions).
func FuzzActions(f *testing.F) { gametest.FuzzActions(f, fuzzGame()) }

// FuzzUnmarshal: garbage never panics, and anything accepted re-encodes to
// the same bytes and can be played on (see gametest.CheckDecode).
func FuzzUnmarshal(f *testing.F) {
	gametest.FuzzUnmarshal(f, fuzzGame(), append(gametest.Encodings(f, sampleGame(), 4, 7), []byte{codecVersion})...)
}

// TestUnmarshalGarbage mutates valid encodings and feeds random bytes:
// never a panic, and no accepted state that does not round-trip or cannot
// be played on.
func TestUnmarshalGarbage(t *testing.T) {
	gametest.DecodeMutations(t, fuzzGame(), gametest.Encodings(t, sampleGame(), 6, 7), 40000)
}

// Specific corruptions are refused; the encoding covers the whole state.
func TestUnmarshalRejects(t *testing.T) {
	st := deal(t, "PC / MM | PA / TT | Z / PPP ; deck J")
	var x State
	if err := x.UnmarshalBinary(mustMarshal(t, st)); err != nil || x != *st {
		t.Fatalf("round trip: %v", err)
	}
	gametest.Corruptions(t, fuzzGame(), st, (*State).Clone, map[string]func(s *State){
		"card created":      func(s *State) { s.seats[0].hand[Jump] = 1 },
		"card lost":         func(s *State) { s.seats[0].hand[Champion] = 0 },
		"pair in hand":      func(s *State) { s.seats[0].hand[Champion] = 2; s.deckN--; s.deck[s.deckN] = 0 },
		"set of one":        func(s *State) { s.seats[1].set[Tea] = 1; s.deck[s.deckN] = Tea; s.deckN++ },
		"players":           func(s *State) { s.players = 7 },
		"one player":        func(s *State) { s.players = 1 },
		"phase":             func(s *State) { s.phase = 5 },
		"round end":         func(s *State) { s.phase = PhaseRoundEnd },
		"over":              func(s *State) { s.phase = PhaseOver },
		"dealer":            func(s *State) { s.dealer = 1 },
		"target":            func(s *State) { s.target = 0 },
		"score in round 1":  func(s *State) { s.seats[0].total = 3 },
		"winners in play":   func(s *State) { s.winners = 1 },
		"last out in round": func(s *State) { s.lastOut = 0 },
		"deck hole":         func(s *State) { s.deck[s.deckN-1], s.deck[s.deckN] = 0, s.deck[s.deckN-1]; s.deckN-- },
		"log empty":         func(s *State) { s.nLog, s.log = 0, [LogSize]event{} },
		"log seat":          func(s *State) { s.log[0].seat = 5 },
		"log type":          func(s *State) { s.log[0].typ = 0 },
		"seq":               func(s *State) { s.seq = 0 },
	})
	// An empty hand while the round is played; a deadlock not declared.
	dead := deal(t, "ZP / CCCCCC TTTTTT | Z / PPPPP MMMMMM | Z / FFFFFF HHHHHH | Z / BBBBBB SSSSSS | Z / JJJJJJ RRRRRR | Z / AAAAAA")
	c := dead.Clone()
	c.seats[0].hand[Pig], c.seats[0].set[Pig], c.seats[1].set[Pig] = 0, 6, 0
	if b, _ := c.MarshalBinary(); accepted(b) {
		t.Error("undeclared deadlock accepted")
	}
}

func accepted(b []byte) bool {
	_, err := Unmarshal(b)
	return err == nil
}

func contains(l []game.Action, a game.Action) bool {
	for _, x := range l {
		if x == a {
			return true
		}
	}
	return false
}
