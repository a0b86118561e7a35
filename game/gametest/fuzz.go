package gametest

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// Steps is one seed case of FuzzActions: the game's seed and the bytes
// that choose its actions (see FuzzActions).
type Steps struct {
	Seed uint64
	Data []byte
}

// standardSteps are the seed cases of every engine: short legal and raw
// sequences, then long ones that mix both and play a game well into it.
func standardSteps() []Steps {
	return []Steps{
		{1, []byte{0, 0, 0, 0, 1, 0, 0, 2, 0}},
		{2, []byte{1, 0, 0, 1, 4, 200, 3, 1, 10}},
		{3, bytes.Repeat([]byte{0, 7, 1, 1, 2, 3}, 100)},
		{4, bytes.Repeat([]byte{2, 255, 0, 5, 1, 255}, 200)},
		{4, bytes.Repeat([]byte{2, 255, 0, 5, 1, 86}, 200)},
		{5, bytes.Repeat([]byte{0, 3, 9}, 400)},
	}
}

// FuzzActions drives a game with arbitrary action sequences. The fuzz
// input is (seed uint64, data []byte): the game is g.New(n, seed) with n =
// g.Seats[seed%len(g.Seats)] (an engine that wants its options varied by
// the fuzzer derives them from seed in the New it passes). Then data is
// read three bytes (op, x, y) a step. If op is even, the step is a legal
// one: seat ToAct[x%len] and its legal action number (x<<8|y)%len (x when
// there is none, as once the game is over). If op is odd, it is a raw
// pair that may be anything: seat (op>>1)%(m+4)-2 with m the largest seat
// count, so -2..m+1, and action int8(x)*(op>>4+1) + y%(MaxAction+4).
// Once the data is used up a finished game is offered one more action.
// The seed corpus is a standard set of cases, then seeds.
//
// Every step is checked: nothing panics; a refused action is a *game.RuleError
// with a code, was not in Legal, and leaves the encoding byte-identical; an
// accepted one was in Legal, leaves a state that round-trips through Decode
// to the same bytes and that g.Validate (if set) accepts.
func FuzzActions(f *testing.F, g Game, seeds ...Steps) {
	f.Helper()
	if err := g.check(); err != nil {
		f.Fatal(err)
	}
	for _, s := range append(standardSteps(), seeds...) {
		f.Add(s.Seed, s.Data)
	}
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		n := g.Seats[seed%uint64(len(g.Seats))]
		st, err := g.New(n, seed)
		if err != nil {
			t.Fatalf("New(%d, %d): %v", n, seed, err)
		}
		for ; len(data) >= 3; data = data[3:] {
			s, a := g.decodeStep(st, data[0], data[1], data[2])
			g.step(t, st, s, a)
		}
		if st.Over() {
			g.step(t, st, 0, 0)
		}
	})
}

// decodeStep turns three fuzz bytes into a (seat, action) pair for st (see
// FuzzActions).
func (g *Game) decodeStep(st game.State, op, x, y byte) (game.Seat, game.Action) {
	if op%2 == 1 {
		seats := slices.Max(g.Seats)
		s := game.Seat(int(op>>1)%(seats+4) - 2)
		return s, game.Action(int(int8(x))*int(op>>4+1) + int(y)%int(g.MaxAction+4))
	}
	to := st.ToAct()
	if len(to) == 0 {
		return 0, game.Action(x)
	}
	s := to[int(x)%len(to)]
	l := st.Legal(s)
	if len(l) == 0 {
		return s, game.Action(x)
	}
	return s, l[(int(x)<<8|int(y))%len(l)]
}

// step applies a for seat s and checks the outcome (see FuzzActions).
func (g *Game) step(t *testing.T, st game.State, s game.Seat, a game.Action) {
	t.Helper()
	before := mustMarshal(t, st)
	legal := slices.Contains(st.Legal(s), a)
	err := st.Apply(s, a)
	if err != nil {
		if game.CodeOf(err) == "" {
			t.Fatalf("Apply(%d, %d): %v is not a *game.RuleError with a code", s, a, err)
		}
		if legal {
			t.Fatalf("Apply(%d, %d): legal action refused: %v", s, a, err)
		}
		if !bytes.Equal(before, mustMarshal(t, st)) {
			t.Fatalf("Apply(%d, %d) refused with %v but changed the state", s, a, err)
		}
		return
	}
	if !legal {
		t.Fatalf("Apply(%d, %d) accepted an action not in Legal", s, a)
	}
	b := mustMarshal(t, st)
	d, err := g.Decode(bytes.Clone(b))
	if err != nil {
		t.Fatalf("after Apply(%d, %d) the state does not decode: %v", s, a, err)
	}
	if !bytes.Equal(mustMarshal(t, d), b) {
		t.Fatalf("after Apply(%d, %d) the state does not round-trip", s, a)
	}
	if g.Validate != nil {
		if err := g.Validate(st); err != nil {
			t.Fatalf("Apply(%d, %d) left an invalid state: %v", s, a, err)
		}
	}
}

func mustMarshal(t testing.TB, st game.State) []byte {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzUnmarshal feeds arbitrary bytes to g.Decode (the seeds, and the empty
// input): see CheckDecode for what is checked.
func FuzzUnmarshal(f *testing.F, g Game, seeds ...[]byte) {
	f.Helper()
	if err := g.check(); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte{})
	for _, b := range seeds {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g.CheckDecode(t, data)
	})
}

// CheckDecode checks what g.Decode makes of data: it may refuse it, but
// must not panic, and a state it accepts encodes to the same bytes, passes
// g.Validate (if set), has a View for every seat (and for seats out of
// range: -2 and the largest seat count, which must not panic), and plays
// on: up to 12 legal actions, each checked as in FuzzActions.
func (g *Game) CheckDecode(t *testing.T, data []byte) {
	t.Helper()
	st, err := g.Decode(bytes.Clone(data))
	if err != nil {
		return
	}
	if !bytes.Equal(mustMarshal(t, st), data) {
		t.Fatalf("accepted encoding does not round-trip:\n\t%x\n\t%x", data, mustMarshal(t, st))
	}
	if g.Validate != nil {
		if err := g.Validate(st); err != nil {
			t.Fatalf("accepted encoding is invalid: %v", err)
		}
	}
	if g.View != nil {
		for s := game.System - 1; s <= game.Seat(slices.Max(g.Seats)); s++ {
			_ = g.View(st, s)
		}
	}
	if st.Over() {
		if r := st.Result(); len(r.Scores) != st.Seats() || len(r.Winners) == 0 {
			t.Fatalf("accepted finished game has result %+v", r)
		}
	}
	for i := 0; i < 12 && !st.Over(); i++ {
		to := st.ToAct()
		if len(to) == 0 {
			t.Fatal("nobody to act in an accepted state")
		}
		s := to[i%len(to)]
		l := st.Legal(s)
		if len(l) == 0 {
			t.Fatalf("seat %d is to act but has no legal action in an accepted state", s)
		}
		g.step(t, st, s, l[i%len(l)])
		if g.View != nil {
			_ = g.View(st, s)
		}
	}
}

// Encodings plays games random games (game k: g.Seats[k%len] seats, seed k,
// a random seat of ToAct and a random legal action each step) and returns
// the encodings of every every-th state and of each final one: seeds for
// FuzzUnmarshal and samples for DecodeMutations.
func Encodings(tb testing.TB, g Game, games, every int) [][]byte {
	tb.Helper()
	var out [][]byte
	for k := 0; k < games; k++ {
		n := g.Seats[k%len(g.Seats)]
		st, err := g.New(n, uint64(k))
		if err != nil {
			tb.Fatalf("New(%d, %d): %v", n, k, err)
		}
		r := rand.New(rand.NewPCG(uint64(k), 9))
		for i := 0; !st.Over(); i++ {
			if i%every == 0 {
				out = append(out, mustMarshal(tb, st))
			}
			to := st.ToAct()
			s := to[r.IntN(len(to))]
			l := st.Legal(s)
			if err := st.Apply(s, l[r.IntN(len(l))]); err != nil {
				tb.Fatal(err)
			}
		}
		out = append(out, mustMarshal(tb, st))
	}
	return out
}

// DecodeMutations feeds CheckDecode n mutations of valid encodings (a bit
// flipped, a byte changed, truncation, one byte more) and random inputs as
// long as the longest sample; n is divided by 10 under -race or -short.
// Every sample must decode. How many mutations were accepted is logged: a
// changed seed or generator word, for one, is still a valid state.
func DecodeMutations(t *testing.T, g Game, samples [][]byte, n int) {
	t.Helper()
	if raceEnabled || testing.Short() {
		n = max(n/10, 1)
	}
	if len(samples) == 0 {
		t.Fatal("DecodeMutations: no samples")
	}
	longest := 1
	for _, b := range samples {
		if _, err := g.Decode(bytes.Clone(b)); err != nil || len(b) == 0 {
			t.Fatalf("valid encoding refused: %v\n\t%x", err, b)
		}
		longest = max(longest, len(b))
	}
	r := rand.New(rand.NewPCG(5, 5))
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
			b = make([]byte, r.IntN(longest+1))
			for j := range b {
				b[j] = byte(r.IntN(256))
			}
		}
		if _, err := g.Decode(bytes.Clone(b)); err == nil {
			accepted++
		}
		g.CheckDecode(t, b)
	}
	t.Logf("%d of %d mutations accepted", accepted, n)
}

// Corruptions checks that the decoder refuses invalid states. st, a valid
// state, must encode, decode and re-encode to the same bytes. Then each
// mutation, applied to a clone of st, must give an encoding that g.Decode
// refuses (or none), and so must st's encoding with an unknown version
// byte (99) first or a byte more at the end; UnmarshalBinary into a clone
// of st must refuse them too and leave that clone as it was.
func Corruptions[S interface {
	game.State
	UnmarshalBinary(data []byte) error
}](t *testing.T, g Game, st S, clone func(S) S, mutate map[string]func(S)) {
	t.Helper()
	good := mustMarshal(t, st)
	if d, err := g.Decode(bytes.Clone(good)); err != nil {
		t.Fatalf("valid state refused: %v", err)
	} else if !bytes.Equal(mustMarshal(t, d), good) {
		t.Fatal("valid state does not round-trip")
	}
	refused := func(name string, b []byte) {
		t.Helper()
		if _, err := g.Decode(bytes.Clone(b)); err == nil {
			t.Errorf("%s: accepted", name)
		}
		x := clone(st)
		if err := x.UnmarshalBinary(b); err == nil {
			t.Errorf("%s: accepted by UnmarshalBinary", name)
		} else if !bytes.Equal(mustMarshal(t, x), good) {
			t.Errorf("%s: a refused UnmarshalBinary changed its target", name)
		}
	}
	for name, m := range mutate {
		c := clone(st)
		m(c)
		if b, err := c.MarshalBinary(); err == nil { // refusing to encode it will do too
			refused(name, b)
		}
	}
	refused("unknown version", append([]byte{99}, good[1:]...))
	refused("trailing byte", append(bytes.Clone(good), 0))
}
