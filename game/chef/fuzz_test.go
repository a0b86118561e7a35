package chef

import (
	"errors"
	"fmt"
	"testing"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/gametest"
)

// fuzzGame is the engine as the fuzz harnesses see it: the first player
// and automatic announcement vary with the seed, and every state reached
// must pass validate and let the robots choose a legal action.
func fuzzGame() gametest.Game {
	g := conformance()
	g.New = func(seats int, seed uint64) (game.State, error) {
		return New(Config{Players: seats, First: game.Seat(seed / 7 % uint64(seats)), AutoAnnounce: seed&64 != 0, Seed: seed})
	}
	g.Validate = func(gs game.State) error {
		st := gs.(*State)
		if err := st.validate(); err != nil {
			return err
		}
		_ = st.Result() // must not panic mid-game
		if st.Over() {
			return nil
		}
		to := st.ToAct()
		if len(to) == 0 || len(st.Legal(to[0])) == 0 {
			return errors.New("nobody can act in a game not over")
		}
		v := st.SeatView(to[0])
		for i, lv := range []Level{Novice, Cook} {
			if a := Decide(lv, v, uint64(i)); !contains(v.Legal, a) {
				return fmt.Errorf("%s chose %d, not legal", lv, a)
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
	gametest.FuzzUnmarshal(f, fuzzGame(), append(sampleEncodings(f, 4), []byte{codecVersion})...)
}

// sampleEncodings returns encodings of states along a few games.
func sampleEncodings(t testing.TB, games int) [][]byte {
	var out [][]byte
	for g := 0; g < games; g++ {
		st, _ := New(Config{Players: MinPlayers + g%7, AutoAnnounce: g%3 == 1, Seed: uint64(g)})
		r := rng(uint64(g) + 9)
		for i := 0; !st.Over(); i++ {
			if i%9 == 0 {
				out = append(out, mustMarshal(t, st))
			}
			var a game.Action
			if g%2 == 0 {
				a = randomPolicy(st, &r)
			} else {
				a = cookMove(st)
			}
			if err := st.Apply(game.Seat(st.turn), a); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, mustMarshal(t, st))
	}
	return out
}

// TestUnmarshalGarbage mutates valid encodings and feeds random bytes:
// never a panic, and no accepted state that does not round-trip or cannot
// be played on.
func TestUnmarshalGarbage(t *testing.T) {
	gametest.DecodeMutations(t, fuzzGame(), sampleEncodings(t, 8), 30000)
}

// Specific corruptions are refused; the encoding covers the whole state.
func TestUnmarshalRejects(t *testing.T) {
	st := deal(t, "0:orpgbnH 1:oo 2:C discard:gA pile:r")
	apply(t, st, "draw")
	var x State
	if err := x.UnmarshalBinary(mustMarshal(t, st)); err != nil || x != *st {
		t.Fatalf("round trip: %v", err)
	}
	gametest.Corruptions(t, fuzzGame(), st, (*State).Clone, map[string]func(s *State){
		"card created":         func(s *State) { s.seats[0].n[Starter]++ },
		"card moved off":       func(s *State) { s.seats[1].n[Starter]-- },
		"swap kinds":           func(s *State) { s.seats[1].n[Starter]--; s.seats[1].n[Addition]++ },
		"turn":                 func(s *State) { s.turn = 5 },
		"players":              func(s *State) { s.players = 9 },
		"step":                 func(s *State) { s.step = 7 },
		"drawn not held":       func(s *State) { s.drawn = Diet },
		"drawn addition":       func(s *State) { s.drawn = Addition },
		"winner early":         func(s *State) { s.winners = 1 },
		"rebuilds":             func(s *State) { s.rebuilds = MaxRebuilds + 1 },
		"removed with 3":       func(s *State) { s.seats[1].n[Starter]--; s.removed[Starter]++ },
		"announced incomplete": func(s *State) { s.seats[1].flags |= flagAnnounced },
		"unknown flag":         func(s *State) { s.seats[1].flags |= 8 },
		"skipped to act":       func(s *State) { s.seats[0].flags |= flagSkipped },
		"event kind":           func(s *State) { s.ev[0].kind = 99 },
		"event seat":           func(s *State) { s.ev[0].seat = 7 },
		"turn number":          func(s *State) { s.turnNo = 0 },
		"closed early":         func(s *State) { s.closed = true },
		"turn step, no draw":   func(s *State) { s.step = StepTurn },
	})
}

func contains(l []game.Action, a game.Action) bool {
	for _, x := range l {
		if x == a {
			return true
		}
	}
	return false
}
