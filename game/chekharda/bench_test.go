package chekharda

import (
	"math/rand/v2"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// BenchmarkRandomGame plays full 4-player games (target 77): a random seat
// of ToAct (the platform included) and a random legal action each step;
// games/s = 1e9 / ns/op.
func BenchmarkRandomGame(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	legal := make([]game.Action, 0, 64)
	to := make([]game.Seat, 0, MaxPlayers+1)
	steps := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		st, _ := New(Config{Players: 4, Dealer: game.Seat(i % 4), Seed: uint64(i)})
		for !st.Over() {
			to = st.ToActAppend(to[:0])
			s := to[r.IntN(len(to))]
			legal = st.LegalAppend(legal[:0], s)
			_ = st.Apply(s, legal[r.IntN(len(legal))])
			steps++
		}
	}
	b.ReportMetric(float64(steps)/float64(b.N), "actions/game")
}

// BenchmarkRobotGame plays full 4-player games the way the bot runs them
// (reaction times, quiet-pause deals): Shef and three Cooks, a view per
// robot per step.
func BenchmarkRobotGame(b *testing.B) {
	levels := []Level{Shef, Cook, Cook, Cook}
	for i := 0; b.Loop(); i++ {
		realtime(b, Config{Players: 4, Seed: uint64(i)}, levels, false, uint64(i))
	}
}

// midRound is a 4-player state in the middle of a round, seen by seat 0:
// several sets on the table and several moves to choose from.
func midRound(b *testing.B) *State {
	st, err := NewFromDeal(Config{Players: 4},
		"PMCJA / TT | AZS / PP FFF | ZJRB / MMMM | HSR / CC ; deck B")
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkDecide is one decision per level on midRound.
func BenchmarkDecide(b *testing.B) {
	v := midRound(b).SeatView(0)
	for _, lv := range Levels() {
		b.Run(string(lv), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				Decide(lv, v, uint64(i))
			}
			b.ReportMetric(float64(len(v.Legal)), "legal")
		})
	}
}

// BenchmarkApply is one steal (copying the state each time).
func BenchmarkApply(b *testing.B) {
	st := midRound(b)
	b.ReportAllocs()
	var c State
	for b.Loop() {
		c = *st
		if err := c.Apply(0, StealAction(Monkey, 2)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeal is the platform's deal (copying the state each time).
func BenchmarkDeal(b *testing.B) {
	st := midRound(b)
	b.ReportAllocs()
	var c State
	for b.Loop() {
		c = *st
		if err := c.Apply(game.System, DealAction()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshal encodes a mid-game state with a full log and reports
// its size.
func BenchmarkMarshal(b *testing.B) {
	st := fullLog(b)
	buf := make([]byte, 0, 256)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		out, _ := st.AppendBinary(buf[:0])
		n = len(out)
	}
	b.ReportMetric(float64(n), "bytes")
}

// BenchmarkUnmarshal decodes and validates the same state.
func BenchmarkUnmarshal(b *testing.B) {
	data, _ := fullLog(b).MarshalBinary()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Unmarshal(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSeatView builds one seat's view.
func BenchmarkSeatView(b *testing.B) {
	st := fullLog(b)
	b.ReportAllocs()
	for b.Loop() {
		st.SeatView(1)
	}
}

// fullLog plays a 4-player game with random moves until the log is full
// and the round is in play.
func fullLog(b testing.TB) *State {
	st, _ := New(Config{Players: 4, Seed: 3})
	r := rand.New(rand.NewPCG(3, 3))
	for st.nLog < LogSize || st.Phase() != PhasePlay {
		to := st.ToAct()
		s := to[r.IntN(len(to))]
		l := st.Legal(s)
		if err := st.Apply(s, l[r.IntN(len(l))]); err != nil {
			b.Fatal(err)
		}
	}
	return st
}

func TestEncodedSize(t *testing.T) {
	n := len(mustMarshal(t, fullLog(t)))
	if n > 200 {
		t.Fatalf("encoding is %d bytes", n)
	}
	t.Logf("4-player state mid-round, full log: %d bytes", n)
}
