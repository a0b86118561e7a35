package trickchef

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// FuzzActions drives a game with arbitrary action sequences: three bytes per
// step. If the first is even, a legal action is chosen by the next byte;
// otherwise the step is a raw (seat, action) pair that may be anything.
// Nothing may panic; a refused action must be a coded *game.RuleError that
// leaves the encoding unchanged; an accepted one must leave a valid state.
func FuzzActions(f *testing.F) {
	f.Add(uint64(1), true, []byte{0, 0, 0, 0, 1, 0, 0, 2, 0})
	f.Add(uint64(2), false, []byte{1, 0, 0, 1, 4, 200, 3, 1, 10})
	f.Add(uint64(3), true, bytes.Repeat([]byte{0, 7, 1, 1, 2, 3}, 100))
	f.Add(uint64(4), false, bytes.Repeat([]byte{2, 255, 0, 5, 1, 255}, 200))
	f.Fuzz(func(t *testing.T, seed uint64, four bool, data []byte) {
		cfg := Config{Players: 3, Removed: Suit(seed % 4), First: game.Seat(seed % 3), Seed: seed}
		if four {
			cfg.Players = 4
		}
		st, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for len(data) >= 3 {
			op, x, y := data[0], data[1], data[2]
			data = data[3:]
			seat, _ := st.Current()
			var a game.Action
			if op%2 == 0 {
				l := st.Legal(seat)
				if len(l) == 0 {
					a = game.Action(x)
				} else {
					a = l[(int(x)<<8|int(y))%len(l)]
				}
			} else {
				seat = game.Seat(int(op>>1)%7 - 1) // -1..5
				a = game.Action(int(int16(uint16(x)<<8|uint16(y))) * int(op>>4+1))
			}
			step(t, st, seat, a)
		}
	})
}

func step(t *testing.T, st *State, seat game.Seat, a game.Action) {
	before := mustMarshal(t, st)
	err := st.Apply(seat, a)
	if err != nil {
		var re *game.RuleError
		if !errors.As(err, &re) || re.Code == "" {
			t.Fatalf("Apply(%d, %d): uncoded error %v", seat, a, err)
		}
		if !bytes.Equal(before, mustMarshal(t, st)) {
			t.Fatalf("Apply(%d, %d) failed with %v but changed the state", seat, a, err)
		}
		return
	}
	if err := st.validate(); err != nil {
		t.Fatalf("Apply(%d, %d) left an invalid state: %v", seat, a, err)
	}
}

// FuzzUnmarshal: garbage never panics, and anything accepted re-encodes to
// the same bytes and can be played on.
func FuzzUnmarshal(f *testing.F) {
	for _, b := range sampleEncodings(f, 3) {
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add([]byte{codecVersion})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
	})
}

func checkDecode(t *testing.T, data []byte) {
	st, err := Unmarshal(data)
	if err != nil {
		return
	}
	if !bytes.Equal(mustMarshal(t, st), data) {
		t.Fatal("accepted encoding does not round-trip")
	}
	// Play a few legal actions on it.
	for i := 0; i < 8 && !st.Over(); i++ {
		s, _ := st.Current()
		l := st.Legal(s)
		if len(l) == 0 {
			t.Fatal("no legal action in an accepted state")
		}
		step(t, st, s, l[i%len(l)])
		_ = st.SeatView(s)
	}
}

// sampleEncodings returns encodings of states along a few games.
func sampleEncodings(t testing.TB, games int) [][]byte {
	var out [][]byte
	for g := 0; g < games; g++ {
		st, _ := New(Config{Players: 3 + g%2, Removed: Suit(g % 4), Seed: uint64(g)})
		r := rand.New(rand.NewPCG(uint64(g), 9))
		for i := 0; !st.Over(); i++ {
			if i%7 == 0 {
				out = append(out, mustMarshal(t, st))
			}
			s, _ := st.Current()
			l := st.Legal(s)
			if err := st.Apply(s, l[r.IntN(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, mustMarshal(t, st))
	}
	return out
}

// TestUnmarshalGarbage mutates valid encodings (bit flips, byte changes,
// truncation, extension) and feeds random bytes: never a panic, and no
// accepted state that does not round-trip.
func TestUnmarshalGarbage(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	samples := sampleEncodings(t, 6)
	accepted := 0
	for i := 0; i < 20000; i++ {
		b := bytes.Clone(samples[r.IntN(len(samples))])
		switch r.IntN(5) {
		case 0:
			b[r.IntN(len(b))] ^= 1 << r.IntN(8)
		case 1:
			b[r.IntN(len(b))] = byte(r.IntN(256))
		case 2:
			b = b[:r.IntN(len(b))]
		case 3:
			b = append(b, byte(r.IntN(256)))
		case 4:
			b = make([]byte, r.IntN(400))
			for j := range b {
				b[j] = byte(r.IntN(256))
			}
		}
		if _, err := Unmarshal(b); err == nil {
			accepted++
		}
		checkDecode(t, b)
	}
	for _, b := range samples {
		if _, err := Unmarshal(b); err != nil {
			t.Fatalf("valid encoding refused: %v", err)
		}
	}
	t.Logf("%d of 20000 mutations accepted (e.g. a changed seed or RNG word)", accepted)
}

// Specific corruptions are refused.
func TestUnmarshalRejects(t *testing.T) {
	st, _ := New(cfg4())
	apply(t, st, picks+"* * * *")
	good := mustMarshal(t, st)
	var x State
	if err := x.UnmarshalBinary(good); err != nil || x != *st {
		t.Fatalf("round trip: %v", err)
	}
	mutate := map[string]func(s *State){
		"coin created":       func(s *State) { s.reserve++ },
		"card duplicated":    func(s *State) { s.hands[0] |= s.hands[1] & -s.hands[1] },
		"chef lost":          func(s *State) { s.pool[0]-- },
		"turn":               func(s *State) { s.turn = (s.turn + 1) % 4 },
		"players":            func(s *State) { s.players = 5 },
		"phase":              func(s *State) { s.phase = 9 },
		"trick":              func(s *State) { s.trick = 11 },
		"round result early": func(s *State) { s.results[0].coins[0] = 1 },
	}
	for name, m := range mutate {
		c := st.Clone()
		m(c)
		b := mustMarshal(t, c)
		if _, err := Unmarshal(b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := Unmarshal(append([]byte{99}, good[1:]...)); err == nil {
		t.Error("unknown version accepted")
	}
	if x != *st {
		t.Fatal("failed UnmarshalBinary changed the target")
	}
}
