package trickchef

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// buildDeal completes a deal from per-seat specs. Each spec lists cards the
// seat must hold and may contain "!X" to keep suit X out of the seat's
// hand. The remaining cards go, in suit-then-value order, to the first seat
// with room that does not refuse the suit.
func buildDeal(t testing.TB, players int, removed Suit, specs ...string) [][]Card {
	t.Helper()
	deck := deckOf(inPlay(players, removed))
	hands := make([][]Card, players)
	var void [4]SuitSet
	for i := 0; i < players; i++ {
		if i >= len(specs) {
			continue
		}
		for _, f := range strings.Fields(specs[i]) {
			if f[0] == '!' {
				j := strings.IndexByte(suitLetters, upper(f[1]))
				void[i] |= 1 << j
				continue
			}
			c, err := ParseCard(f)
			if err != nil {
				t.Fatal(err)
			}
			if !deck.has(c.index()) {
				t.Fatalf("card %s not in deck or repeated", c)
			}
			deck &^= 1 << c.index()
			hands[i] = append(hands[i], c)
		}
	}
	for _, c := range deck.cards() {
		placed := false
		for i := 0; i < players && !placed; i++ {
			if len(hands[i]) < HandSize && !void[i].Has(c.Suit) {
				hands[i] = append(hands[i], c)
				placed = true
			}
		}
		if !placed {
			t.Fatalf("cannot place %s", c)
		}
	}
	return hands
}

// newDeal starts a 4-player game (seat 0 first) from a deal built by
// buildDeal.
func newDeal(t testing.TB, cfg Config, specs ...string) *State {
	t.Helper()
	st, err := NewFromDeal(cfg, buildDeal(t, cfg.Players, cfg.Removed, specs...))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// apply plays moves in notation ("R7", "R7+2", "chef:B") for whoever is to
// act; "*" plays the first legal action without coins.
func apply(t testing.TB, st *State, moves string) {
	t.Helper()
	for _, f := range strings.Fields(moves) {
		seat, ok := st.Current()
		if !ok {
			t.Fatalf("move %s after the game", f)
		}
		var a game.Action
		if f == "*" {
			a = firstPlain(st, seat)
		} else {
			m, err := ParseMove(f)
			if err != nil {
				t.Fatal(err)
			}
			a = m.Action()
		}
		if err := st.Apply(seat, a); err != nil {
			t.Fatalf("seat %d %s: %v", seat, f, err)
		}
	}
}

// firstPlain is the first legal action that places no coins.
func firstPlain(st *State, seat game.Seat) game.Action {
	for _, a := range st.Legal(seat) {
		if m, _ := Decode(a); m.Coins == 0 {
			return a
		}
	}
	return -1
}

// expectErr applies an illegal action and checks its code and that the
// state is byte-for-byte unchanged.
func expectErr(t testing.TB, st *State, seat game.Seat, a game.Action, code game.Code) {
	t.Helper()
	before, _ := st.MarshalBinary()
	err := st.Apply(seat, a)
	var re *game.RuleError
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("Apply(%d, %d) = %v, want code %s", seat, a, err, code)
	}
	after, _ := st.MarshalBinary()
	if !bytes.Equal(before, after) {
		t.Fatalf("state changed by illegal action %d", a)
	}
}

func cards(t testing.TB, s string) []Card {
	t.Helper()
	c, err := ParseCards(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func seats(s ...game.Seat) []game.Seat { return s }

func eqSuits(a []Suit, b ...Suit) bool { return slices.Equal(a, b) }
