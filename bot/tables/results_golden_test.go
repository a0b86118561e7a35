package tables

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
)

// TestGoldenResultsFinal pins every game's final announcements as the
// platform posts them: the game's own, the last with the button; and the
// result the finished game leaves to record, now a job on the table
// (go test ./bot/... -run Golden -update). /stats, /top and /history are
// the results' golden files.
func TestGoldenResultsFinal(t *testing.T) {
	tb := goldenTables(t)
	var sb strings.Builder
	for _, lang := range tb.views.Langs() {
		l := tb.views.Loc(lang)
		for i, g := range testGames() {
			robots, level := 0, ""
			if ls := adapter.Levels(g); len(ls) > 0 {
				robots, level = 1, ls[0]
			}
			tab, st := golden.Table(t, g, 3, robots, level, uint64(31+i), nil)
			before := golden.PlayRandom(t, g, tab, st, 100000, uint64(5+i))
			tab.Lang = lang
			msgs := tb.moves.Finish(tab, g, st, g.Announce(l, adapter.View(tab), before, st))
			for k, m := range msgs {
				fmt.Fprintf(&sb, "════ %s: %s, announcement %d\n%s\n", lang, g.ID(), k+1, golden.Show(m))
			}
			for _, j := range tab.Jobs {
				if j.Result == nil {
					continue
				}
				fmt.Fprintf(&sb, "──── %s: %s, result %s (%s)\n", lang, g.ID(), j.Result.ID, j.Result.Options)
				for _, s := range j.Result.Seats {
					fmt.Fprintf(&sb, "%s %q place %d score %d\n", s.Player, s.Name, s.Place, s.Score)
				}
			}
		}
	}
	golden.Check(t, "results_final", sb.String())
}
