package sausages

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/game"
)

func newGame(t testing.TB, players int, first game.Seat) *State {
	t.Helper()
	st, err := New(Config{Players: players, First: first, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// apply plays moves in notation. A move may be prefixed with "seat=" to act
// for that seat; otherwise it acts for the first seat in ToAct (in setup,
// the lowest seat still to place).
func apply(t testing.TB, st *State, moves string) {
	t.Helper()
	for _, f := range strings.Fields(moves) {
		seat, mv := actor(t, st, f)
		m, err := ParseMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(seat, m.Action()); err != nil {
			t.Fatalf("seat %d %s: %v", seat, mv, err)
		}
	}
}

func actor(t testing.TB, st *State, f string) (game.Seat, string) {
	t.Helper()
	if s, mv, ok := strings.Cut(f, "="); ok {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("bad move %q", f)
		}
		return game.Seat(n), mv
	}
	to := st.ToAct()
	if len(to) == 0 {
		t.Fatalf("move %s after the game", f)
	}
	return to[0], f
}

// lay builds the round's stacks: one spec per seat, bottom to top ("SB"
// has the boot on top; "-" for a seat that is out). Setup places every
// first card in seat order; then cards are added clockwise from the
// round's first player until the seat to act has nothing more to add. It
// fails if a spec cannot be reached that way. The seat left to act must
// then open the bidding.
func lay(t testing.TB, st *State, stacks string) {
	t.Helper()
	specs := strings.Fields(stacks)
	if len(specs) != st.Seats() || st.phase != PhaseSetup {
		t.Fatalf("lay %q: %d seats, phase %s", stacks, st.Seats(), st.phase)
	}
	cards := make([][]Card, len(specs))
	for i, s := range specs {
		if s != "-" {
			c, err := ParseCards(s)
			if err != nil {
				t.Fatal(err)
			}
			cards[i] = c
		}
	}
	placed := make([]int, len(specs))
	for _, s := range st.ToAct() {
		if len(cards[s]) == 0 {
			t.Fatalf("lay: seat %d must place", s)
		}
		if err := st.Apply(s, PlaceAction(cards[s][0])); err != nil {
			t.Fatalf("lay: setup seat %d: %v", s, err)
		}
		placed[s] = 1
	}
	for st.phase == PhaseAdd {
		s := st.turn
		if placed[s] == len(cards[s]) {
			break
		}
		if err := st.Apply(game.Seat(s), PlaceAction(cards[s][placed[s]])); err != nil {
			t.Fatalf("lay: seat %d: %v", s, err)
		}
		placed[s]++
	}
	for i := range cards {
		if placed[i] != len(cards[i]) {
			t.Fatalf("lay %q: seat %d placed %d of %d", stacks, i, placed[i], len(cards[i]))
		}
	}
}

// expectErr applies an illegal action and checks its code and that the
// state is byte-for-byte unchanged.
func expectErr(t testing.TB, st *State, seat game.Seat, a game.Action, code game.Code) {
	t.Helper()
	before := mustMarshal(t, st)
	err := st.Apply(seat, a)
	var re *game.RuleError
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("Apply(%d, %d) = %v, want code %s", seat, a, err, code)
	}
	if !bytes.Equal(before, mustMarshal(t, st)) {
		t.Fatalf("state changed by illegal action %d", a)
	}
}

func mustMarshal(t testing.TB, st *State) []byte {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustValid(t testing.TB, st *State) {
	t.Helper()
	if err := st.validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := Unmarshal(mustMarshal(t, st)); err != nil {
		t.Fatal(err)
	}
}

// ownBootLoss plays one round in which loser challenges, turns over their
// own boot and loses a card of kind k: loser places the boot, everyone else
// a sausage (a boot if they have none); another first player opens at 1
// and loser raises; the others pass. If loser goes out on their own boot,
// they name the next seat still in clockwise.
func ownBootLoss(t testing.TB, st *State, loser game.Seat, k Card) {
	t.Helper()
	if st.phase != PhaseSetup {
		t.Fatalf("ownBootLoss in phase %s", st.phase)
	}
	for _, s := range st.ToAct() {
		c := Sausage
		if s == loser || st.seats[s].hs == 0 {
			c = Boot
		}
		if err := st.Apply(s, PlaceAction(c)); err != nil {
			t.Fatalf("setup seat %d: %v", s, err)
		}
	}
	for st.phase == PhaseAdd || st.phase == PhaseBid {
		s := game.Seat(st.turn)
		var a game.Action
		switch {
		case s == loser:
			a = BidAction(int(st.bid) + 1)
		case st.phase == PhaseAdd:
			a = BidAction(1)
		default:
			a = PassAction()
		}
		if err := st.Apply(s, a); err != nil {
			t.Fatalf("seat %d %s: %v", s, mustDecode(a), err)
		}
	}
	if st.phase != PhaseLose || st.turn != uint8(loser) {
		t.Fatalf("want seat %d to lose a card, phase %s", loser, st.phase)
	}
	if err := st.Apply(loser, LoseAction(k)); err != nil {
		t.Fatal(err)
	}
	if st.phase == PhaseName {
		if err := st.Apply(loser, NameAction(game.Seat(st.next(uint8(loser), false)))); err != nil {
			t.Fatal(err)
		}
	}
}

func mustDecode(a game.Action) Move {
	m, ok := Decode(a)
	if !ok {
		panic("bad action " + strconv.Itoa(int(a)))
	}
	return m
}

func seats(s ...game.Seat) []game.Seat { return s }

func moves(as []game.Action) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = mustDecode(a).String()
	}
	return strings.Join(parts, " ")
}
