package chef

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/game"
)

// Shef's search answers a legal action in random positions at every table
// size (positions reached by random play, so odd ones too), the same one
// for the same view and seed.
func TestShefLegalAndDeterministicInRandomStates(t *testing.T) {
	games, every := 14, 3
	if raceEnabled || testing.Short() {
		games, every = 7, 11
	}
	b := Budget{Playouts: 300}
	for g := 0; g < games; g++ {
		st, _ := New(Config{Players: 2 + g%7, AutoAnnounce: g%3 == 2, Seed: uint64(900 + g)})
		r := rng(uint64(g))
		for i := 0; !st.Over(); i++ {
			s := game.Seat(st.turn)
			if i%every == 0 {
				v := st.SeatView(s)
				a := DecideBudget(Shef, v, uint64(i), b)
				if !contains(v.Legal, a) {
					t.Fatalf("game %d move %d: %d is not legal (%v)", g, i, a, v.Legal)
				}
				if again := DecideBudget(Shef, st.SeatView(s), uint64(i), b); again != a {
					t.Fatalf("game %d move %d: %d then %d for the same view and seed", g, i, a, again)
				}
			}
			// Mostly random play with some sense, so positions vary.
			pol := novicePolicy
			if i%3 == 0 {
				pol = cookPolicy
			}
			if err := st.Apply(s, pol(st, &r)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// No peeking: two states that differ only in the pile's order (and the
// generator) get the same decision, at the default budget (a smaller one
// under -race or -short).
func TestShefDoesNotPeekAtThePile(t *testing.T) {
	games, b := 6, Budget{}
	if raceEnabled || testing.Short() {
		games, b = 2, Budget{Playouts: 300}
	}
	searched := 0
	for g := 0; g < games; g++ {
		st, _ := New(Config{Players: 3 + g%4, Seed: uint64(400 + g)})
		for i := 0; !st.Over(); i++ {
			s := game.Seat(st.turn)
			if i%4 == 0 && len(st.Legal(s)) > 1 {
				other := rehide(st, s, uint64(i+1))
				if other.pile == st.pile {
					continue // nothing left to reorder
				}
				x, y := DecideBudget(Shef, st.SeatView(s), uint64(g), b), DecideBudget(Shef, other.SeatView(s), uint64(g), b)
				if x != y {
					t.Fatalf("game %d move %d: %d with one pile order, %d with another", g, i, x, y)
				}
				searched++
			}
			if err := st.Apply(s, cookMove(st)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if searched == 0 {
		t.Fatal("no position compared")
	}
}

// A wall-clock cap stops the search early and still answers a legal
// action; without a Clock the cap is ignored.
func TestShefWallCap(t *testing.T) {
	st := deal(t, "0:oorpHDEMC 1:orpgbb 2:rr 3:gg 4:bb 5:nn discard:g")
	v := st.SeatView(0)
	calls := 0
	clock := func() time.Time {
		calls++
		return time.Unix(0, 0).Add(time.Duration(calls) * time.Second) // a second per look
	}
	a := DecideBudget(Shef, v, 1, Budget{Playouts: 1_000_000, Wall: time.Millisecond, Clock: clock})
	if !contains(v.Legal, a) {
		t.Fatalf("%d is not legal", a)
	}
	if calls != 2 {
		t.Fatalf("the clock was read %d times, want 2 (start, then the first round's end)", calls)
	}
	if a, b := DecideBudget(Shef, v, 1, Budget{Playouts: 200, Wall: time.Millisecond}), DecideBudget(Shef, v, 1, Budget{Playouts: 200}); a != b {
		t.Fatalf("a Wall without a Clock changed the decision: %d, %d", a, b)
	}
}

// Shef does not search sure things: the winning Addition, announcing, the
// Chef redraw, a single legal move.
func TestShefSureThings(t *testing.T) {
	for _, c := range []struct{ deal, moves, want string }{
		{"0:orpgbn 1:- 2:- announced:0 discard:gA", "", "take"},
		{"0:orpgbn 1:- 2:- discard:g", "", "announce"},
		{"0:orpgbn 1:- 2:- announced:0 discard:g pile:C", "draw", "redraw"},
		// Complete and announced: only the Addition is missing, and a draw
		// is the only move.
		{"0:orpgbn 1:- 2:- announced:0 discard:g", "", "draw"},
	} {
		st := deal(t, c.deal)
		apply(t, st, c.moves)
		v := st.SeatView(game.Seat(st.turn))
		if got := mustDecode(Decide(Shef, v, 1)).String(); got != c.want {
			t.Errorf("shef on %q after %q: %s, want %s", c.deal, c.moves, got, c.want)
		}
	}
}

// Shef's decisions are pinned: a hash of them over seeded games, taken
// when the search last changed its choices on purpose.
func TestShefDecisionsPinned(t *testing.T) {
	var hsh uint64 = 1
	n := 0
	for g := 0; g < 8; g++ {
		st, _ := New(Config{Players: 2 + g%5, AutoAnnounce: g%4 == 3, Seed: uint64(g) + 100})
		for i := 0; !st.Over(); i++ {
			s := game.Seat(st.turn)
			v := st.SeatView(s)
			a := DecideBudget(Shef, v, uint64(i)*13+uint64(g), Budget{Playouts: 600})
			hsh = hsh*1000003 + uint64(a)
			n++
			if err := st.Apply(s, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d decisions, hash %x", n, hsh)
	if hsh != 0x2a0d6c606cbc0341 {
		t.Fatalf("decision hash %x, want 2a0d6c606cbc0341", hsh)
	}
}
