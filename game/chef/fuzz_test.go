package chef

import (
	"bytes"
	"errors"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// FuzzActions drives a game with arbitrary action sequences: three bytes
// per step. If the first is even, one of the legal actions of the seat to
// act is chosen by the next bytes; otherwise the step is a raw (seat,
// action) pair that may be anything. Nothing may panic; a refused action
// must be a coded *game.RuleError that leaves the encoding unchanged; an
// accepted one must be legal and leave a valid state.
func FuzzActions(f *testing.F) {
	f.Add(uint64(1), []byte{0, 0, 0, 0, 1, 0, 0, 2, 0})
	f.Add(uint64(2), []byte{1, 0, 0, 1, 4, 200, 3, 1, 10})
	f.Add(uint64(3), bytes.Repeat([]byte{0, 7, 1, 1, 2, 3}, 100))
	f.Add(uint64(4), bytes.Repeat([]byte{2, 255, 0, 5, 1, 255}, 200))
	f.Add(uint64(5), bytes.Repeat([]byte{0, 3, 9}, 400))
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		n := MinPlayers + int(seed%7)
		st, err := New(Config{Players: n, First: game.Seat(seed / 7 % uint64(n)), AutoAnnounce: seed&64 != 0, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for len(data) >= 3 && !st.Over() {
			op, x, y := data[0], data[1], data[2]
			data = data[3:]
			var seat game.Seat
			var a game.Action
			if op%2 == 0 {
				seat = st.ToAct()[0]
				l := st.Legal(seat)
				a = l[(int(x)<<8|int(y))%len(l)]
			} else {
				seat = game.Seat(int(op>>1)%10 - 1) // -1..8
				a = game.Action(int(int8(x))*int(op>>5+1) + int(y)%64)
			}
			step(t, st, seat, a)
		}
		if st.Over() {
			step(t, st, 0, 0)
		}
	})
}

func step(t *testing.T, st *State, seat game.Seat, a game.Action) {
	t.Helper()
	before := mustMarshal(t, st)
	legal := false
	for _, l := range st.Legal(seat) {
		legal = legal || l == a
	}
	err := st.Apply(seat, a)
	if err != nil {
		var re *game.RuleError
		if !errors.As(err, &re) || re.Code == "" {
			t.Fatalf("Apply(%d, %d): uncoded error %v", seat, a, err)
		}
		if legal {
			t.Fatalf("Apply(%d, %d): legal action refused: %v", seat, a, err)
		}
		if !bytes.Equal(before, mustMarshal(t, st)) {
			t.Fatalf("Apply(%d, %d) failed with %v but changed the state", seat, a, err)
		}
		return
	}
	if !legal {
		t.Fatalf("Apply(%d, %d) accepted an action not in Legal", seat, a)
	}
	if err := st.validate(); err != nil {
		t.Fatalf("Apply(%d, %d) left an invalid state: %v", seat, a, err)
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
	for s := game.Seat(-1); s <= MaxPlayers; s++ {
		_ = st.SeatView(s)
	}
	_ = st.Result()
	for i := 0; i < 12 && !st.Over(); i++ {
		to := st.ToAct()
		if len(to) == 0 {
			t.Fatal("nobody to act in an accepted state")
		}
		l := st.Legal(to[0])
		if len(l) == 0 {
			t.Fatal("no legal action in an accepted state")
		}
		v := st.SeatView(to[0])
		for _, lv := range []Level{Novice, Cook} {
			if a := Decide(lv, v, uint64(i)); !contains(l, a) {
				t.Fatalf("%s chose %d, not legal", lv, a)
			}
		}
		step(t, st, to[0], l[i%len(l)])
	}
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

// TestUnmarshalGarbage mutates valid encodings (bit flips, byte changes,
// truncation, extension) and feeds random bytes: never a panic, and no
// accepted state that does not round-trip or cannot be played on.
func TestUnmarshalGarbage(t *testing.T) {
	r := rng(5)
	samples := sampleEncodings(t, 8)
	n := 30000
	if raceEnabled {
		n = 3000
	}
	accepted := 0
	for i := 0; i < n; i++ {
		b := bytes.Clone(samples[r.Below(len(samples))])
		switch r.Below(5) {
		case 0:
			b[r.Below(len(b))] ^= 1 << r.Below(8)
		case 1:
			b[r.Below(len(b))] = byte(r.Below(256))
		case 2:
			b = b[:r.Below(len(b))]
		case 3:
			b = append(b, byte(r.Below(256)))
		case 4:
			b = make([]byte, r.Below(300))
			for j := range b {
				b[j] = byte(r.Below(256))
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
	t.Logf("%d of %d mutations accepted (e.g. a changed seed, generator word or pile order)", accepted, n)
}

// Specific corruptions are refused.
func TestUnmarshalRejects(t *testing.T) {
	st := deal(t, "0:orpgbnH 1:oo 2:C discard:gA pile:r")
	apply(t, st, "draw")
	good := mustMarshal(t, st)
	var x State
	if err := x.UnmarshalBinary(good); err != nil || x != *st {
		t.Fatalf("round trip: %v", err)
	}
	mutate := map[string]func(s *State){
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
}

func contains(l []game.Action, a game.Action) bool {
	for _, x := range l {
		if x == a {
			return true
		}
	}
	return false
}
