package deliver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/game"
)

// TestGoldenRepeatMark pins how an announcement sent again reads when an
// earlier copy may be in the chat already (a round's result whose first
// send Telegram did not answer), in every language (go test ./bot/...
// -run Golden -update; read the diff as a person in the group would).
func TestGoldenRepeatMark(t *testing.T) {
	cat := golden.Catalog(t)
	d := New(Params{Translator: cat, Now: clockAt(golden.Clock), Log: testLog(t)})
	g, _ := testGames().Get("trickchef")
	tab, st := golden.Table(t, g, 3, 0, "", 3, nil)
	var before game.State
	for i := 0; ; i++ {
		if st.Over() {
			t.Fatal("the game ended without a round's result")
		}
		before = golden.PlayRandom(t, g, tab, st, 1, uint64(i))
		if len(g.Announce(adapter.NewLoc(cat, "ru"), adapter.View(tab), before, st)) > 0 {
			break
		}
	}
	var sb strings.Builder
	for _, lang := range cat.Langs() {
		tab.Lang = lang
		for _, m := range g.Announce(adapter.NewLoc(cat, lang), adapter.View(tab), before, st) {
			e := d.markRepeat(tab, outbox.Entry{ChatID: tab.ChatID, Message: m})
			fmt.Fprintf(&sb, "════ %s: a round's result, sent again\n%s\n", lang, golden.Show(e.Message))
		}
	}
	golden.Check(t, "repeat", sb.String())
}
