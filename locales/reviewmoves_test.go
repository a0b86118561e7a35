package locales_test

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/locales"
)

// A review («🔍 Разбор») names moves — the person's («Ваш ход: ставка
// 3.») and the top level's («Ход Профи — «ставка 4»: …») — through the
// games' <game>.review.* texts, each move as their {{.Move}}. Those names
// must pass what a move's name passes everywhere else
// (TestMovesAreNounPhrases): a noun phrase, not a button's infinitive
// («Открыть: Робот 1», which also doubles the colon of «Ваш ход: …»), a
// bare number or a raw code; and the lines around them keep the card
// names declined and the games' names apart.

// movesSeen is a Translator that passes every call to the catalog and
// keeps each {{.Move}} a review text is rendered with.
type movesSeen struct {
	adapter.Translator
	mu    sync.Mutex
	moves map[[2]string][]string // language and move → the keys it was named in
}

func (m *movesSeen) T(lang, key string, args ...any) string {
	if strings.Contains(key, ".review.") {
		for i := 0; i+1 < len(args); i += 2 {
			if args[i] == "Move" {
				m.mu.Lock()
				mv := [2]string{lang, fmt.Sprint(args[i+1])}
				m.moves[mv] = append(m.moves[mv], key)
				m.mu.Unlock()
			}
		}
	}
	return m.Translator.T(lang, key, args...)
}

var (
	rawKeyRE     = regexp.MustCompile(`(?:^|[^\p{L}.])[a-z_]+\.[a-z_.]+`)
	labelColonRE = regexp.MustCompile(`^\P{L}*\p{L}+: `)
)

// reviewMoveProblem says why a move a review names in lang is not a
// move's name, or "". (Whether it is a noun phrase is told in Russian
// only, by its words' endings.)
func reviewMoveProblem(lang, move string) string {
	switch {
	case strings.Contains(move, "{{") || strings.Contains(move, "<no value>") || rawKeyRE.MatchString(move):
		return "a raw code"
	case labelColonRE.MatchString(move):
		return "a label with its colon, like a button's «Открыть: …»"
	case lang == locales.Russian:
		return locales.MoveNameProblem(move)
	}
	return ""
}

func TestReviewMoveNameCheckCatches(t *testing.T) {
	for _, bad := range []string{"Открыть: Робот 1", "sausages.move.bid", "3", "{{.Card}}", "Ход: 🟨9"} {
		if reviewMoveProblem(locales.Russian, bad) == "" {
			t.Errorf("not caught: %q", bad)
		}
	}
	for _, good := range []string{"ставка 3", "🥗 Диета → Катя: −🍝", "⚡ кража 🐷×3 ← Оля", "карта 🟨9", "верхняя карта (Робот 1)"} {
		if p := reviewMoveProblem(locales.Russian, good); p != "" {
			t.Errorf("false alarm on %q: %s", good, p)
		}
	}
}

// TestReviewMovesAreMoveNames plays whole games of every game that
// reviews, seat 0 at each level below the top against the middle one,
// seeded, and reviews seat 0 as «🔍 Разбор» does (review.Review), in every
// language; then it puts into words every decision of seat 0, not only
// the costliest the report keeps (the game's Describe of its Judge). Every
// move named in Russian passes reviewMoveProblem; every line keeps the
// card names in their case and the games' names apart.
func TestReviewMovesAreMoveNames(t *testing.T) {
	const playouts = 20
	cases := locales.CardCaseProblems(t)
	gameNames := locales.GameNameProblems(t)
	cat := bottest.Catalog(t)
	seen := &movesSeen{Translator: cat, moves: map[[2]string][]string{}}
	for _, g := range games.All() {
		rg, ok := g.(adapter.ReviewGame)
		if !ok || !adapter.Reviewable(g) {
			continue
		}
		levels := adapter.Levels(g)
		lo, hi := g.SeatRange()
		named := 0
		for i, lv := range levels[:len(levels)-1] {
			for k := range 2 {
				seed := uint64(31*i + k + 1)
				n := lo + (i+k)%(hi-lo+1)
				tab := reviewtest.Play(t, g, n, seed, lv, []string{levels[len(levels)/2]}, playouts)
				where := fmt.Sprintf("%s, %s, seed %d", g.ID(), lv, seed)
				check := func(what string, j adapter.Judged) {
					for _, line := range []string{j.Moment, j.Played, j.Best, j.Cost} {
						for _, p := range cases(line) {
							t.Errorf("%s, %s: a card name in the wrong case: %q", where, what, p)
						}
						for _, p := range gameNames(line) {
							t.Errorf("%s, %s: a game's name %s", where, what, p)
						}
					}
				}
				for _, lang := range cat.Langs() {
					r, err := review.Review(g, tab, 0, adapter.NewLoc(seen, lang), review.Options{Playouts: playouts})
					if err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					if lang == locales.Russian {
						for _, m := range r.Moments {
							check(fmt.Sprintf("the report's move %d", m.Move), m.Judged)
						}
					}
				}
				l := adapter.NewLoc(seen, locales.Russian)
				view := adapter.View(tab)
				err := review.Replay(g, tab, func(i int, st game.State, memory []byte) {
					m := tab.Log[i]
					if m.Seat != 0 || len(st.Legal(0)) < 2 {
						return
					}
					d := adapter.Decision{Level: levels[len(levels)-1], Seed: record.DecisionSeed(tab.Seed, i), Memory: memory, Playouts: playouts}
					check(fmt.Sprintf("move %d", i), rg.Describe(l, view, st, 0, rg.Judge(st, 0, m.Action, d)))
					named++
				})
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
			}
		}
		if named == 0 {
			t.Errorf("%s: no decision of seat 0 put into words", g.ID())
		}
	}
	if len(seen.moves) < 20 {
		t.Fatalf("only %d moves named by the reviews: do the games' review texts still take {{.Move}}?", len(seen.moves))
	}
	for _, g := range games.All() {
		if !adapter.Reviewable(g) {
			continue
		}
		named := false
		for _, keys := range seen.moves {
			named = named || strings.HasPrefix(keys[0], g.ID()+".review.")
		}
		if !named {
			t.Errorf("%s: its review named no move ({{.Move}} of %s.review.*)", g.ID(), g.ID())
		}
	}
	people := map[string]bool{}
	for _, n := range golden.Names {
		people[n] = true
	}
	for i := range 10 {
		people[fmt.Sprint("Робот ", i)] = true // reviewtest.Play's robots
	}
	for move, keys := range seen.moves {
		if people[move[1]] {
			t.Errorf("%s: a review names the move %q (%s): a bare name, say what they did", move[0], move[1], keys[0])
		}
		if p := reviewMoveProblem(move[0], move[1]); p != "" {
			t.Errorf("%s: a review names the move %q (%s): %s", move[0], move[1], keys[0], p)
		}
	}
}
