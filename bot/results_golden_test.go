package bot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/store"
)

// Golden files of the results messages: the final result with «play
// again», /stats, /top and /history, in every language
// (go test ./bot -run Golden -update; the helpers are bottest/golden's, see Fixtures).

func goldenResultsBot(t testing.TB) *Bot {
	b := &Bot{tr: testCatalog(t), games: &registry{games: testGames()}, cfg: Config{Username: "trickchefbot"},
		now: func() time.Time { return fixtures.Clock }}
	b.results = newResults(nil, b.games, b.tr, zerolog.Nop(), b.now)
	return b
}

// TestGoldenResultsFinal pins every game's final announcements as the
// platform posts them: the game's own, the last with the button.
func TestGoldenResultsFinal(t *testing.T) {
	b := goldenResultsBot(t)
	var sb strings.Builder
	for _, lang := range b.tr.Langs() {
		l := b.loc(lang)
		for i, g := range testGames() {
			robots, level := 0, ""
			if ls := adapter.Levels(g); len(ls) > 0 {
				robots, level = 1, ls[0]
			}
			tab, st := fixtures.Table(t, g, 3, robots, level, uint64(31+i), nil)
			before := fixtures.PlayRandom(t, g, tab, st, 100000, uint64(5+i))
			tab.Lang = lang
			ch := &change{}
			msgs := b.finish(tab, ch, g, st, g.Announce(l, adapter.View(tab), before, st))
			for k, m := range msgs {
				fmt.Fprintf(&sb, "════ %s: %s, announcement %d\n%s\n", lang, g.ID(), k+1, fixtures.Show(m))
			}
			for _, m := range ch.outbox {
				if m.Result == nil {
					continue
				}
				fmt.Fprintf(&sb, "──── %s: %s, result %s (%s)\n", lang, g.ID(), m.Result.ID, m.Result.Options)
				for _, s := range m.Result.Seats {
					fmt.Fprintf(&sb, "%s %q place %d score %d\n", s.Player, s.Name, s.Place, s.Score)
				}
			}
		}
	}
	fixtures.Check(t, "results_final", sb.String())
}

func TestGoldenResultsStats(t *testing.T) {
	b := goldenResultsBot(t)
	stats := map[string]store.PlayerStats{
		"trickchef": {Player: "u1", Name: "Оля", Games: 5, Wins: 2, PlaceSum: 9, TieHalves: 1, BestScore: 19, Mu: 27.31, Sigma: 4.12}, // one 2nd–3rd
		"sausages":  {Player: "u1", Name: "Оля", Games: 1, Wins: 1, PlaceSum: 1, BestScore: 2, Mu: 27.9, Sigma: 7.6},
		"domino":    {Player: "u1", Name: "Оля", Games: 22, Wins: 21, PlaceSum: 23, BestScore: -3, Mu: 31, Sigma: 1.5},
	}
	var sb strings.Builder
	for _, lang := range b.tr.Langs() {
		l := b.loc(lang)
		fmt.Fprintf(&sb, "════ %s: group\n%s\n", lang, fixtures.Show(b.results.renderStats(l, "Оля &amp; Ко", false, 0, stats)))
		fmt.Fprintf(&sb, "════ %s: private\n%s\n", lang, fixtures.Show(b.results.renderStats(l, "Оля", true, 3, stats)))
		fmt.Fprintf(&sb, "════ %s: group, none\n%s\n", lang, fixtures.Show(b.results.renderStats(l, "Оля", false, 0, nil)))
		fmt.Fprintf(&sb, "════ %s: private, none\n%s\n", lang, fixtures.Show(b.results.renderStats(l, "Оля", true, 0, nil)))
	}
	fixtures.Check(t, "results_stats", sb.String())
}

func TestGoldenResultsTop(t *testing.T) {
	b := goldenResultsBot(t)
	var top []store.PlayerStats
	for i := 0; i < topSize; i++ {
		p := store.PlayerStats{Player: fmt.Sprintf("u%d", i+1), Name: fixtures.Names[i%len(fixtures.Names)], Games: 3 + 7*i%11,
			Wins: i % 4, Mu: 30 - float64(i), Sigma: 2 + float64(i)/4}
		if i == 3 {
			p.Player, p.Name = "rshef", "шеф"
		}
		top = append(top, p)
	}
	top[9].Mu, top[9].Sigma = 2.99, 1.01 // a negative rating
	me := store.PlayerStats{Player: "u99", Name: "Вова <3", Games: 12, Wins: 1, Mu: 1, Sigma: 1}
	newbie := store.PlayerStats{Player: "u98", Name: "Новенький", Games: 1, Mu: 27, Sigma: 7}
	var sb strings.Builder
	for _, lang := range b.tr.Langs() {
		l := b.loc(lang)
		fmt.Fprintf(&sb, "════ %s: top, presser on it\n%s\n", lang, fixtures.Show(b.results.renderTop(l, "trickchef", top, nil, 0)))
		fmt.Fprintf(&sb, "════ %s: top, presser 14th\n%s\n", lang, fixtures.Show(b.results.renderTop(l, "trickchef", top[:3], &me, 14)))
		fmt.Fprintf(&sb, "════ %s: empty, presser unranked\n%s\n", lang, fixtures.Show(b.results.renderTop(l, "sausages", nil, &newbie, 0)))
	}
	fixtures.Check(t, "results_top", sb.String())
}

func TestGoldenResultsHistory(t *testing.T) {
	b := goldenResultsBot(t)
	at := fixtures.Clock
	hist := []store.Result{
		{ID: "-100123:7:1", Game: "trickchef", Chat: -100123, Started: at.Add(-30 * time.Minute), Ended: at, Seats: []store.ResultSeat{
			{Player: "u1", Name: "Оля", Place: 2, Score: 18}, {Player: "", Name: "", Place: 1, Score: 19},
			{Player: "rshef", Name: "шеф", Place: 2, Score: 18}, {Player: "u4", Name: "Дима & Co", Place: 4, Score: 8}}},
		{ID: "-100123:6:2", Game: "sausages", Chat: -100123, Ended: at.Add(-25 * time.Hour), Seats: []store.ResultSeat{
			{Player: "u1", Name: "Оля", Place: 1, Score: 2}, {Player: "u2", Name: "Серёжа", Place: 1, Score: 2},
			{Player: "rnovice", Name: "новичок", Place: 3, Score: 0}}},
		{ID: "-100123:5:3", Game: "domino", Chat: -100123, Ended: at.Add(-24 * 40 * time.Hour), Seats: []store.ResultSeat{
			{Player: "u2", Name: "Серёжа", Place: 1, Score: 100}, {Player: "rhard", Name: "hard", Place: 2, Score: 50}}},
	}
	var sb strings.Builder
	for _, lang := range b.tr.Langs() {
		l := b.loc(lang)
		fmt.Fprintf(&sb, "════ %s: history\n%s\n", lang, fixtures.Show(b.results.renderHistory(l, hist)))
		fmt.Fprintf(&sb, "════ %s: empty\n%s\n", lang, fixtures.Show(b.results.renderHistory(l, nil)))
	}
	fixtures.Check(t, "results_history", sb.String())
}
