package tables

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// playingAt stores a game of Трик-н-Шеф on at table n of golden.Table's
// group (-100123), at time for a move turn (and at table 1 too: the game
// is drawn there first).
func playingAt(t *testing.T, tb *Tables, n int, turn time.Duration) *record.Table {
	t.Helper()
	tab := longTable(t, tb, turn)
	if n == 1 {
		return tab
	}
	tab.ID = record.TableID(tab.ChatID, 0, n)
	save(t, tb, tab)
	return tab
}

// TestNewGameGoesToTheNextFreeTable: where a group's new game goes. An
// empty group's goes to table 1; beside a long game (or any game) to the
// next free table, which follows the group's language; a lobby open at any
// table is where /newgame points; with every table taken none opens, and
// ▶️ says so.
func TestNewGameGoesToTheNextFreeTable(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	own := "-100123"
	if got, ok := tb.group.NewGameTable(ctx, own); got != own || !ok {
		t.Errorf("an empty group's new game goes to %s, %v", got, ok)
	}
	tab := playingAt(t, tb, 1, 24*time.Hour)
	tab.Lang = "en"
	save(t, tb, tab)
	second := record.TableID(tab.ChatID, 0, 2)
	if got, _ := tb.group.NewGameTable(ctx, own); got != second {
		t.Errorf("beside a long game the new game goes to %s", got)
	}
	open := callback.Data{Op: callback.Open, Table: own, Word: "chef"}
	if got, err := tb.presses.openTable(ctx, open); got != second || err != nil {
		t.Errorf("beside a long game ▶️ opens at %s, %v", got, err)
	}
	// A refused ▶️ writes nothing.
	err := tb.transactNamed(ctx, second, func(t *record.Table, ch *txn.Change) error {
		if err := tb.group.FollowOwn(ctx, t); err != nil {
			return err
		}
		return tb.lobby.OnOpen(t, ch, callback.Data{Op: callback.Open, Table: second, Word: "nosuchgame"}, &models.User{ID: 5}, true)
	})
	if key, _ := refusal.Key(err); key != "error.bad_button" {
		t.Errorf("▶️ of no game at table 2: %v", err)
	}
	if _, err := tb.store.Load(ctx, second); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused ▶️ wrote table 2: %v", err)
	}
	err = tb.transactNamed(ctx, second, func(t *record.Table, ch *txn.Change) error {
		if err := tb.group.FollowOwn(ctx, t); err != nil {
			return err
		}
		return tb.lobby.OnOpen(t, ch, open, &models.User{ID: 5, FirstName: "Ян"}, true)
	})
	if err != nil {
		t.Fatal(err)
	}
	sec := load(t, tb, second)
	if sec.Lang != "en" || sec.Title != tab.Title || sec.ChatID != tab.ChatID || sec.Phase != record.PhaseLobby || sec.TurnTime != 0 {
		t.Errorf("table 2 does not follow its group, or is no quick lobby: %+v", sec)
	}
	// A lobby open at table 2: /newgame points there.
	if got, _ := tb.group.NewGameTable(ctx, own); got != second {
		t.Errorf("with a lobby open at table 2 the new game goes to %s", got)
	}
	// Tables 1, 2 and 4 playing: table 3.
	sec.Phase = record.PhasePlaying
	save(t, tb, sec)
	playingAt(t, tb, 4, time.Minute)
	if got, _ := tb.group.NewGameTable(ctx, own); got != record.TableID(tab.ChatID, 0, 3) {
		t.Errorf("tables 1, 2, 4 playing: the new game goes to %s", got)
	}
	// All four (the default limit) taken.
	playingAt(t, tb, 3, time.Minute)
	if got, ok := tb.group.NewGameTable(ctx, own); ok {
		t.Errorf("every table taken, yet the new game goes to %s", got)
	}
	if _, err := tb.presses.openTable(ctx, open); func() bool { k, _ := refusal.Key(err); return k != "newgame.full" }() {
		t.Errorf("every table taken: ▶️ answers %v", err)
	}
	// A button of table 2 acts on table 2, whatever the others do.
	if got, err := tb.presses.openTable(ctx, callback.Data{Op: callback.Lobby, Table: second, GameNo: 1}); got != second || err != nil {
		t.Errorf("a button of table 2 acts on %s, %v", got, err)
	}
	// A practice table is its own.
	if got, ok := tb.group.NewGameTable(ctx, "42"); got != "42" || !ok {
		t.Errorf("a practice table's new game goes to %s, %v", got, ok)
	}
}

// TestTablesPostUnderTheirName: what a change of table 2 and on posts to
// its group begins with «Стол N»; table 1's and private messages do not.
func TestTablesPostUnderTheirName(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	name := tb.views.Loc("ru").T("table.number", "N", 3)
	for _, n := range []int{1, 3} {
		id := record.TableID(-100123, 0, n)
		_, _, err := tb.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
			ch.Post(t, adapter.Message{Text: "привет"})
			ch.Outbox = append(ch.Outbox, ch.Outbox[0])
			ch.Outbox[1].ChatID = 7 // someone's private chat
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		out := outboxOf(t, tb, id)
		if len(out) != 2 {
			t.Fatalf("table %d queued %d", n, len(out))
		}
		if got, want := out[0].Text, map[int]string{1: "привет", 3: name + "\nпривет"}[n]; got != want {
			t.Errorf("table %d posted %q, want %q", n, got, want)
		}
		if out[1].Text != "привет" {
			t.Errorf("table %d wrote %q to a private chat", n, out[1].Text)
		}
		tab := load(t, tb, id)
		tab.Phase = record.PhaseLobby
		if got := tb.views.Group(tab).Text; (n > 1) != strings.HasPrefix(got, name+"\n") {
			t.Errorf("table %d's message: %q", n, got)
		}
	}
}

// TestRemovedFromAGroupClosesAll: the bot removed from a group closes
// every table of it.
func TestRemovedFromAGroupClosesAll(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	own := playingAt(t, tb, 1, 24*time.Hour)
	second := load(t, tb, record.TableID(own.ChatID, 0, 2))
	second.Phase, second.GameID, second.GameNo = record.PhaseLobby, "chef", 1
	save(t, tb, second)
	last := playingAt(t, tb, record.MaxTables, time.Minute) // above today's limit: a limit lowered since
	u := &models.ChatMemberUpdated{Chat: models.Chat{ID: own.ChatID, Type: models.ChatTypeSupergroup},
		NewChatMember: models.ChatMember{Type: models.ChatMemberTypeLeft}}
	if err := tb.commands.onMyChatMember(ctx, 1, u); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{own.ID, second.ID, last.ID} {
		if p := load(t, tb, id).Phase; p != record.PhaseIdle {
			t.Errorf("table %s is %s after the bot left", id, p)
		}
	}
}

// legacySecond is a group's second table as the bot stored it before a
// group could hold more than two: a quick lobby of Трик-н-Шеф beside a
// long game, id "<chat>b" (the mark the old second table carried), written
// byte for byte.
const legacySecond = `{"id":"-100123b","chat":-100123,"title":"Друзья","lang":"ru","phase":"lobby","game_no":2,` +
	`"kind":"trickchef","creator":1,"seats":[{"user":1,"name":"Аня","nonce":0},{"user":2,"name":"Борис","nonce":0}],` +
	`"turn_time":60000000000,"updated":"2026-11-23T12:00:00Z"}`

// TestLegacySecondTableLoads: a stored second table of yesterday is table
// 2 today, unchanged: it loads as it was, its lobby is where /newgame
// points, its message names it, its buttons reach it, and it plays on.
func TestLegacySecondTableLoads(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	own := playingAt(t, tb, 1, 24*time.Hour)
	id := record.TableID(own.ChatID, 0, 2)
	if id != "-100123b" {
		t.Fatalf("table 2 is %q, not the old second table's id", id)
	}
	if _, err := tb.store.Commit(ctx, id, store.Change{Data: []byte(legacySecond)}); err != nil {
		t.Fatal(err)
	}
	old := load(t, tb, id)
	if old.ID != id || old.ChatID != own.ChatID || old.Phase != record.PhaseLobby || len(old.Seats) != 2 || old.GameNo != 2 || old.TurnTime != time.Minute {
		t.Fatalf("the old second table loads as %+v", old)
	}
	if got, _ := tb.group.NewGameTable(ctx, own.ID); got != id {
		t.Errorf("/newgame beside the old second table's lobby goes to %s", got)
	}
	if !strings.HasPrefix(tb.views.Group(old).Text, tb.views.Loc("ru").T("table.number", "N", 2)) {
		t.Errorf("its lobby does not name its table:\n%s", tb.views.Group(old).Text)
	}
	start := callback.Data{Op: callback.Lobby, Table: id, GameNo: 2, Args: []int{callback.LobbyAddAI}}
	if p, err := callback.Parse(start.String()); err != nil || p.Table != id {
		t.Fatalf("its buttons: %+v, %v", p, err)
	}
	err := tb.transactNamed(ctx, id, func(t *record.Table, ch *txn.Change) error {
		t.Seats = append(t.Seats, record.Seat{Name: "Робот", AI: "novice"})
		return tb.lobby.StartGame(ctx, t, ch)
	})
	if err != nil {
		t.Fatal(err)
	}
	if tab := load(t, tb, id); tab.Phase != record.PhasePlaying || tab.ID != id || len(tab.Seats) != 3 {
		t.Errorf("the old second table's game did not start: %+v", tab)
	}
	if got, _ := tb.group.NewGameTable(ctx, own.ID); got != record.TableID(own.ChatID, 0, 3) {
		t.Errorf("beside both, the new game goes to %s", got)
	}
}

// BenchmarkNewGameTable: what /newgame reads to find a group's next free
// table, at the default limit of 4 with 0 or 3 of them playing (either way
// all four are read), on Redis (production) and the embedded store.
func BenchmarkNewGameTable(b *testing.B) {
	for _, st := range []struct {
		name string
		new  func(b *testing.B) Store
	}{
		{"redis", func(b *testing.B) Store {
			return store.NewRedis(redistest.Client(b), redistest.Prefix(b), store.Config{})
		}},
		{"bolt", func(b *testing.B) Store { return testBolt(b) }},
	} {
		for _, busy := range []int{0, 3} {
			b.Run(st.name+"/busy="+string(rune('0'+busy)), func(b *testing.B) {
				tb := newTables(b, st.new(b), nil)
				ctx := context.Background()
				for n := 1; n <= busy; n++ {
					_, _, err := tb.tx.Transact(ctx, record.TableID(-100123, 0, n), 0, func(t *record.Table, ch *txn.Change) error {
						t.Phase, t.GameID, t.GameNo = record.PhasePlaying, "trickchef", 1
						return nil
					})
					if err != nil {
						b.Fatal(err)
					}
				}
				want := record.TableID(-100123, 0, busy+1)
				b.ResetTimer()
				for b.Loop() {
					if got, _ := tb.group.NewGameTable(ctx, "-100123"); got != want {
						b.Fatalf("new game at %s, want %s", got, want)
					}
				}
			})
		}
	}
}

// TestTableOneNamedBesideOthers: a lobby opening at table 1 while table 2
// plays names its table («Стол 1») in its message and posts; one opening
// with the others idle names none, as a group with one table always read.
func TestTableOneNamedBesideOthers(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	own := "-100123"
	two := playingAt(t, tb, 2, time.Minute)
	idle := load(t, tb, own) // playingAt drew the game at table 1 first
	idle.Phase = record.PhaseIdle
	save(t, tb, idle)
	name := tb.views.Loc("ru").T("table.number", "N", 1)
	open := func() *record.Table {
		t.Helper()
		err := tb.transactNamed(ctx, own, func(t *record.Table, ch *txn.Change) error {
			if err := tb.group.FollowOwn(ctx, t); err != nil {
				return err
			}
			if err := tb.lobby.OnOpen(t, ch, callback.Data{Op: callback.Open, Table: own, Word: "chef"}, &models.User{ID: 5, FirstName: "Ян"}, true); err != nil {
				return err
			}
			ch.Post(t, adapter.Message{Text: "привет"})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return load(t, tb, own)
	}
	tab := open()
	if !tab.Numbered || !strings.HasPrefix(tb.views.Group(tab).Text, name+"\n") {
		t.Errorf("table 1's lobby beside table 2's game does not name it: %v\n%s", tab.Numbered, tb.views.Group(tab).Text)
	}
	if out := outboxOf(t, tb, own); len(out) == 0 || out[len(out)-1].Text != name+"\nпривет" {
		t.Errorf("table 1 beside table 2 posted %+v", out)
	}
	// Both over; the next lobby at table 1 is alone and names nothing.
	for _, tab := range []*record.Table{load(t, tb, own), two} {
		tab.Phase = record.PhaseIdle
		save(t, tb, tab)
	}
	if tab := open(); tab.Numbered || strings.HasPrefix(tb.views.Group(tab).Text, name) {
		t.Errorf("table 1's lobby alone names it:\n%s", tb.views.Group(tab).Text)
	}
}

// TestLoweredLimitKeepsGamesAboveIt: a game at a table past the group's
// limit (opened before the limit was lowered) is still one of the group's:
// /stop and /table see it, «/table 6» names it, a person who leaves the
// group loses their seat there; an idle table past the limit is still no
// table, and no new game goes there.
func TestLoweredLimitKeepsGamesAboveIt(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	own := playingAt(t, tb, 1, 24*time.Hour)
	above := playingAt(t, tb, 6, time.Minute) // today's limit is 4
	if tb.group.Limit() >= 6 {
		t.Fatalf("the limit is %d", tb.group.Limit())
	}
	cupGame := playingAt(t, tb, 5, time.Minute) // a cup's, which the cup answers for
	cupGame.CupOf = &record.CupTable{Host: record.TableID(own.ChatID, 0, record.CupHost), Cup: 1, Round: 1}
	save(t, tb, cupGame)
	var busy []string
	for _, b := range tb.group.BusyTables(ctx, own.ID) {
		busy = append(busy, b.ID)
	}
	if !slices.Contains(busy, above.ID) || slices.Contains(busy, cupGame.ID) {
		t.Errorf("the busy tables %v: want the game at table 6, not the cup's at table 5", busy)
	}
	if got, ok := tb.group.NewGameTable(ctx, own.ID); got == above.ID || !ok {
		t.Errorf("a new game goes to %s, %v", got, ok)
	}
	for arg, want := range map[string]string{"6": above.ID, "5": own.ID, "7": own.ID, "27": own.ID, "0": own.ID} {
		if got, _, err := tb.commands.named(ctx, own.ID, arg, nil); err != nil || got != want {
			t.Errorf("«/table %s» acts at %s, %v; want %s", arg, got, err, want)
		}
	}
	user := above.Seats[0].UserID
	if user <= 0 {
		t.Fatalf("seat 0 is not a person: %+v", above.Seats[0])
	}
	left := &models.ChatMemberUpdated{Chat: models.Chat{ID: own.ChatID, Type: models.ChatTypeSupergroup},
		NewChatMember: models.ChatMember{Type: models.ChatMemberTypeLeft, Left: &models.ChatMemberLeft{User: &models.User{ID: user}}}}
	if err := tb.belong.OnChatMember(ctx, 7, left); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{own.ID, above.ID} {
		if got := load(t, tb, id); got.SeatOf(user) >= 0 {
			t.Errorf("table %s still seats the person who left the group", id)
		}
	}
	if load(t, tb, cupGame.ID).SeatOf(user) < 0 {
		t.Error("a cup's table was unseated by the group, not by its cup")
	}
}

// TestAgainKeepsToTheLimit: a game finished at table 6, opened before the
// group's limit was lowered to 4, leaves no «🔁 Сыграть ещё» that opens a
// new lobby there (a cup's round would take that table): its press, from
// the chat or from the page, is refused as stale and changes nothing; its
// result offers none.
func TestAgainKeepsToTheLimit(t *testing.T) {
	st := newCountingStore(t)
	tb := newTables(t, st, nil)
	ctx := context.Background()
	id := record.TableID(-100791, 0, 6)
	if tb.group.Limit() >= 6 {
		t.Fatalf("the limit is %d", tb.group.Limit())
	}
	seat, a := nearEnd(t, st, testGame(t, "trickchef"), id, 2, 1, 8)
	playLast(t, tb, id, seat, a)
	runJobs(t, tb, id)
	done, before, err := tb.tx.Load(ctx, id)
	if err != nil || done.Phase != record.PhaseIdle {
		t.Fatalf("the game at table 6 did not end: %v %+v", err, done)
	}
	p := callback.Data{Op: callback.Again, Table: id, GameNo: done.GameNo, Word: done.GameID}
	results := 0
	for _, e := range queued(t, st, id) {
		if hasButtonData(e.Message, p.String()) {
			t.Errorf("a message to %d at table 6 offers «play again»: %q", e.ChatID, e.Message.Text)
		}
		if e.ChatID > 0 {
			results++
		}
	}
	if results == 0 {
		t.Error("no private result was queued: nothing looked at")
	}
	if view := tb.views; view.Againable(done) {
		t.Error("the page would offer «play again» at table 6")
	}
	_, _, err = tb.presses.pagePress(ctx, id, 77, models.User{ID: 1, FirstName: "Оля"}, p)
	if key, _ := refusal.Key(err); key != "error.stale" {
		t.Errorf("«play again» from the page at table 6: %v", err)
	}
	_, _, err = tb.tx.Transact(ctx, id, 78, func(t *record.Table, ch *txn.Change) error {
		return tb.presses.again(ctx, t, ch, press{p: p, who: &models.User{ID: 2, FirstName: "Ян"}, q: &models.CallbackQuery{}})
	})
	if key, _ := refusal.Key(err); key != "error.stale" {
		t.Errorf("«play again» in the chat at table 6: %v", err)
	}
	if tab, after, _ := tb.tx.Load(ctx, id); after != before || tab.Phase != record.PhaseIdle {
		t.Errorf("a refused «play again» changed table 6: version %d → %d, %s", before, after, tab.Phase)
	}
}

// TestCupTableStaysTheCups: a cup's table playing its round is the cup's
// alone, whatever the limit: past it (table 5 of 4) or within it (table 3,
// the limit raised since the round began). No /stop or /table finds it, an
// admin's press of a stop button forged with its id is refused (stopping
// it would leave the round waiting for a result that never comes: only
// /cup stop stops a cup), and a person who leaves the group keeps the seat
// for the cup to hand to a robot. Nothing changes the table.
func TestCupTableStaysTheCups(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	own := playingAt(t, tb, 1, 24*time.Hour)
	for _, n := range []int{5, 3} {
		cupGame := playingAt(t, tb, n, time.Minute)
		cupGame.CupOf = &record.CupTable{Host: record.TableID(own.ChatID, 0, record.CupHost), Cup: 1, Round: 1, Table: 1}
		save(t, tb, cupGame)
		_, before, err := tb.tx.Load(ctx, cupGame.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range tb.group.BusyTables(ctx, own.ID) {
			if b.ID == cupGame.ID {
				t.Errorf("table %d, a cup's, is among the group's busy tables", n)
			}
		}
		if got, _, err := tb.commands.named(ctx, own.ID, strconv.Itoa(n), nil); err != nil || got != own.ID {
			t.Errorf("«/stop %d» acts at %s, %v", n, got, err)
		}
		msg := &models.Message{ID: 50, Chat: models.Chat{ID: own.ChatID, Type: models.ChatTypeSupergroup}}
		admin := &models.User{ID: 900, FirstName: "Админ"}
		for _, arg := range []int{callback.StopAsk, 1} {
			p := callback.Data{Op: callback.Stop, Table: cupGame.ID, GameNo: cupGame.GameNo, Args: []int{arg}}
			_, _, err := tb.tx.Transact(ctx, cupGame.ID, 0, func(t *record.Table, ch *txn.Change) error {
				return tb.presses.stop(ctx, t, ch, press{p: p, who: admin, q: &models.CallbackQuery{From: *admin, Message: models.MaybeInaccessibleMessage{Message: msg}}, admin: true})
			})
			if key, _ := refusal.Key(err); key != "cup.stop_table" {
				t.Errorf("an admin's forged stop (%d) at table %d, a cup's: %v", arg, n, err)
			}
		}
		user := cupGame.Seats[0].UserID
		left := &models.ChatMemberUpdated{Chat: models.Chat{ID: own.ChatID, Type: models.ChatTypeSupergroup},
			NewChatMember: models.ChatMember{Type: models.ChatMemberTypeLeft, Left: &models.ChatMemberLeft{User: &models.User{ID: user}}}}
		if err := tb.belong.OnChatMember(ctx, int64(70+n), left); err != nil {
			t.Fatal(err)
		}
		if tab, after, _ := tb.tx.Load(ctx, cupGame.ID); after != before || tab.Phase != record.PhasePlaying || tab.SeatOf(user) < 0 {
			t.Errorf("table %d, a cup's, changed: version %d → %d, %s", n, before, after, tab.Phase)
		}
		cupGame.Phase = record.PhaseIdle // its round over: the table is left for the next
		save(t, tb, cupGame)
	}
}

// TestLeftoverGameAtTheCupsHost: a group's game at table 26, opened by the
// previous version under MAX_TABLES=26 (before the last table was kept for
// the cups' host), is still the group's after the upgrade: /stop and
// /table see it, «/stop 26» reaches it, a person who leaves the group
// loses their seat there. The host of a cup (idle, the cup in its record)
// stays the cup's.
func TestLeftoverGameAtTheCupsHost(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	own := playingAt(t, tb, 1, 24*time.Hour)
	left := playingAt(t, tb, record.CupHost, time.Minute)
	if !slices.ContainsFunc(tb.group.BusyTables(ctx, own.ID), func(b *record.Table) bool { return b.ID == left.ID }) {
		t.Error("the group's game left at table 26 is not among its busy tables")
	}
	if got, _, err := tb.commands.named(ctx, own.ID, strconv.Itoa(record.CupHost), nil); err != nil || got != left.ID {
		t.Errorf("«/stop 26» acts at %s, %v; want the game at table 26", got, err)
	}
	user := left.Seats[0].UserID
	gone := &models.ChatMemberUpdated{Chat: models.Chat{ID: own.ChatID, Type: models.ChatTypeSupergroup},
		NewChatMember: models.ChatMember{Type: models.ChatMemberTypeLeft, Left: &models.ChatMemberLeft{User: &models.User{ID: user}}}}
	if err := tb.belong.OnChatMember(ctx, 7, gone); err != nil {
		t.Fatal(err)
	}
	if load(t, tb, left.ID).SeatOf(user) >= 0 {
		t.Error("the game at table 26 still seats the person who left the group")
	}
	// A cup's host: idle, its cup in the record. «/stop 26» is no table.
	host := load(t, tb, left.ID)
	host.Phase, host.State, host.Seats, host.Cup = record.PhaseIdle, nil, nil, []byte(`{"v":1}`)
	save(t, tb, host)
	if !tb.group.CupsOwn(host) {
		t.Error("the cups' host is not the cup's")
	}
	if got, _, err := tb.commands.named(ctx, own.ID, strconv.Itoa(record.CupHost), nil); err != nil || got != own.ID {
		t.Errorf("«/stop 26» at the cups' host acts at %s, %v", got, err)
	}
}

// TestOldStopQuestionAtANowCupTable: /stop's question about a game at
// table 5 (past a lowered limit) outlives it, and a cup's round takes the
// table. Its buttons are stale, as at any table whose game is over: the
// press says so (and the question is disarmed), not that the table is the
// cup's, which it was not when asked.
func TestOldStopQuestionAtANowCupTable(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	own := playingAt(t, tb, 1, 24*time.Hour)
	cupGame := playingAt(t, tb, 5, time.Minute)
	cupGame.CupOf = &record.CupTable{Host: record.TableID(own.ChatID, 0, record.CupHost), Cup: 1, Round: 1, Table: 1}
	save(t, tb, cupGame)
	msg := &models.Message{ID: 50, Chat: models.Chat{ID: own.ChatID, Type: models.ChatTypeSupergroup}}
	admin := &models.User{ID: 900, FirstName: "Админ"}
	for _, arg := range []int{callback.StopAsk, 1, 0} {
		p := callback.Data{Op: callback.Stop, Table: cupGame.ID, GameNo: cupGame.GameNo - 1, Args: []int{arg}}
		_, _, err := tb.tx.Transact(ctx, cupGame.ID, 0, func(t *record.Table, ch *txn.Change) error {
			return tb.presses.stop(ctx, t, ch, press{p: p, who: admin, q: &models.CallbackQuery{From: *admin, Message: models.MaybeInaccessibleMessage{Message: msg}}, admin: true})
		})
		if key, _ := refusal.Key(err); key != "error.stale_game" {
			t.Errorf("an old stop question's button (%d) at table 5, now a cup's: %v", arg, err)
		}
	}
}
