package bot

import (
	"testing"

	"github.com/trickchef/trickchef/locales"
)

// testCatalog loads the real message catalogs.
func testCatalog(t testing.TB) *locales.Catalog {
	t.Helper()
	c, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// realGames are the real games for the package's internal tests (results
// of every game). Package bot cannot import its adapters, which import it,
// so the external test package hands them in through SetTestGames from
// its TestMain, before any test runs.
var realGames func() []Game

// SetTestGames hands the real games to the internal tests (see realGames).
func SetTestGames(games func() []Game) { realGames = games }

// testGames are the games of the package's internal tests, in menu order.
func testGames() []Game { return realGames() }

// testGame is the real game with the given id.
func testGame(t testing.TB, id string) Game {
	t.Helper()
	for _, g := range testGames() {
		if g.ID() == id {
			return g
		}
	}
	t.Fatalf("no game %q", id)
	return nil
}
