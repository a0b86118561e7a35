package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// End-to-end tests of the seasons (docs/bot.md «Seasons»): /season after
// a game, and the month's end at each group's own midnight, once.

// TestSeasonAfterAGame: after a finished game, /season in the group
// answers with this month's table and the sender's own line — one game,
// two more to a place; in private, /season names the group.
func TestSeasonAfterAGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Сезонники", a)
	lobby := h.MustLobby(group, a, nil, 2)
	h.MustStartGame(a, lobby)
	h.MustPlayToEnd(group, []*telegramtest.User{a}, 3*time.Minute)
	game := h.T("trickchef.title")
	one := h.T("count.games", "Count", 1)
	m := h.askResults(a, group, "/season", game, "Аня", one,
		h.Shown("season.need", "Games", h.T("count.games", "Count", 2)))
	if !strings.Contains(m.Text, "Аня — ") {
		t.Errorf("no line of Аня's own:\n%s", m.Text)
	}
	h.askResults(a, group, "/season history", h.Shown("season.history_empty"))
	h.askResults(a, group, "/season nosuchgame", strings.Split(h.Shown("season.unknown", "Games", ""), "\n")[0])
	h.askResults(a, a.PrivateChat(), "/season", "Сезонники", game)
}

// seasonResult is a game of Трик-н-Шеф in chat that ended at ended, the
// people (named by names) placed in the order given.
func seasonResult(id string, chat int64, ended time.Time, names map[*telegramtest.User]string, people ...*telegramtest.User) *record.Result {
	e := &record.Result{ID: id, Game: "trickchef", Chat: chat, Started: ended.Add(-20 * time.Minute), Ended: ended}
	for i, u := range people {
		e.Seats = append(e.Seats, record.ResultSeat{Player: record.PersonPlayer(u.ID()), Name: names[u], Place: i + 1, Score: 30 - 10*i})
	}
	return e
}

// TestSeasonEndsAtEachGroupsMidnight: one group in Vladivostok (UTC+10),
// one in Kaliningrad (UTC+2), both played in November 2026. Each gets its
// month's recap once, at its own midnight of 1 December — 14:00 and 22:00
// UTC on 30 November — and not before; the bot is killed and started
// again between the two and after both, and nothing is posted twice. The
// champion then carries 🏆 in /season.
func TestSeasonEndsAtEachGroupsMidnight(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	clock := newMovedClock(time.Date(2026, time.November, 29, 12, 0, 0, 0, time.UTC))
	withClock(h, clock)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	names := map[*telegramtest.User]string{a: "Аня", b: "Борис"}
	east := h.Srv.NewGroup("Владивосток", a, b)
	west := h.Srv.NewGroup("Калининград", a, b)
	for _, g := range []struct {
		chat *telegramtest.Chat
		zone string
	}{{east, "Asia/Vladivostok"}, {west, "Europe/Kaliningrad"}} {
		// The group's table, in its zone (the lobby's setting).
		h.askResults(a, g.chat, "/season", h.Shown("season.empty", "Month", h.T("season.month", "Name", h.T("season.month_11"), "Year", 2026)))
		rewriteZone(t, h, g.chat.ID(), g.zone)
	}
	played := time.Date(2026, time.November, 29, 10, 0, 0, 0, time.UTC)
	for i := range 3 {
		for _, g := range []*telegramtest.Chat{east, west} {
			winner, second := a, b
			if g == west {
				winner, second = b, a
			}
			if _, err := h.Bot.Results.Record(ctx, seasonResult(fmt.Sprint(g.ID(), ":", i), g.ID(), played.Add(time.Duration(i)*time.Hour), names, winner, second)); err != nil {
				t.Fatal(err)
			}
		}
	}
	recap := func(winner string) func(*telegramtest.Message) bool {
		return contains(h.Shown("season.recap_champion", "Names", winner))
	}
	recaps := func(chat *telegramtest.Chat, winner string) int { return countIn(chat, recap(winner)) }
	// settled waits until the bot has answered a command in chat: every
	// recap due before it has been looked at by then (the months' ends
	// loop is served at least every second, and the command's answer
	// takes longer than that through the scaled group limits only when
	// the group is busy; the counts below are checked after a second
	// answer as well).
	settled := func(chat *telegramtest.Chat) {
		h.askResults(a, chat, "/season history")
	}

	// 13:59 UTC: 23:59 in Vladivostok — nothing yet.
	clock.To(time.Date(2026, time.November, 30, 13, 59, 0, 0, time.UTC))
	settled(east)
	if n := recaps(east, "Аня"); n != 0 {
		t.Fatalf("%d recaps in Vladivostok before its midnight", n)
	}
	// 14:00:30 UTC: Vladivostok's 1 December.
	clock.To(time.Date(2026, time.November, 30, 14, 0, 30, 0, time.UTC))
	if _, err := east.WaitMessage(30*time.Second, recap("Аня")); err != nil {
		t.Fatalf("no recap in Vladivostok after its midnight: %v", err)
	}
	withClock(h, clock) // killed and started again
	// 21:59 UTC: 23:59 in Kaliningrad — nothing there yet.
	clock.To(time.Date(2026, time.November, 30, 21, 59, 0, 0, time.UTC))
	settled(west)
	if n := recaps(west, "Борис"); n != 0 {
		t.Fatalf("%d recaps in Kaliningrad before its midnight", n)
	}
	clock.To(time.Date(2026, time.November, 30, 22, 0, 30, 0, time.UTC))
	if _, err := west.WaitMessage(30*time.Second, recap("Борис")); err != nil {
		t.Fatalf("no recap in Kaliningrad after its midnight: %v", err)
	}
	withClock(h, clock)
	clock.To(time.Date(2026, time.December, 1, 9, 0, 0, 0, time.UTC))
	for _, g := range []*telegramtest.Chat{east, west, east, west} {
		settled(g)
	}
	if e, w := recaps(east, "Аня"), recaps(west, "Борис"); e != 1 || w != 1 {
		t.Fatalf("recaps: %d in Vladivostok, %d in Kaliningrad; want one each", e, w)
	}
	if n := recaps(east, "Борис") + recaps(west, "Аня"); n != 0 {
		t.Fatalf("%d recaps name the other group's champion", n)
	}
	if n, err := h.Redis.Pending(ctx, store.Seasons); err != nil || n != 0 {
		t.Errorf("%d groups still due (%v): neither played in December", n, err)
	}
	// December: the champion carries 🏆 in /season and in the history.
	if _, err := h.Bot.Results.Record(ctx, seasonResult("dec", east.ID(), time.Date(2026, time.December, 1, 8, 0, 0, 0, time.UTC), names, a, b)); err != nil {
		t.Fatal(err)
	}
	h.askResults(b, east, "/season", "🏆 Аня")
	h.askResults(b, east, "/season history", "🏆 Аня")
}

// rewriteZone sets the time zone of chat's table, as its lobby would.
func rewriteZone(t *testing.T, h *harness, chat int64, zone string) {
	t.Helper()
	tab := bottest.Rewrite(t, h.Redis, record.ID(chat, 0), func(tab *record.Table) store.Change {
		tab.Zone = zone
		return store.Change{TimerAt: time.Time{}}
	})
	if tab.Zone != zone {
		t.Fatalf("zone %q", tab.Zone)
	}
}
