package trickchef

import (
	"math/rand/v2"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// BenchmarkRandomGame plays full 4-player games (3 rounds) with uniformly
// random legal actions; games/s = 1e9 / ns/op.
func BenchmarkRandomGame(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	legal := make([]game.Action, 0, 512)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		st, _ := New(DefaultConfig(4, 0, uint64(i)))
		for !st.Over() {
			s, _ := st.Current()
			legal = st.LegalAppend(legal[:0], s)
			_ = st.Apply(s, legal[r.IntN(len(legal))])
		}
	}
}

// midGame returns the state, in a 4-player game played by Baseline, where
// the seat to act plays last to a trick with the most legal actions (many
// cards and coins: the costliest Baseline decision), with that seat's view.
func midGame(b *testing.B) (*State, SeatView) { return midGameT(b) }

// BenchmarkBaseline is one Baseline decision when playing last to a trick
// (every coin option is evaluated).
func BenchmarkBaseline(b *testing.B) {
	_, v := midGame(b)
	for b.Loop() {
		Baseline(v, 1)
	}
	b.ReportMetric(float64(len(v.Legal)), "legal")
}

// BenchmarkApply is one card play (copying the state each time).
func BenchmarkApply(b *testing.B) {
	st, _ := midGame(b)
	s, _ := st.Current()
	a := st.Legal(s)[0]
	b.ReportAllocs()
	var c State
	for b.Loop() {
		c = *st
		if err := c.Apply(s, a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshal encodes a mid-game state and reports its size.
func BenchmarkMarshal(b *testing.B) {
	st, _ := midGame(b)
	buf := make([]byte, 0, 512)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		out, _ := st.AppendBinary(buf[:0])
		n = len(out)
	}
	b.ReportMetric(float64(n), "bytes")
}

func TestEncodedSize(t *testing.T) {
	st, _ := New(cfg4())
	n := len(mustMarshal(t, st))
	if n >= 2048 {
		t.Fatalf("encoding is %d bytes", n)
	}
	t.Logf("marshalled state: %d bytes", n)
}

// BenchmarkSeatView builds one seat's view (what an AI or the bot reads).
func BenchmarkSeatView(b *testing.B) {
	st, v := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		st.SeatView(v.Seat)
	}
}
