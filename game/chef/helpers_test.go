package chef

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// deal builds a position from deal notation (see ParseDeal).
func deal(t testing.TB, spec string) *State {
	t.Helper()
	st, err := ParseDeal(spec)
	if err != nil {
		t.Fatalf("deal %q: %v", spec, err)
	}
	return st
}

// apply plays moves in notation for the seat to act; a move may be
// prefixed with "seat=" to act for another seat.
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
		mustValid(t, st)
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

// expectErr applies an illegal move and checks its code and that the
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
	if slices.Contains(st.Legal(seat), a) {
		t.Fatalf("refused action %d is in Legal", a)
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
	back, err := Unmarshal(mustMarshal(t, st))
	if err != nil {
		t.Fatal(err)
	}
	if *back != *st {
		t.Fatal("round trip differs")
	}
}

func mustDecode(a game.Action) Move {
	m, ok := DecodeAction(a)
	if !ok {
		panic("bad action " + strconv.Itoa(int(a)))
	}
	return m
}

// moves renders actions in notation.
func moves(as []game.Action) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = mustDecode(a).String()
	}
	return strings.Join(parts, " ")
}

// summary renders a position as tokens: per seat "i:cards"; "ann:..."
// and "skip:..." (seats, "-" if none); "top:c", "disc:n", "pile:n",
// "step:s", "drawn:c", "turn:s" (or "winners:..." and "closed" once
// over), "dir:cw|ccw", "rebuilds:n", "removed:cards".
func summary(st *State) []string {
	p := st.PublicView()
	var out []string
	var ann, skip []string
	for i, s := range p.Seats {
		out = append(out, strconv.Itoa(i)+":"+FormatCounts(s.Cards))
		if s.Announced {
			ann = append(ann, strconv.Itoa(i))
		}
		if s.Skipped {
			skip = append(skip, strconv.Itoa(i))
		}
	}
	list := func(l []string) string {
		if len(l) == 0 {
			return "-"
		}
		return strings.Join(l, ",")
	}
	out = append(out, "ann:"+list(ann), "skip:"+list(skip), "top:"+p.DiscardTop.String(),
		"disc:"+strconv.Itoa(len(p.Discard)), "pile:"+strconv.Itoa(p.Pile), "step:"+p.Step.String(),
		"drawn:"+p.Drawn.String(), "rebuilds:"+strconv.Itoa(p.Rebuilds), "removed:"+FormatCounts(p.Removed))
	if p.Clockwise {
		out = append(out, "dir:cw")
	} else {
		out = append(out, "dir:ccw")
	}
	if st.Over() {
		var w []string
		for _, s := range p.Winners {
			w = append(w, strconv.Itoa(int(s)))
		}
		out = append(out, "winners:"+list(w))
		if p.Closed {
			out = append(out, "closed")
		}
	} else {
		out = append(out, "turn:"+strconv.Itoa(int(p.Turn)))
	}
	return out
}

// expectSummary checks that every token of want is in summary(st).
func expectSummary(t testing.TB, st *State, want string) {
	t.Helper()
	got := summary(st)
	for _, w := range strings.Fields(want) {
		if !slices.Contains(got, w) {
			t.Fatalf("want %s in\n%s", w, strings.Join(got, " "))
		}
	}
}

// lastEvents returns the kinds of the last k events in notation-ish form:
// "kind:seat:card".
func lastEvents(st *State, k int) []Event {
	ev := st.PublicView().Events
	return ev[max(0, len(ev)-k):]
}
