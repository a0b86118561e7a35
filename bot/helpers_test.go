package bot

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
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

// testBolt opens an embedded store in the test's temporary directory,
// closed when the test ends.
func testBolt(t testing.TB) *store.Bolt {
	t.Helper()
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "b.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Fixtures are what the package's internal tests borrow from the external
// test package, which may import what imports bot: the real games and
// bottest/golden's helpers (see golden there). Package bot itself never
// imports an adapter.
type Fixtures struct {
	Games      func() []adapter.Game
	Table      func(t testing.TB, g adapter.Game, n, robots int, level string, seed uint64, opts map[string]int) (*record.Table, game.State)
	PlayRandom func(t testing.TB, g adapter.Game, tab *record.Table, st game.State, n int, seed uint64) (before game.State)
	Show       func(m adapter.Message) string
	Check      func(t testing.TB, name, got string)
	Clock      time.Time
	Names      []string
}

// fixtures are set by the external package's TestMain before any test runs.
var fixtures Fixtures

// SetFixtures hands the internal tests their fixtures (see Fixtures).
func SetFixtures(f Fixtures) { fixtures = f }

// testGames are the real games, in menu order.
func testGames() []adapter.Game { return fixtures.Games() }

// testGame is the real game with the given id.
func testGame(t testing.TB, id string) adapter.Game {
	t.Helper()
	for _, g := range testGames() {
		if g.ID() == id {
			return g
		}
	}
	t.Fatalf("no game %q", id)
	return nil
}

// setClock sets the clock of a built bot and of its roles.
func (b *Bot) setClock(now func() time.Time) {
	b.now = now
	b.delivery.now = now
	b.ingestion.now = now
	b.results.now = now
	b.web.now = now
}
