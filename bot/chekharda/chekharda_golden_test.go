package chekharda

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// chekhardaUntil applies random legal actions (the platform's too) until
// stop holds after one, and returns the state before that last action.
func chekhardaUntil(t *testing.T, g adapter.Game, tab *record.Table, st game.State, seed uint64, stop func(*ck.State) bool) (before game.State) {
	t.Helper()
	before = golden.PlayWhile(t, g, tab, st, rand.New(rand.NewPCG(seed, 11)), func(i int, st game.State) bool {
		return i == 0 || (i <= 100000 && !st.Over() && !stop(st.(*ck.State)))
	})
	if !stop(st.(*ck.State)) {
		t.Fatal("the state asked for never came")
	}
	return before
}

// stealsThisRound counts the steals of the current round in the log.
func stealsThisRound(st *ck.State) int {
	v := st.PublicView()
	n := 0
	for _, e := range v.Events {
		if e.Round == v.Round && e.Type == ck.EventSteal {
			n++
		}
	}
	return n
}

func TestGoldenChekharda(t *testing.T) {
	g := Game()
	t.Run("start", func(t *testing.T) {
		tab, _ := golden.Table(t, g, 6, 2, "shef", 41, nil)
		golden.Check(t, "chekharda_start", golden.Render(t, g, tab, nil))
	})
	t.Run("mid", func(t *testing.T) {
		// Six players deep in a round: sets everywhere, a log of chekhardaGrabs,
		// steal and add buttons.
		tab, st := golden.Table(t, g, 6, 1, "cook", 42, map[string]int{chekhardaOptTarget: 1, chekhardaOptPause: 1})
		chekhardaUntil(t, g, tab, st, 5, func(s *ck.State) bool {
			return s.Phase() == ck.PhasePlay && stealsThisRound(s) >= 4 && s.Seats() == 6 && len(s.Legal(0)) >= 3
		})
		// Three minutes in, Маша has made no move for 40 s: 💤.
		tab.Started = golden.Clock.Add(-3 * time.Minute)
		for i := range tab.Seats {
			tab.Seats[i].Acted = golden.Clock.Add(-5 * time.Second)
		}
		tab.Seats[2].Acted = golden.Clock.Add(-40 * time.Second)
		golden.Check(t, "chekharda_mid", golden.Render(t, g, tab, nil))
	})
	t.Run("variant", func(t *testing.T) {
		// «Хотите большего?»: a seat that cannot steal or add has the draw.
		tab, st := golden.Table(t, g, 3, 0, "", 43, map[string]int{chekhardaOptVariant: 1})
		chekhardaUntil(t, g, tab, st, 6, func(s *ck.State) bool {
			return s.Phase() == ck.PhasePlay && stealsThisRound(s) >= 1 &&
				len(s.Legal(0)) == 1 && s.Legal(0)[0] == ck.DrawAction()
		})
		golden.Check(t, "chekharda_variant", golden.Render(t, g, tab, nil))
	})
	t.Run("round_over", func(t *testing.T) {
		tab, st := golden.Table(t, g, 4, 1, "novice", 44, nil)
		before := chekhardaUntil(t, g, tab, st, 7, func(s *ck.State) bool { return s.Phase() == ck.PhaseRoundEnd })
		golden.Check(t, "chekharda_round_over", golden.Render(t, g, tab, before))
	})
	t.Run("over", func(t *testing.T) {
		tab, st := golden.Table(t, g, 6, 0, "", 45, map[string]int{chekhardaOptTarget: 1})
		before := chekhardaUntil(t, g, tab, st, 8, func(s *ck.State) bool { return s.Over() })
		golden.Check(t, "chekharda_over", golden.Render(t, g, tab, before))
	})
}

// TestGoldenChekhardaExplain: what a refused player reads about who was
// faster, in every language (the positions of TestChekhardaExplain).
func TestGoldenChekhardaExplain(t *testing.T) {
	g := Game().(chekhardaGame)
	cat := bottest.Catalog(t)
	cases := []struct {
		name, deal string
		before     []string // "seat move" applied first
		seat       game.Seat
		move       string
	}{
		{"beaten", "C / PPP | PT | PM", []string{"1 steal:P@0"}, 2, "steal:P@0"},
		{"gone", "C / TT | PT | PM", nil, 2, "steal:P@0"},
		{"own_stolen", "CP / PPP | PT | M", []string{"1 steal:P@0"}, 0, "add:P"},
		{"played", "CP / PPP | T | M", []string{"0 add:P"}, 0, "add:P"},
		{"paired", "CJ / TTT | PM | A ; deck P Z C", []string{"-1 deal"}, 1, "steal:P@2"},
	}
	var sb strings.Builder
	for _, c := range cases {
		tab, st := chekhardaDeal(t, c.deal)
		for _, b := range c.before {
			seat, m, _ := strings.Cut(b, " ")
			s, err := strconv.Atoi(seat)
			if err != nil {
				t.Fatal(err)
			}
			mustApply(t, st, game.Seat(s), m)
		}
		mv, err := ck.ParseMove(c.move)
		if err != nil {
			t.Fatal(err)
		}
		code := game.CodeOf(st.Clone().Apply(c.seat, mv.Action()))
		fmt.Fprintf(&sb, "════════ %s: %s by %s\n", c.name, c.move, tab.Seats[c.seat].Name)
		for _, lang := range cat.Langs() {
			text, ok := g.Explain(adapter.NewLoc(cat, lang), adapter.View(tab), st, int(c.seat), mv.Action(), code)
			if !ok {
				t.Fatalf("%s: no explanation", c.name)
			}
			fmt.Fprintf(&sb, "──── %s\n%s\n", lang, text)
		}
	}
	golden.Check(t, "chekharda_explain", sb.String())
}
