package deliver

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/trickchef/trickchef/cmd/games"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/results"
	"github.com/trickchef/trickchef/bot/tables"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
)

// testBolt opens an embedded store in the test's temporary directory,
// closed when the test ends.
func testBolt(t testing.TB) *store.Bolt {
	t.Helper()
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "b.db"), store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// testGames are the real games, in menu order.
func testGames() view.Games {
	return view.Games(games.All())
}

// testLog shows a test's errors only.
func testLog(t testing.TB) zerolog.Logger {
	return zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)
}

// budgetDelivery is a Delivery that admits calls (and may strip
// buttons): the store, the clock (read through now), the limits, and tg
// (nil when nothing is sent); it draws nothing.
func budgetDelivery(st Store, tg Telegram, now *time.Time, limits Limits) *Delivery {
	clock := func() time.Time { return *now }
	return New(Params{Store: st, Telegram: tg, Limits: limits, Now: clock, Log: zerolog.Nop()})
}

// bot is the roles a delivery test needs, wired as package bot wires
// them: the views, the tables over the same store, and delivery.
type bot struct {
	views    *view.Renderer
	tables   *tables.Tables
	delivery *Delivery
}

// newBot wires delivery over st, sending through tg, at now, with the
// real games and catalog and the bot's username "trickchefbot".
func newBot(t testing.TB, st *store.Bolt, tg Telegram, limits Limits, now func() time.Time) *bot {
	cat := golden.Catalog(t)
	log := testLog(t)
	views := view.New(view.Config{Username: "trickchefbot", TurnTimeout: time.Minute, DefaultLang: locales.Default},
		testGames(), cat, now, log)
	res := results.New(results.Params{Store: st, Games: testGames(), Translator: cat, Log: log, Now: now})
	tbl := tables.New(tables.Params{Config: tables.Config{AIBudget: 200 * time.Millisecond, DefaultLang: locales.Default,
		WebLease: 90 * time.Second}, Store: st, Views: views, Results: res, Now: now, Log: log})
	d := New(Params{Store: st, Telegram: tg, Views: views, Tables: tbl, Translator: cat, Limits: limits, Now: now, Log: log})
	tbl.OnCommit(d.Wake)
	return &bot{views: views, tables: tbl, delivery: d}
}

// commit changes table id as the tables' transaction commits a change
// (the package has no transaction of its own): change edits the latest
// record (a fresh idle table when there is none) and returns what it
// posts to the table's chat; the record is committed over the version it
// was read at, every view marked dirty, the posts queued in its outbox,
// delivery due at once.
func commit(t testing.TB, st *store.Bolt, now time.Time, id string, change func(tab *record.Table) []adapter.Message) {
	t.Helper()
	ctx := context.Background()
	var tab *record.Table
	var version int64
	rec, err := st.Load(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		chat, thread, err := record.ParseID(id)
		if err != nil {
			t.Fatal(err)
		}
		tab = &record.Table{ID: id, ChatID: chat, Thread: thread, Lang: locales.Default, Phase: record.PhaseIdle}
	case err != nil:
		t.Fatal(err)
	default:
		if tab, err = record.Decode(rec.Data); err != nil {
			t.Fatal(err)
		}
		version = rec.Version
	}
	posts := change(tab)
	tab.Updated = now
	data, err := tab.Encode()
	if err != nil {
		t.Fatal(err)
	}
	sc := store.Change{Version: version, Data: data, Dirty: view.All(tab), WakeAt: now}
	for _, m := range posts {
		raw, err := outbox.Entry{ChatID: tab.ChatID, Thread: tab.Thread, Message: m}.Encode()
		if err != nil {
			t.Fatal(err)
		}
		sc.Outbox = append(sc.Outbox, raw)
	}
	if _, err := st.Commit(ctx, id, sc); err != nil {
		t.Fatal(err)
	}
}

// openLobby opens the next game's lobby of game kind at an idle table,
// its creator seated, as the tables' /newgame does.
func openLobby(tab *record.Table, kind string, creator record.Seat) {
	tab.GameNo++
	tab.Phase = record.PhaseLobby
	tab.GameID = kind
	tab.Creator = creator.UserID
	tab.Seats = []record.Seat{creator}
}

// clockAt is a clock stopped at now.
func clockAt(now time.Time) func() time.Time { return func() time.Time { return now } }
