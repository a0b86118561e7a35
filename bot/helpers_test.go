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

// testGames are the games of the package's internal tests.
func testGames() []Game { return []Game{Trickchef(), Sausages(), Chef(), Chekharda()} }
