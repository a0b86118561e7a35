// Package hinttest checks a game's hints (adapter.HintGame) the way the
// platform asks for them: over many seeded positions of random play, every
// hint is one of the seat's legal moves, it is the very move the game's top
// robot level makes there (adapter.RobotGame.Auto with the same Decision), it
// leaves the state as it was, and its reason is one line of the catalog in
// every language. It is for tests only.
package hinttest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// Budget is the robots' time per decision in Check: long enough that the
// wall-clock cap never cuts a search short even under -race, so a search
// is decided by its count of playouts alone and Auto and Hint must agree.
const Budget = time.Minute

// position is a seat that may act in a game dealt and played at random.
type position struct {
	seed  uint64
	tab   *record.Table
	st    game.State
	seat  game.Seat
	d     adapter.Decision
	legal []game.Action
}

// positions calls f for every person who may act at positions of games
// dealt from seeds 1..n, each played randomly for a seeded number of
// moves, with the Decision the top level would get there.
func positions(t *testing.T, g adapter.Game, n int, f func(p position)) {
	t.Helper()
	rg, ok := g.(adapter.RobotGame)
	if !ok {
		t.Fatalf("%s has no robots to take hints from", g.ID())
	}
	levels := rg.Levels()
	top := levels[len(levels)-1]
	lo, hi := g.SeatRange()
	for p := 1; p <= n; p++ {
		seed := uint64(p)
		r := rand.New(rand.NewPCG(seed, 0x68696e74))
		tab, st := golden.Table(t, g, lo+r.IntN(hi-lo+1), 0, "", seed, nil)
		memory, err := bottest.RandomWalk(g, st, r, r.IntN(120))
		if err != nil {
			t.Fatal(err)
		}
		if st.Over() {
			continue
		}
		golden.Sync(t, tab, st)
		for _, s := range st.ToAct() {
			if legal := st.Legal(s); s != game.System && len(legal) > 0 {
				d := adapter.Decision{Level: top, Seed: r.Uint64(), Memory: memory, Budget: Budget}
				f(position{seed: seed, tab: tab, st: st, seat: s, d: d, legal: legal})
			}
		}
	}
}

// Check asks for hints at n positions and checks each. It returns how
// many hints it checked.
func Check(t *testing.T, g adapter.Game, n int) int {
	t.Helper()
	hg, ok := g.(adapter.HintGame)
	if !ok {
		t.Fatalf("%s gives no hints", g.ID())
	}
	rg, _ := g.(adapter.RobotGame)
	cat := bottest.Catalog(t)
	checked := 0
	positions(t, g, n, func(p position) {
		before, err := p.st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		want, acts := rg.Auto(p.st, p.seat, p.d)
		for _, lang := range cat.Langs() {
			h := hg.Hint(adapter.NewLoc(cat, lang), adapter.View(p.tab), p.st, int(p.seat), p.d)
			switch {
			case h.Action >= 0 && !slices.Contains(p.legal, h.Action):
				t.Errorf("seed %d, seat %d: hint %d is not legal (%v)", p.seed, p.seat, h.Action, p.legal)
			case acts && h.Action != want:
				t.Errorf("seed %d, seat %d: hint %d, but %s plays %d", p.seed, p.seat, h.Action, p.d.Level, want)
			}
			if h.Why == "" || strings.Contains(h.Why, "\n") || strings.Contains(h.Why, "{{") || strings.Contains(h.Why, g.ID()+".") {
				t.Errorf("seed %d, seat %d (%s): the reason is not one line of the catalog: %q", p.seed, p.seat, lang, h.Why)
			}
		}
		after, err := p.st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Fatalf("seed %d, seat %d: asking for a hint changed the state", p.seed, p.seat)
		}
		checked++
	})
	return checked
}

// Sample is the hints at n positions in every language, with the seat's
// hand as the platform draws it, for a golden file: how a hint reads.
func Sample(t *testing.T, g adapter.Game, n int) string {
	t.Helper()
	hg := g.(adapter.HintGame)
	cat := bottest.Catalog(t)
	b := golden.Views(t, g)
	var sb strings.Builder
	positions(t, g, n, func(p position) {
		if !p.tab.Seats[p.seat].Human() {
			return
		}
		for _, lang := range cat.Langs() {
			p.tab.Lang = lang
			m, err := b.Seat(p.tab, int(p.seat))
			if err != nil {
				t.Fatal(err)
			}
			h := hg.Hint(adapter.NewLoc(cat, lang), adapter.View(p.tab), p.st, int(p.seat), p.d)
			fmt.Fprintf(&sb, "════ seed %d, %s (seat %d), %s\n%s\n──── hint\n%s\n\n", p.seed, p.tab.Seats[p.seat].Name, p.seat, lang, golden.Show(m), h.Why)
		}
		p.tab.Lang = "ru"
	})
	return sb.String()
}
