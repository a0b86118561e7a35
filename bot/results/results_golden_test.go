package results

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/season"
	"github.com/trickchef/trickchef/store"
)

// Golden files of the results messages: /stats, /top and /history, in
// every language (go test ./bot/... -run Golden -update). The final result
// with «play again» is the tables' (TestGoldenResultsFinal there).

// menu is the ids of the games the bot offers, in menu order: the results
// below are of the first two, and the last is the one nobody played.
func menu() (first, second, last string) {
	gs := testGames()
	return gs[0].ID(), gs[1].ID(), gs[len(gs)-1].ID()
}

func TestGoldenResultsStats(t *testing.T) {
	first, second, _ := menu()
	res := goldenResults(t)
	stats := map[string]store.PlayerStats{
		first:    {Player: "u1", Name: "Оля", Games: 5, Wins: 2, PlaceSum: 9, TieHalves: 1, BestScore: 19, Mu: 27.31, Sigma: 4.12}, // one 2nd–3rd
		second:   {Player: "u1", Name: "Оля", Games: 1, Wins: 1, PlaceSum: 1, BestScore: 2, Mu: 27.9, Sigma: 7.6},
		"domino": {Player: "u1", Name: "Оля", Games: 22, Wins: 21, PlaceSum: 23, BestScore: -3, Mu: 31, Sigma: 1.5},
	}
	var sb strings.Builder
	for _, lang := range res.tr.Langs() {
		l := res.loc(lang)
		fmt.Fprintf(&sb, "════ %s: group\n%s\n", lang, golden.Show(res.renderStats(l, "Оля &amp; Ко", false, 0, stats)))
		fmt.Fprintf(&sb, "════ %s: private\n%s\n", lang, golden.Show(res.renderStats(l, "Оля", true, 3, stats)))
		fmt.Fprintf(&sb, "════ %s: group, none\n%s\n", lang, golden.Show(res.renderStats(l, "Оля", false, 0, nil)))
		fmt.Fprintf(&sb, "════ %s: private, none\n%s\n", lang, golden.Show(res.renderStats(l, "Оля", true, 0, nil)))
	}
	golden.Check(t, "results_stats", sb.String())
}

func TestGoldenResultsTop(t *testing.T) {
	first, second, _ := menu()
	res := goldenResults(t)
	var top []store.PlayerStats
	for i := 0; i < topSize; i++ {
		p := store.PlayerStats{Player: fmt.Sprintf("u%d", i+1), Name: golden.Names[i%len(golden.Names)], Games: 3 + 7*i%11,
			Wins: i % 4, Mu: 30 - float64(i), Sigma: 2 + float64(i)/4}
		if i == 3 {
			p.Player, p.Name = "rshef", "Профи"
		}
		top = append(top, p)
	}
	top[9].Mu, top[9].Sigma = 2.99, 1.01 // a negative rating
	me := store.PlayerStats{Player: "u99", Name: "Вова <3", Games: 12, Wins: 1, Mu: 1, Sigma: 1}
	newbie := store.PlayerStats{Player: "u98", Name: "Новенький", Games: 1, Mu: 27, Sigma: 7}
	var sb strings.Builder
	for _, lang := range res.tr.Langs() {
		l := res.loc(lang)
		fmt.Fprintf(&sb, "════ %s: top, presser on it\n%s\n", lang, golden.Show(res.renderTop(l, first, top, nil, 0, nil)))
		fmt.Fprintf(&sb, "════ %s: top, presser 14th\n%s\n", lang, golden.Show(res.renderTop(l, first, top[:3], &me, 14, func(p string) bool { return p == "u2" })))
		fmt.Fprintf(&sb, "════ %s: empty, presser unranked\n%s\n", lang, golden.Show(res.renderTop(l, second, nil, &newbie, 0, nil)))
	}
	golden.Check(t, "results_top", sb.String())
}

func TestGoldenResultsHistory(t *testing.T) {
	first, second, _ := menu()
	res := goldenResults(t)
	at := golden.Clock
	hist := []store.Result{
		{ID: "-100123:7:1", Game: first, Chat: -100123, Started: at.Add(-30 * time.Minute), Ended: at, Seats: []store.ResultSeat{
			{Player: "u1", Name: "Оля", Place: 2, Score: 18}, {Player: "", Name: "", Place: 1, Score: 19},
			{Player: "rshef", Name: "Робот 1", Place: 2, Score: 18}, {Player: "u4", Name: "Дима & Co", Place: 4, Score: 8}}},
		{ID: "-100123:6:2", Game: second, Chat: -100123, Ended: at.Add(-25 * time.Hour), Seats: []store.ResultSeat{
			{Player: "u1", Name: "Оля", Place: 1, Score: 2}, {Player: "u2", Name: "Серёжа", Place: 1, Score: 2},
			{Player: "rnovice", Name: "Робот 1", Place: 3, Score: 0}}},
		{ID: "-100123:5:3", Game: "domino", Chat: -100123, Ended: at.Add(-24 * 40 * time.Hour), Seats: []store.ResultSeat{
			{Player: "u2", Name: "Серёжа", Place: 1, Score: 100}, {Player: "rhard", Name: "Робот 1", Place: 2, Score: 50},
			{Player: "rold", Place: 3, Score: 10}}}, // levels this game no longer has: «робот»
	}
	var sb strings.Builder
	for _, lang := range res.tr.Langs() {
		l := res.loc(lang)
		fmt.Fprintf(&sb, "════ %s: history\n%s\n", lang, golden.Show(res.renderHistory(l, hist)))
		fmt.Fprintf(&sb, "════ %s: empty\n%s\n", lang, golden.Show(res.renderHistory(l, nil)))
	}
	golden.Check(t, "results_history", sb.String())
}

// seasonGame is a finished game for the season's golden files: seats as
// "player:place:score", named from golden.Names (robots by level).
func seasonGame(id, game string, ended time.Time, seats ...string) store.Result {
	r := store.Result{ID: id, Game: game, Chat: -100123, Started: ended.Add(-20 * time.Minute), Ended: ended}
	for _, s := range seats {
		var player string
		var place, score int
		if _, err := fmt.Sscanf(strings.ReplaceAll(s, ":", " "), "%s %d %d", &player, &place, &score); err != nil {
			panic(s)
		}
		name := player
		if n, err := strconv.Atoi(player[1:]); err == nil && player[0] == 'u' {
			name = golden.Names[n%len(golden.Names)]
		}
		r.Seats = append(r.Seats, store.ResultSeat{Player: player, Name: name, Place: place, Score: score})
	}
	return r
}

// seasonResults are October and November 2026 in one group: four people
// and a robot at the menu's first game, two at its second.
func seasonResults() []store.Result {
	first, second, _ := menu()
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 17, 0, 0, 0, time.UTC) }
	var rs []store.Result
	for i := range 4 {
		rs = append(rs, seasonGame(fmt.Sprint("o", i), first, day(time.October, 3+i), "u1:3:8", "u2:1:21", "u3:2:15"))
	}
	for i := range 6 {
		rs = append(rs, seasonGame(fmt.Sprint("n", i), first, day(time.November, 2+i), "u1:1:"+strconv.Itoa(20+i), "u2:2:14", "rshef:3:12", "u3:4:3"))
	}
	rs = append(rs, seasonGame("n6", first, day(time.November, 20), "u4:1:19", "u2:2:11", "u1:3:9"),
		seasonGame("s1", second, day(time.November, 21), "u5:1:2", "u6:2:1"))
	return rs
}

func TestGoldenSeason(t *testing.T) {
	first, _, last := menu()
	res := goldenResults(t)
	rs := seasonResults()
	nov := season.Month{Year: 2026, Month: time.November}
	loc := time.UTC
	lines := season.Standings(rs, first, nov, loc)
	champ := func(p string) bool { return p == "u2" }
	rc, _ := season.MonthRecap(rs, nov, loc)
	var sb strings.Builder
	for _, lang := range res.tr.Langs() {
		l := res.loc(lang)
		fmt.Fprintf(&sb, "════ %s: season, the asker placed\n%s\n", lang, golden.Show(res.renderSeason(l, first, nov, lines, season.Find(lines, "u1"), champ)))
		fmt.Fprintf(&sb, "════ %s: season, the asker one game in\n%s\n", lang, golden.Show(res.renderSeason(l, first, nov, lines, season.Find(lines, "u4"), champ)))
		me := season.Find(lines, "u7")
		me.Name = "Новенький"
		fmt.Fprintf(&sb, "════ %s: season, the asker not played yet\n%s\n", lang, golden.Show(res.renderSeason(l, first, nov, lines, me, champ)))
		fmt.Fprintf(&sb, "════ %s: season, nobody this month\n%s\n", lang, golden.Show(res.renderSeason(l, last, nov, nil, me, champ)))
		for _, m := range res.recapMessages(l, rc) {
			fmt.Fprintf(&sb, "════ %s: recap\n%s\n", lang, golden.Show(m))
		}
		fmt.Fprintf(&sb, "════ %s: history\n%s\n", lang, golden.Show(res.renderSeasonHistory(l, rs, season.Month{Year: 2025, Month: time.December}, nov.Next(), loc)))
		fmt.Fprintf(&sb, "════ %s: history, none\n%s\n", lang, golden.Show(res.renderSeasonHistory(l, nil, season.Month{Year: 2025, Month: time.December}, nov.Next(), loc)))
	}
	golden.Check(t, "results_season", sb.String())
}
