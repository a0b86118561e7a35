package chef

import (
	"testing"

	"github.com/trickchef/trickchef/game"
)

// BenchmarkRandomGame plays full 6-player games with uniformly random legal
// actions; games/s = 1e9 / ns/op. It reports the actions per game.
func BenchmarkRandomGame(b *testing.B) {
	r := rng(1)
	legal := make([]game.Action, 0, MaxAction+1)
	steps := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		st, _ := New(Config{Players: 6, First: game.Seat(i % 6), Seed: uint64(i)})
		for !st.Over() {
			s := game.Seat(st.turn)
			legal = st.LegalAppend(legal[:0], s)
			_ = st.Apply(s, legal[r.Below(len(legal))])
			steps++
		}
	}
	b.ReportMetric(float64(steps)/float64(b.N), "actions/game")
}

// midView returns seat's view of a 6-player game played by Cooks for
// some turns: a mid-game decision at the start of a turn.
func midView(b testing.TB, turns int) SeatView {
	st, _ := New(Config{Players: 6, Seed: 11})
	for !st.Over() && int(st.turnNo) < turns || st.step != StepTurn {
		s := st.ToAct()[0]
		if err := st.Apply(s, Decide(Cook, st.SeatView(s), 1)); err != nil {
			b.Fatal(err)
		}
	}
	return st.SeatView(game.Seat(st.turn))
}

func benchDecide(b *testing.B, l Level) {
	v := midView(b, 30)
	for i := 0; b.Loop(); i++ {
		Decide(l, v, uint64(i))
	}
	b.ReportMetric(float64(len(v.Legal)), "legal")
}

// BenchmarkDecideNovice, BenchmarkDecideCook and BenchmarkDecideShef time
// one decision at the start of a mid-game turn of a 6-player game (Shef
// searches it: two legal moves).
func BenchmarkDecideNovice(b *testing.B) { benchDecide(b, Novice) }
func BenchmarkDecideCook(b *testing.B)   { benchDecide(b, Cook) }
func BenchmarkDecideShef(b *testing.B)   { benchDecide(b, Shef) }

// BenchmarkCookGame plays full 6-player games with Cook at every seat,
// straight on the state (as Shef's playouts do).
func BenchmarkCookGame(b *testing.B) {
	steps := 0
	for i := 0; b.Loop(); i++ {
		st, _ := New(Config{Players: 6, Seed: uint64(i)})
		for !st.Over() {
			if err := st.Apply(game.Seat(st.turn), cookMove(st)); err != nil {
				b.Fatal(err)
			}
			steps++
		}
	}
	b.ReportMetric(float64(steps)/float64(b.N), "actions/game")
}

// BenchmarkApply is one draw and one discard on a copy of a 6-player
// mid-game state: 0 allocations.
func BenchmarkApply(b *testing.B) {
	v := midView(b, 30)
	st, _ := New(Config{Players: 6, Seed: 11})
	for st.turnNo < uint32(v.TurnNumber) || st.step != StepTurn {
		_ = st.Apply(game.Seat(st.turn), cookMove(st))
	}
	b.ReportAllocs()
	var c State
	for b.Loop() {
		c = *st
		if err := c.Apply(game.Seat(c.turn), DrawAction()); err != nil {
			b.Fatal(err)
		}
		if err := c.Apply(game.Seat(c.turn), EndAction()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2, "applies/op")
}

// BenchmarkMarshal encodes a 6-player mid-game state and reports its size.
func BenchmarkMarshal(b *testing.B) {
	st, _ := New(Config{Players: 6, Seed: 11})
	for st.turnNo < 30 {
		_ = st.Apply(game.Seat(st.turn), cookMove(st))
	}
	buf := make([]byte, 0, 512)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		out, _ := st.AppendBinary(buf[:0])
		n = len(out)
	}
	b.ReportMetric(float64(n), "bytes")
}

// BenchmarkSeatView builds one seat's view of a 6-player mid-game state.
func BenchmarkSeatView(b *testing.B) {
	st, _ := New(Config{Players: 6, Seed: 11})
	for st.turnNo < 30 {
		_ = st.Apply(game.Seat(st.turn), cookMove(st))
	}
	b.ReportAllocs()
	for b.Loop() {
		st.SeatView(game.Seat(st.turn))
	}
}

// BenchmarkShefGame plays full 4-player games, Shef in seat 0 and Cook in
// the others.
func BenchmarkShefGame(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		st, _ := New(Config{Players: 4, Seed: uint64(i)})
		for !st.Over() {
			s := game.Seat(st.turn)
			a := cookMove(st)
			if s == 0 {
				a = Decide(Shef, st.SeatView(s), uint64(i))
			}
			if err := st.Apply(s, a); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func TestEncodedSize(t *testing.T) {
	st, _ := New(Config{Players: 8, Seed: 3})
	n := 0
	for !st.Over() {
		n = len(mustMarshal(t, st))
		if n > 300 {
			t.Fatalf("encoding is %d bytes", n)
		}
		_ = st.Apply(game.Seat(st.turn), cookMove(st))
	}
	t.Logf("marshalled 8-player state: %d bytes before the end", n)
}

// BenchmarkDecideShefHeavy is a costly Shef decision: 6 players, a hand
// full of action cards, 36 legal actions (the most candidates a decision
// has, so the most halving rounds).
func BenchmarkDecideShefHeavy(b *testing.B) {
	st := deal(b, "0:oorpHDEMC 1:orpgbb 2:rr 3:gg 4:bb 5:nn discard:g")
	v := st.SeatView(0)
	for i := 0; b.Loop(); i++ {
		Decide(Shef, v, uint64(i))
	}
	b.ReportMetric(float64(len(v.Legal)), "legal")
}
