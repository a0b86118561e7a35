package results

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/cmd/games"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/view"
)

// testGames are the real games, in menu order.
func testGames() view.Games {
	return view.Games(games.All())
}

// goldenResults renders as the golden files show the results: the real
// games and catalog, the clock stopped at golden.Clock, no store.
func goldenResults(t testing.TB) *Results {
	return New(Params{Games: testGames(), Translator: golden.Catalog(t), Log: zerolog.Nop(), Now: func() time.Time { return golden.Clock }})
}
