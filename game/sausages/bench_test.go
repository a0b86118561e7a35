package sausages

import (
	"math/rand/v2"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// BenchmarkRandomGame plays full 4-player games with uniformly random legal
// actions (setup in random order); games/s = 1e9 / ns/op.
func BenchmarkRandomGame(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	legal := make([]game.Action, 0, 64)
	to := make([]game.Seat, 0, MaxPlayers)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		st, _ := New(Config{Players: 4, First: game.Seat(i % 4), Seed: uint64(i)})
		for !st.Over() {
			to = st.ToActAppend(to[:0])
			s := to[r.IntN(len(to))]
			legal = st.LegalAppend(legal[:0], s)
			_ = st.Apply(s, legal[r.IntN(len(legal))])
		}
	}
}

// BenchmarkSlyGame plays full 4-player games with Sly at every seat
// (views built at every step).
func BenchmarkSlyGame(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		st, _ := New(Config{Players: 4, Seed: uint64(i)})
		for !st.Over() {
			s := st.ToAct()[0]
			_ = st.Apply(s, Sly(st.SeatView(s), uint64(i)))
		}
	}
}

// bidView returns a 6-player view in the bidding, with full stacks: the
// costliest decision for both AIs (many bids, Sly's success estimate).
func bidView(b *testing.B) SeatView {
	st, _ := New(Config{Players: 6, Seed: 5})
	lay(b, st, "SSS SSS SSB SBS BSS SSS")
	if err := st.Apply(0, BidAction(2)); err != nil {
		b.Fatal(err)
	}
	return st.SeatView(1)
}

// BenchmarkBaseline is one Baseline decision in a 6-player bidding.
func BenchmarkBaseline(b *testing.B) {
	v := bidView(b)
	for b.Loop() {
		Baseline(v, 1)
	}
	b.ReportMetric(float64(len(v.Legal)), "legal")
}

// BenchmarkSly is one Sly decision in a 6-player bidding.
func BenchmarkSly(b *testing.B) {
	v := bidView(b)
	for b.Loop() {
		Sly(v, 1)
	}
	b.ReportMetric(float64(len(v.Legal)), "legal")
}

// BenchmarkSharp is one Sharp decision in a 6-player bidding (a belief
// over five stacks and one best plan).
func BenchmarkSharp(b *testing.B) {
	v := bidView(b)
	for b.Loop() {
		Sharp(v, 1)
	}
	b.ReportMetric(float64(len(v.Legal)), "legal")
}

// BenchmarkSharpOpen is Sharp's costliest step: the highest bid it is
// sure of, before anyone bid at a 6-player table of full stacks (a plan
// per candidate bid).
func BenchmarkSharpOpen(b *testing.B) {
	st, _ := New(Config{Players: 6, Seed: 5})
	lay(b, st, "SSS SSS SSB SBS BSS SSS")
	v := st.SeatView(0)
	for b.Loop() {
		newBelief(&v).maxBid(sharpOpen)
	}
}

// BenchmarkApply is one bid (copying the state each time).
func BenchmarkApply(b *testing.B) {
	st, _ := New(Config{Players: 6, Seed: 5})
	lay(b, st, "SSS SSS SSB SBS BSS SSS")
	b.ReportAllocs()
	var c State
	for b.Loop() {
		c = *st
		if err := c.Apply(0, BidAction(2)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshal encodes a 6-player state in the bidding and reports its
// size.
func BenchmarkMarshal(b *testing.B) {
	st, _ := New(Config{Players: 6, Seed: 5})
	lay(b, st, "SSS SSS SSB SBS BSS SSS")
	_ = st.Apply(0, BidAction(2))
	buf := make([]byte, 0, 128)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		out, _ := st.AppendBinary(buf[:0])
		n = len(out)
	}
	b.ReportMetric(float64(n), "bytes")
}

// BenchmarkSeatView builds one seat's view.
func BenchmarkSeatView(b *testing.B) {
	st, _ := New(Config{Players: 6, Seed: 5})
	lay(b, st, "SSS SSS SSB SBS BSS SSS")
	_ = st.Apply(0, BidAction(2))
	b.ReportAllocs()
	for b.Loop() {
		st.SeatView(1)
	}
}

func TestEncodedSize(t *testing.T) {
	st, _ := New(Config{Players: 6, Seed: 5})
	lay(t, st, "SSS SSS SSB SBS BSS SSS")
	apply(t, st, "bid:2 bid:5 pass pass pass pass pass reveal:0")
	n := len(mustMarshal(t, st))
	if n > 128 {
		t.Fatalf("encoding is %d bytes", n)
	}
	t.Logf("marshalled 6-player state mid-attempt: %d bytes", n)
}
