package chekharda

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// FuzzActions drives a game with arbitrary action sequences: three bytes
// per step. If the first is even, a seat of ToAct and one of its legal
// actions are chosen by the next bytes; otherwise the step is a raw (seat,
// action) pair that may be anything. Nothing may panic; a refused action
// must be a coded *game.RuleError that leaves the encoding unchanged; an
// accepted one must leave a valid state with every card accounted for.
func FuzzActions(f *testing.F) {
	f.Add(uint64(1), []byte{0, 0, 0, 0, 1, 0, 0, 2, 0})
	f.Add(uint64(2), []byte{1, 0, 0, 1, 4, 200, 3, 1, 10})
	f.Add(uint64(3), bytes.Repeat([]byte{0, 7, 1, 1, 2, 3}, 100))
	f.Add(uint64(4), bytes.Repeat([]byte{2, 255, 0, 5, 1, 86}, 200))
	f.Add(uint64(5), bytes.Repeat([]byte{0, 3, 9}, 400))
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		players := MinPlayers + int(seed%5)
		cfg := Config{Players: players, Dealer: game.Seat(seed / 5 % uint64(players)), Seed: seed,
			DrawForSelf: seed&32 != 0, Target: 1 + int(seed>>8%100)}
		st, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for len(data) >= 3 && !st.Over() {
			op, x, y := data[0], data[1], data[2]
			data = data[3:]
			var s game.Seat
			var a game.Action
			if op%2 == 0 {
				to := st.ToAct()
				s = to[int(x)%len(to)]
				l := st.Legal(s)
				a = l[(int(x)<<8|int(y))%len(l)]
			} else {
				s = game.Seat(int(op>>1)%9 - 2) // -2..6
				a = game.Action(int(int8(x))*int(op>>4+1) + int(y)%90)
			}
			step(t, st, s, a)
		}
		if st.Over() {
			step(t, st, 0, 0)
		}
	})
}

func step(t *testing.T, st *State, s game.Seat, a game.Action) {
	t.Helper()
	before := mustMarshal(t, st)
	legal := false
	for _, l := range st.Legal(s) {
		legal = legal || l == a
	}
	err := st.Apply(s, a)
	if err != nil {
		var re *game.RuleError
		if !errors.As(err, &re) || re.Code == "" {
			t.Fatalf("Apply(%d, %d): uncoded error %v", s, a, err)
		}
		if legal {
			t.Fatalf("Apply(%d, %d): legal action refused: %v", s, a, err)
		}
		if !bytes.Equal(before, mustMarshal(t, st)) {
			t.Fatalf("Apply(%d, %d) failed with %v but changed the state", s, a, err)
		}
		return
	}
	if !legal {
		t.Fatalf("Apply(%d, %d) accepted an action not in Legal", s, a)
	}
	checkCards(t, st)
	if err := st.validate(); err != nil {
		t.Fatalf("Apply(%d, %d) left an invalid state: %v", s, a, err)
	}
}

// FuzzUnmarshal: garbage never panics, and anything accepted re-encodes to
// the same bytes and can be played on.
func FuzzUnmarshal(f *testing.F) {
	for _, b := range sampleEncodings(f, 4) {
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
	checkCards(t, st)
	for s := game.Seat(-2); s <= MaxPlayers; s++ {
		_ = st.SeatView(s)
	}
	_ = st.Notation()
	for i := 0; i < 12 && !st.Over(); i++ {
		to := st.ToAct()
		if len(to) == 0 {
			t.Fatal("nobody to act in an accepted state")
		}
		s := to[i%len(to)]
		l := st.Legal(s)
		if len(l) == 0 {
			t.Fatal("no legal action in an accepted state")
		}
		step(t, st, s, l[i%len(l)])
		if s >= 0 {
			for _, lv := range Levels() {
				_, _ = Decide(lv, st.SeatView(s), uint64(i))
			}
		}
	}
}

// sampleEncodings returns encodings of states along a few games.
func sampleEncodings(t testing.TB, games int) [][]byte {
	var out [][]byte
	for g := 0; g < games; g++ {
		st, _ := New(playoutConfig(uint64(g)))
		r := rand.New(rand.NewPCG(uint64(g), 9))
		for i := 0; !st.Over(); i++ {
			if i%7 == 0 {
				out = append(out, mustMarshal(t, st))
			}
			to := st.ToAct()
			s := to[r.IntN(len(to))]
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
// accepted state that does not round-trip or cannot be played on.
func TestUnmarshalGarbage(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	samples := sampleEncodings(t, 6)
	n := 40000
	if raceEnabled || testing.Short() {
		n = 5000
	}
	accepted := 0
	for i := 0; i < n; i++ {
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
			b = make([]byte, r.IntN(200))
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
	t.Logf("%d of %d mutations accepted (e.g. a changed seed, RNG word or deck order)", accepted, n)
}

// Specific corruptions are refused.
func TestUnmarshalRejects(t *testing.T) {
	st := deal(t, "PC / MM | PA / TT | Z / PPP ; deck J")
	good := mustMarshal(t, st)
	var x State
	if err := x.UnmarshalBinary(good); err != nil || x != *st {
		t.Fatalf("round trip: %v", err)
	}
	mutate := map[string]func(s *State){
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
	}
	for name, m := range mutate {
		c := st.Clone()
		m(c)
		b, _ := c.MarshalBinary()
		if _, err := Unmarshal(b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := Unmarshal(append([]byte{99}, good[1:]...)); err == nil {
		t.Error("unknown version accepted")
	}
	if _, err := Unmarshal(append(bytes.Clone(good), 0)); err == nil {
		t.Error("trailing byte accepted")
	}
	if x != *st {
		t.Fatal("failed UnmarshalBinary changed the target")
	}
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
