package sausages

import (
	"fmt"
	"testing"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/gametest"
)

// fuzzGame is the engine as the fuzz harnesses see it: the first player
// varies with the seed, and every state reached must pass validate and
// let the robots choose a legal action.
func fuzzGame() gametest.Game {
	g := conformance()
	g.New = func(seats int, seed uint64) (game.State, error) {
		return New(Config{Players: seats, First: game.Seat(seed / 4 % uint64(seats)), Seed: seed})
	}
	g.Validate = func(gs game.State) error {
		st := gs.(*State)
		if err := st.validate(); err != nil {
			return err
		}
		for _, s := range st.ToAct() {
			v := st.SeatView(s)
			for i, ai := range []func(SeatView, uint64) game.Action{Baseline, Sly, Sharp} {
				if a := ai(v, uint64(s)); !contains(v.Legal, a) {
					return fmt.Errorf("robot %d (Baseline, Sly, Sharp) chose %d for seat %d, not in %v", i, a, s, v.Legal)
				}
			}
		}
		return nil
	}
	return g
}

// FuzzActions drives games with arbitrary action sequences (see
// gametest.FuzzActions).
func FuzzActions(f *testing.F) { gametest.FuzzActions(f, fuzzGame()) }

// FuzzUnmarshal: garbage never panics, and anything accepted re-encodes to
// the same bytes and can be played on (see gametest.CheckDecode).
func FuzzUnmarshal(f *testing.F) {
	gametest.FuzzUnmarshal(f, fuzzGame(), append(gametest.Encodings(f, conformance(), 4, 5), []byte{codecVersion})...)
}

// TestUnmarshalGarbage mutates valid encodings and feeds random bytes:
// never a panic, and no accepted state that does not round-trip or cannot
// be played on.
func TestUnmarshalGarbage(t *testing.T) {
	gametest.DecodeMutations(t, fuzzGame(), gametest.Encodings(t, conformance(), 8, 5), 40000)
}

// Specific corruptions are refused; the encoding covers the whole state.
func TestUnmarshalRejects(t *testing.T) {
	st := newGame(t, 4, 0)
	lay(t, st, "SS SB S S")
	apply(t, st, "bid:2 bid:3 pass")
	var x State
	if err := x.UnmarshalBinary(mustMarshal(t, st)); err != nil || x != *st {
		t.Fatalf("round trip: %v", err)
	}
	gametest.Corruptions(t, fuzzGame(), st, (*State).Clone, map[string]func(s *State){
		"card created":     func(s *State) { s.seats[0].hs++ },
		"second boot":      func(s *State) { s.seats[1].hb = 1 },
		"turn":             func(s *State) { s.turn = (s.turn + 1) % 4 },
		"players":          func(s *State) { s.players = 7 },
		"phase":            func(s *State) { s.phase = 9 },
		"bid above total":  func(s *State) { s.bid = 9 },
		"bid log":          func(s *State) { s.bids[0] = 1<<5 | 2 },
		"pass flag":        func(s *State) { s.seats[1].passed = true },
		"winner early":     func(s *State) { s.winner = 0 },
		"round count":      func(s *State) { s.round = 3 },
		"revealed in bids": func(s *State) { s.seats[0].rev = 1 },
		"fan outside pick": func(s *State) { s.fan = 1 },
		"side":             func(s *State) { s.seats[2].side = 3 },
		"boot position":    func(s *State) { s.seats[1].boot = 3 },
	})
}
