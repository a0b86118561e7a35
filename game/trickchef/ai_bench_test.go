package trickchef

import (
	"testing"

	"github.com/trickchef/trickchef/game"
)

// midGameT is midGame for tests: a late-to-play decision with many legal
// actions, from a game Baseline plays.
func midGameT(t testing.TB) (*State, SeatView) {
	st, _ := New(DefaultConfig(4, 0, 11))
	var best *State
	most := 0
	for !st.Over() {
		s, _ := st.Current()
		if n := len(st.Legal(s)); st.phase == PhasePlay && st.nPlayed == 3 && n > most {
			best, most = st.Clone(), n
		}
		if err := st.Apply(s, Baseline(st.SeatView(s), 3)); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := best.Current()
	return best, best.SeatView(s)
}

// roundStart is the first card play of a 4-player game: the costliest
// search (ten cards to play out in every playout).
func roundStart(b *testing.B) SeatView {
	st, _ := New(DefaultConfig(4, 0, 11))
	for st.Phase() != PhasePlay {
		s, _ := st.Current()
		if err := st.Apply(s, st.Legal(s)[0]); err != nil {
			b.Fatal(err)
		}
	}
	return st.SeatView(game.Seat(st.turn))
}

func benchDecide(b *testing.B, l Level, v SeatView) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Decide(l, v, History{}, uint64(i), Budget{})
	}
}

func BenchmarkDecideNovice(b *testing.B) { _, v := midGameT(b); benchDecide(b, Novice, v) }
func BenchmarkDecideCook(b *testing.B)   { _, v := midGameT(b); benchDecide(b, Cook, v) }

// BenchmarkDecideShef is one search with DefaultPlayouts, late in a round.
func BenchmarkDecideShef(b *testing.B) { _, v := midGameT(b); benchDecide(b, Shef, v) }

// BenchmarkDecideShefLead is the costliest search: leading trick 1.
func BenchmarkDecideShefLead(b *testing.B) { benchDecide(b, Shef, roundStart(b)) }

// BenchmarkDecidePrevShef and BenchmarkDecidePrevShefLead are the same
// searches by PrevShef, the yardstick.
func BenchmarkDecidePrevShef(b *testing.B)     { _, v := midGameT(b); benchDecide(b, PrevShef, v) }
func BenchmarkDecidePrevShefLead(b *testing.B) { benchDecide(b, PrevShef, roundStart(b)) }
