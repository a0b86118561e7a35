package chekharda

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// deal builds round 1 from a table in notation (see notation.go), dealer 0,
// target 77, no variant.
func deal(t testing.TB, table string) *State {
	t.Helper()
	return dealCfg(t, Config{Players: strings.Count(table, "|") + 1}, table)
}

func dealCfg(t testing.TB, cfg Config, table string) *State {
	t.Helper()
	if cfg.Players == 0 {
		cfg.Players = strings.Count(strings.SplitN(table, ";", 2)[0], "|") + 1
	}
	st, err := NewFromDeal(cfg, table)
	if err != nil {
		t.Fatalf("deal %q: %v", table, err)
	}
	checkCards(t, st)
	return st
}

// apply plays moves in notation, each prefixed with its actor: "1=steal:P@2",
// "0=add:M", "sys=deal", "sys=next".
func apply(t testing.TB, st *State, moves string) {
	t.Helper()
	for _, f := range strings.Fields(moves) {
		s, m := parseStep(t, f)
		if err := st.Apply(s, m.Action()); err != nil {
			t.Fatalf("%s: %v\n%s", f, err, st.Notation())
		}
		checkCards(t, st)
		mustValid(t, st)
	}
}

func parseStep(t testing.TB, f string) (game.Seat, Move) {
	t.Helper()
	who, mv, ok := strings.Cut(f, "=")
	if !ok {
		t.Fatalf("step %q: want seat=move", f)
	}
	s := game.System
	if who != "sys" {
		n, err := strconv.Atoi(who)
		if err != nil {
			t.Fatalf("step %q", f)
		}
		s = game.Seat(n)
	}
	m, err := ParseMove(mv)
	if err != nil {
		t.Fatal(err)
	}
	return s, m
}

// expectErr applies an illegal action and checks its code and that the
// state is byte-for-byte unchanged.
func expectErr(t testing.TB, st *State, s game.Seat, a game.Action, code game.Code) {
	t.Helper()
	before := mustMarshal(t, st)
	err := st.Apply(s, a)
	var re *game.RuleError
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("Apply(%d, %d) = %v, want code %s", s, a, err, code)
	}
	if !bytes.Equal(before, mustMarshal(t, st)) {
		t.Fatalf("state changed by illegal action %d", a)
	}
}

// expectStep is expectErr in notation: "1=steal:P@2".
func expectStep(t testing.TB, st *State, step string, code game.Code) {
	t.Helper()
	s, m := parseStep(t, step)
	expectErr(t, st, s, m.Action(), code)
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
		t.Fatalf("%v\n%s", err, st.Notation())
	}
	back, err := Unmarshal(mustMarshal(t, st))
	if err != nil {
		t.Fatal(err)
	}
	if *back != *st {
		t.Fatal("round trip changed the state")
	}
}

// checkCards is the invariant: all 72 cards accounted for, 6 of each kind,
// in the deck, the hands and the sets (nothing is ever out of play).
func checkCards(t testing.TB, st *State) {
	t.Helper()
	var count [kindSlots]int
	total := int(st.deckN)
	for i := 0; i < int(st.deckN); i++ {
		count[st.deck[i]]++
	}
	for i := 0; i < st.Seats(); i++ {
		p := &st.seats[i]
		total += p.handCards() + p.setCards()
		for k := 1; k < kindSlots; k++ {
			count[k] += int(p.hand[k]) + int(p.set[k])
			if p.hand[k] > 1 {
				t.Fatalf("seat %d holds %d of %s", i, p.hand[k], Kind(k))
			}
		}
	}
	if total != NumCards {
		t.Fatalf("%d cards on the table, want %d\n%s", total, NumCards, st.Notation())
	}
	for k := 1; k < kindSlots; k++ {
		if count[k] != CopiesPerKind {
			t.Fatalf("%d cards of %s, want %d", count[k], Kind(k), CopiesPerKind)
		}
	}
}

func seats(s ...game.Seat) []game.Seat { return s }

func acts(as ...game.Action) []game.Action { return as }

// lastEvent is the newest event of the public log.
func lastEvent(st *State) Event {
	ev := st.PublicView().Events
	return ev[len(ev)-1]
}

// eventsSince returns the events with Seq > seq.
func eventsSince(st *State, seq int) []Event {
	var out []Event
	for _, e := range st.PublicView().Events {
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	return out
}

// setTotals gives the seats game totals as if round-1 rounds were over and
// round were being played (the dealer stays; the first dealer is moved
// back accordingly).
func setTotals(st *State, round int, totals ...int) {
	n := st.Seats()
	st.round = uint16(round)
	st.dealer0 = uint8(((int(st.dealer)-round+1)%n + n) % n)
	for i, tt := range totals {
		st.seats[i].total = uint16(tt)
	}
	for i := range st.log[:st.nLog] {
		st.log[i].round = uint16(round)
	}
}

func sameSeats(a, b []game.Seat) bool { return slices.Equal(a, b) }
