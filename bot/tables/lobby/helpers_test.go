package lobby

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/chekharda"
	"github.com/trickchef/trickchef/bot/sausages"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/locales"
)

// testViews are the views the tables are drawn with: the real games in
// menu order and the real catalog, the clock stopped at golden.Clock.
func testViews(t testing.TB) *view.Renderer {
	t.Helper()
	log := zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)
	return view.New(view.Config{Username: "trickchefbot", TurnTimeout: time.Minute, DefaultLang: locales.Default},
		view.Games{trickchef.Game(), sausages.Game(), chef.Game(), chekharda.Game()}, golden.Catalog(t), func() time.Time { return golden.Clock }, log)
}
