// Package contract checks every game the bot offers the same way, so a new
// game is covered by adding it to the list: it keeps to the adapter
// contract (its package imports the contract, its engine and package game,
// never the runtime), its hints and reviews hold what the platform relies
// on, a stopped game's scene says so, a reveal deals the same game and tells
// its deals, and each reads as its golden files in
// the game's own folder say. The list comes from the caller (the bot's
// games are wired in only from cmd/), so the shared machinery never names a
// game. It is for tests only.
package contract

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/bottest/hinttest"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
)

const module = "github.com/trickchef/trickchef/"

// Positions and playouts keep the checks quick; they hold for any number.
const (
	hintPositions  = 150
	reviewMoves    = 40
	reviewGames    = 2
	reviewPlayouts = 60
)

// Run checks every game of games, each in a subtest named by its id.
func Run(t *testing.T, games []adapter.Game) {
	if len(games) == 0 {
		t.Fatal("no games")
	}
	root := moduleRoot(t)
	for _, g := range games {
		t.Run(g.ID(), func(t *testing.T) {
			t.Parallel()
			dir := packageDir(t, root, g)
			t.Run("imports", func(t *testing.T) { checkImports(t, dir) })
			t.Run("stopped", func(t *testing.T) { checkStopped(t, g) })
			if _, ok := g.(adapter.HintGame); ok {
				t.Run("hints", func(t *testing.T) { checkHints(t, g, dir) })
			}
			if adapter.Reviewable(g) {
				t.Run("reviews", func(t *testing.T) { checkReviews(t, g, dir) })
			}
			if _, ok := g.(adapter.DealGame); ok {
				t.Run("deals", func(t *testing.T) { checkDeals(t, g, dir) })
			}
		})
	}
}

// checkImports: an adapter imports the contract, never the runtime.
func checkImports(t *testing.T, dir string) {
	ims := Imports(t, dir)
	if !slices.Contains(ims, module+"bot/adapter") {
		t.Errorf("%s does not import bot/adapter", dir)
	}
	for _, p := range ims {
		if p == module+"bot" || p == module+"store" || strings.HasPrefix(p, module+"bot/") && p != module+"bot/adapter" && !strings.HasPrefix(p, module+"bot/internal/") {
			t.Errorf("adapter %s imports %s: an adapter uses only the contract (bot/adapter), its engine and package game", dir, p)
		}
	}
}

// checkStopped: a stopped game's scene says so and offers no press.
func checkStopped(t *testing.T, g adapter.Game) {
	tab, st := golden.Table(t, g, 3, 0, "", 5, nil)
	golden.PlayRandom(t, g, tab, st, 20, 5)
	golden.CheckStoppedScene(t, g, adapter.NewLoc(bottest.Catalog(t), "ru"), tab, st)
}

// checkHints: over many seeded positions every hint is a legal move and
// «Профи»'s own choice there, with a one-line reason in every language;
// the golden file pins how hints read, next to the hand they advise on.
func checkHints(t *testing.T, g adapter.Game, dir string) {
	if n := hinttest.Check(t, g, hintPositions); n < hintPositions/2 {
		t.Fatalf("only %d hints checked", n)
	}
	golden.CheckAt(t, dir, "hints", hinttest.Sample(t, g, 8))
}

// checkReviews: over seeded positions every judgement is in range, names
// a legal best move, costs nothing for that move and reads as catalog
// lines; whole games reviewed give reports that survive their stored
// form; the golden file pins how a review reads in the person's private
// chat.
func checkReviews(t *testing.T, g adapter.Game, dir string) {
	if n := reviewtest.Check(t, g, reviewMoves, reviewPlayouts); n < 15 {
		t.Fatalf("only %d moves other than «Профи»'s judged", n)
	}
	acc := reviewtest.CheckReviews(t, g, reviewGames, reviewPlayouts)
	t.Logf("accuracy by level: %.1f", acc)
	golden.CheckAt(t, dir, "review", reviewtest.Sample(t, g, reviewPlayouts))
}

// packageDir is the folder of the package that defines g.
func packageDir(t *testing.T, root string, g adapter.Game) string {
	p := reflect.TypeOf(g).PkgPath()
	rel, ok := strings.CutPrefix(p, module)
	if !ok {
		t.Fatalf("%s is defined outside the module (%s)", g.ID(), p)
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}

// moduleRoot is the folder of go.mod, above the test's own.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = up
	}
}

// Imports lists what the non-test Go files of dir import.
func Imports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range file.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}
