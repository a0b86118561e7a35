package view

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/cmd/games"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/locales"
)

// The package's tests cannot use bottest/golden (it imports view): they
// load the catalog and the real games themselves.

// testClock is the fixed "now" of the tests that render at a clock
// (golden.Clock's moment).
var testClock = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// testCatalog loads the real message catalogs.
func testCatalog(t testing.TB) *locales.Catalog {
	t.Helper()
	c, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testGames are the real games, in menu order.
func testGames() Games {
	return Games(games.All())
}

// testGame is the real game with the given id.
func testGame(t testing.TB, id string) adapter.Game {
	t.Helper()
	g, ok := testGames().Get(id)
	if !ok {
		t.Fatalf("no game %q", id)
	}
	return g
}

// testRenderer renders as the bot does by default (a minute a move),
// with the real games and catalog, at now.
func testRenderer(t testing.TB, now func() time.Time) *Renderer {
	return New(Config{Username: "trickchefbot", TurnTimeout: time.Minute, DefaultLang: locales.Default},
		testGames(), testCatalog(t), now, zerolog.Nop())
}

func hasButtonData(m adapter.Message, data string) bool {
	for _, row := range m.Keyboard {
		for _, bt := range row {
			if bt.Data == data {
				return true
			}
		}
	}
	return false
}

// playingTable is a game of g dealt for three people at a group's table.
func playingTable(t testing.TB, g adapter.Game) *record.Table {
	t.Helper()
	tab := &record.Table{ID: "-100123", ChatID: -100123, Title: "Друзья", Lang: "ru", Phase: record.PhasePlaying,
		GameNo: 1, GameID: g.ID(), Creator: 1, Seed: 0x1234, Salt: 0xabcdef, Token: "tok"}
	for i := range 3 {
		tab.Seats = append(tab.Seats, record.Seat{UserID: int64(i + 1), Name: "Игрок"})
	}
	st, err := g.Start(adapter.View(tab))
	if err != nil {
		t.Fatal(err)
	}
	if tab.State, err = st.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	return tab
}
