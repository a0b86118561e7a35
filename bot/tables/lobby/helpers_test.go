package lobby

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/cmd/games"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/locales"
)

// testViews are the views the tables are drawn with: the real games in
// menu order and the real catalog, the clock stopped at golden.Clock.
func testViews(t testing.TB) *view.Renderer {
	t.Helper()
	log := zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)
	return view.New(view.Config{Username: "trickchefbot", TurnTimeout: time.Minute, DefaultLang: locales.Default},
		view.Games(games.All()), golden.Catalog(t), func() time.Time { return golden.Clock }, log)
}
