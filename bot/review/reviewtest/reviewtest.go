// Package reviewtest checks a game's review (adapter.ReviewGame) the way
// «🔍 Разбор» asks for it: over many seeded positions every judgement has
// its loss and its random move's loss in [0, 1] and a legal Best, leaves
// the state as it was, costs nothing for its own Best, repeats for the
// same inputs, and reads as catalog lines in every language; and whole
// games reviewed by package review give a report that survives its stored
// form. It is for tests only.
package reviewtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/game"
)

// position is a seat with a choice in a game dealt and played at random.
type position struct {
	seed  uint64
	tab   *record.Table
	st    game.State
	seat  game.Seat
	d     adapter.Decision
	legal []game.Action
	r     *rand.Rand
}

// positions calls f for every seat with more than one legal move at
// positions of games dealt from seeds 1..n, each played randomly for a
// seeded number of moves, with the Decision the top level would get there
// (playouts as given).
func positions(t *testing.T, g adapter.Game, n, playouts int, f func(p position)) {
	t.Helper()
	levels := adapter.Levels(g)
	top := levels[len(levels)-1]
	lo, hi := g.SeatRange()
	for p := 1; p <= n; p++ {
		seed := uint64(p)
		r := rand.New(rand.NewPCG(seed, 0x72657669))
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
			if legal := st.Legal(s); s != game.System && len(legal) > 1 {
				d := adapter.Decision{Level: top, Seed: r.Uint64(), Memory: memory, Playouts: playouts}
				f(position{seed: seed, tab: tab, st: st, seat: s, d: d, legal: legal, r: r})
			}
		}
	}
}

// Check judges a random legal move and the top level's own move at n
// positions and checks each judgement; it returns how many moves it
// judged that the top level would not make.
func Check(t *testing.T, g adapter.Game, n, playouts int) int {
	t.Helper()
	rg, ok := g.(adapter.ReviewGame)
	if !ok || !adapter.Reviewable(g) {
		t.Fatalf("%s does not review", g.ID())
	}
	robots := g.(adapter.RobotGame)
	cat := bottest.Catalog(t)
	other := 0
	positions(t, g, n, playouts, func(p position) {
		before, err := p.st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		own, _ := robots.Auto(p.st, p.seat, p.d)
		a := p.legal[p.r.IntN(len(p.legal))]
		for _, move := range []game.Action{own, a} {
			j := rg.Judge(p.st, p.seat, move, p.d)
			where := fmt.Sprintf("seed %d, seat %d, move %d", p.seed, p.seat, move)
			switch {
			case j.Action != move:
				t.Errorf("%s: judged %d", where, j.Action)
			case !slices.Contains(p.legal, j.Best):
				t.Errorf("%s: best %d is not legal (%v)", where, j.Best, p.legal)
			case j.Loss < 0 || j.Loss > 1 || j.Random < 0 || j.Random > 1:
				t.Errorf("%s: loss %v, a random move's %v", where, j.Loss, j.Random)
			case j.Moot != (j.Random == 0):
				t.Errorf("%s: moot %v, a random move's loss %v", where, j.Moot, j.Random)
			case j.Moot && j.Loss != 0:
				t.Errorf("%s: a moot decision costs %v", where, j.Loss)
			}
			if again := rg.Judge(p.st, p.seat, move, p.d); again.Loss != j.Loss || again.Best != j.Best || again.Random != j.Random {
				t.Errorf("%s: judged %v, then %v", where, j, again)
			}
			if best := rg.Judge(p.st, p.seat, j.Best, p.d); best.Loss != 0 || best.Best != j.Best || best.Random != j.Random {
				t.Errorf("%s: the judge's own move %d judged %v", where, j.Best, best)
			}
			for _, lang := range cat.Langs() {
				checkText(t, g, where+" ("+lang+")", rg.Describe(adapter.NewLoc(cat, lang), adapter.View(p.tab), p.st, p.seat, j))
			}
			if move != own {
				other++
			}
		}
		after, err := p.st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Fatalf("seed %d, seat %d: judging changed the state", p.seed, p.seat)
		}
	})
	return other
}

// checkText fails on a Judged that is not the catalog's words: a field
// empty or unrendered, more than a line where one is meant (the moment
// may take three: when, the hand, what was drawn).
func checkText(t *testing.T, g adapter.Game, where string, j adapter.Judged) {
	t.Helper()
	for _, f := range []struct {
		name, text string
		lines      int
	}{{"moment", j.Moment, 3}, {"played", j.Played, 1}, {"best", j.Best, 1}, {"cost", j.Cost, 1}} {
		if f.text == "" || strings.Contains(f.text, "{{") || strings.Contains(f.text, g.ID()+".") ||
			strings.Contains(f.text, "review.") || strings.Count(f.text, "\n") >= f.lines {
			t.Errorf("%s: %s is not the catalog's words: %q", where, f.name, f.text)
		}
	}
}

// Play plays one game of g from seed with robots at every seat: seat 0 at
// level (playing "itself": its moves are in the log as its own, not the
// bot's), the others at the levels others lists in turn, every decision
// with the seed and memory the bot would give it and the given playouts.
// It returns the finished table record.
func Play(t testing.TB, g adapter.Game, seats int, seed uint64, level string, others []string, playouts int) *record.Table {
	t.Helper()
	robots := g.(adapter.RobotGame)
	tab, st := golden.Table(t, g, seats, 0, "", seed, nil)
	for i := 1; i < seats; i++ {
		tab.Seats[i] = record.Seat{Name: fmt.Sprint("Робот ", i), AI: others[(i-1)%len(others)]}
	}
	mg, remembers := g.(adapter.MemoryGame)
	var memory []byte
	if remembers {
		memory = mg.Observe(nil, st)
	}
	for steps := 0; !st.Over(); steps++ {
		if steps > 10000 {
			t.Fatalf("seed %d: the game does not end", seed)
		}
		s := st.ToAct()[0]
		legal := st.Legal(s)
		a := legal[0]
		if s != game.System {
			lv := level
			if int(s) != 0 {
				lv = tab.Seats[s].AI
			}
			d := adapter.Decision{Level: lv, Seed: record.DecisionSeed(tab.Seed, len(tab.Log)), Memory: memory, Playouts: playouts}
			if choice, ok := robots.Auto(st, s, d); ok {
				a = choice
			}
		}
		if err := st.Apply(s, a); err != nil {
			t.Fatal(err)
		}
		tab.Log = append(tab.Log, record.Move{Seat: s, Action: a, Auto: int(s) != 0})
		if remembers {
			memory = mg.Observe(memory, st)
		}
	}
	golden.Sync(t, tab, st)
	return tab
}

// CheckReviews reviews seat 0 of games played by each level against the
// middle level and checks the reports: every report has decisions, an
// accuracy in 0–100, no more inaccuracies, mistakes and blunders than
// decisions, at most review.Moments moments, costliest first, each costing
// something, and the same report after its stored form. It returns the
// accuracy per level, easiest first.
func CheckReviews(t *testing.T, g adapter.Game, games, playouts int) []float64 {
	t.Helper()
	cat := bottest.Catalog(t)
	l := adapter.NewLoc(cat, "ru")
	levels := adapter.Levels(g)
	lo, hi := g.SeatRange()
	acc := make([]float64, len(levels))
	for i, lv := range levels {
		for k := range games {
			seed := uint64(100*i + k + 1)
			tab := Play(t, g, lo+k%(hi-lo+1), seed, lv, []string{levels[len(levels)/2]}, playouts)
			r, err := review.Review(g, tab, 0, l, review.Options{Playouts: playouts})
			if err != nil {
				t.Fatal(err)
			}
			where := fmt.Sprintf("%s seed %d", lv, seed)
			switch {
			case r.Judged == 0:
				t.Errorf("%s: nothing judged", where)
			case r.Accuracy < 0 || r.Accuracy > 100:
				t.Errorf("%s: accuracy %v", where, r.Accuracy)
			case r.Inaccuracies+r.Mistakes+r.Blunders > min(r.Judged, len(r.Costs)):
				t.Errorf("%s: %d inaccuracies, %d mistakes, %d blunders of %d decisions", where, r.Inaccuracies, r.Mistakes, r.Blunders, r.Judged)
			case len(r.Moments) > review.Moments:
				t.Errorf("%s: %d moments", where, len(r.Moments))
			}
			for m := range r.Moments {
				if r.Moments[m].Loss <= 0 || m > 0 && r.Moments[m].Loss > r.Moments[m-1].Loss {
					t.Errorf("%s: moments not costliest first: %v", where, r)
				}
				checkText(t, g, where, r.Moments[m].Judged)
			}
			data, err := r.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var back review.Report
			if err := back.UnmarshalBinary(data); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if back.Message(l).Text != r.Message(l).Text || back.Blunders != r.Blunders || back.Mistakes != r.Mistakes || back.Inaccuracies != r.Inaccuracies {
				t.Errorf("%s: the stored report reads\n%s\nnot\n%s", where, back.Message(l).Text, r.Message(l).Text)
			}
			acc[i] += r.Accuracy / float64(games)
		}
	}
	return acc
}

// Sample is the review of seat 0 in one game per level below the top,
// in every language, as the person's message reads: for a golden file.
// Each is the first game, from seed 7 on, whose review tells a moment.
func Sample(t *testing.T, g adapter.Game, playouts int) string {
	t.Helper()
	cat := bottest.Catalog(t)
	levels := adapter.Levels(g)
	lo, _ := g.SeatRange()
	var sb strings.Builder
	for _, lv := range levels[:len(levels)-1] {
		var tab *record.Table
		for seed := uint64(7); ; seed++ {
			if seed > 300 {
				t.Fatalf("%s: no review of %s tells a moment", g.ID(), lv)
			}
			tab = Play(t, g, max(lo, 3), seed, lv, []string{levels[len(levels)-1]}, playouts)
			r, err := review.Review(g, tab, 0, adapter.NewLoc(cat, "ru"), review.Options{Playouts: playouts})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Moments) > 0 {
				break
			}
		}
		for _, lang := range cat.Langs() {
			l := adapter.NewLoc(cat, lang)
			r, err := review.Review(g, tab, 0, l, review.Options{Playouts: playouts})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sb, "════ %s at seat 0, seed %d, %s\n%s\n\n", lv, tab.Seed, lang, r.Message(l).Text)
		}
	}
	return sb.String()
}

// CheckOpenScene draws the replay's scene (adapter.ReplayGame) at n
// seeded positions of random play, the table as it was played, and checks
// it shows every seat's cards face up and offers nothing: no hand, no
// choice, no prompt, no card to press, no card face down in front of a
// seat, at least the cards the spectator sees there; the state is left as
// it was. count, if given, is how many cards each seat must show in the
// open scene of st. It returns the open scene of the first position of a
// game still going as JSON, for a golden file.
func CheckOpenScene(t *testing.T, g adapter.Game, n int, count func(st game.State, seat int) int) string {
	t.Helper()
	rg, ok := g.(adapter.ReplayGame)
	wg, web := g.(adapter.WebGame)
	if !ok || !web {
		t.Fatalf("%s replays nothing", g.ID())
	}
	cat := bottest.Catalog(t)
	lo, hi := g.SeatRange()
	last := ""
	for p := 1; p <= n; p++ {
		seed := uint64(p)
		r := rand.New(rand.NewPCG(seed, 0x6f70656e))
		tab, st := golden.Table(t, g, lo+r.IntN(hi-lo+1), 0, "", seed, nil)
		if _, err := bottest.RandomWalk(g, st, r, r.IntN(200)); err != nil {
			t.Fatal(err)
		}
		golden.Sync(t, tab, st)
		tab.Phase = record.PhasePlaying // the replay draws every state as the game was played
		before, err := st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range cat.Langs() {
			l := adapter.NewLoc(cat, lang)
			open := rg.OpenScene(l, adapter.View(tab), st)
			spectator := wg.Scene(l, adapter.View(tab), st, adapter.Spectator)
			where := fmt.Sprintf("seed %d (%s)", seed, lang)
			if len(open.Hand) > 0 || len(open.Choices) > 0 || open.Prompt != "" || len(open.Seats) != len(tab.Seats) {
				t.Fatalf("%s: the open scene offers a hand or choices:\n%s", where, golden.SceneJSON(t, open))
			}
			for i, s := range open.Seats {
				up := 0
				for _, c := range spectator.Seats[i].Cards {
					if !c.Back {
						up++
					}
				}
				if len(s.Cards) < up || count != nil && len(s.Cards) != count(st, i) {
					t.Fatalf("%s: seat %d shows %d cards face up, the spectator %d:\n%s", where, i, len(s.Cards), up, golden.SceneJSON(t, open))
				}
				for _, c := range s.Cards {
					if c.Back || c.Act != "" {
						t.Fatalf("%s: seat %d shows a card face down or to press:\n%s", where, i, golden.SceneJSON(t, open))
					}
				}
			}
			for _, pile := range open.Center {
				for _, c := range pile.Cards {
					if c.Act != "" {
						t.Fatalf("%s: a card to press in the middle:\n%s", where, golden.SceneJSON(t, open))
					}
				}
			}
			if lang == "ru" && last == "" && !st.Over() {
				last = golden.SceneJSON(t, open)
			}
		}
		after, err := st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Fatalf("seed %d: drawing the open scene changed the state", seed)
		}
	}
	return last
}
