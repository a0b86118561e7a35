package tables

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// testClock is a clock a test sets.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *testClock) Set(t time.Time)     { c.mu.Lock(); c.now = t; c.mu.Unlock() }
func (c *testClock) Add(d time.Duration) { c.Set(c.Now().Add(d)) }
func yekt(t testing.TB) *time.Location   { return mustZone(t, "Asia/Yekaterinburg") }
func at(loc *time.Location, d, h, m int) time.Time {
	return time.Date(2026, 11, d, h, m, 0, 0, loc)
}

func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// longTable is a Трик-н-Шеф table of a group in Yekaterinburg at 24 hours
// a move, Оля (seat 0, to play first) and two robots, dealt and saved in
// the tables' store at the clock's time: its timers as the bot sets them.
func longTable(t *testing.T, tb *Tables, turn time.Duration) *record.Table {
	t.Helper()
	g := testGame(t, "trickchef")
	tab, st := golden.Table(t, g, 3, 2, "novice", 9, nil)
	tab.TurnTime, tab.Zone, tab.Started = turn, "Asia/Yekaterinburg", tb.now()
	tab.StopTimers()
	tb.moves.Schedule(tab, g, st, true)
	save(t, tb, tab)
	return tab
}

// save writes tab as the table's record, as a change would.
func save(t *testing.T, tb *Tables, tab *record.Table) {
	t.Helper()
	if _, _, err := tb.tx.Transact(context.Background(), tab.ID, 0, func(cur *record.Table, ch *txn.Change) error {
		*cur = *tab
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// outboxOf is what table id's outbox holds, decoded.
func outboxOf(t *testing.T, tb *Tables, id string) []outbox.Entry {
	t.Helper()
	envs, err := tb.store.Outbox(context.Background(), id, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []outbox.Entry
	for _, e := range envs {
		m, _, err := outbox.Decode(e.Data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// TestLongTurn: at 24 hours a move, a turn begun on Monday at 21:00 in
// Yekaterinburg runs 2 hours that evening, 14 on Tuesday and 8 on
// Wednesday: it is due on Wednesday at 17:00, past two nights, and says so
// on the table and the hand as a clock time; the reminder comes with a
// quarter of the time left (6 of the 24 hours), Wednesday at 11:00. The
// tables' timers fire nothing before it, the reminder once at it — one
// private message to the person naming the group — and the timeout at
// the deadline.
func TestLongTurn(t *testing.T) {
	loc := yekt(t)
	clock := &testClock{now: at(loc, 23, 21, 0)}
	tb := newTables(t, nil, clock.Now)
	ctx := context.Background()
	tab := longTable(t, tb, 24*time.Hour)
	s := tab.Seats[0]
	if want := at(loc, 25, 17, 0); !s.Due.Equal(want) || s.Turn == nil || !s.Turn.Night || !s.Turn.Remind.Equal(at(loc, 25, 11, 0)) {
		t.Fatalf("the turn: due %v, %+v; want due %v, the night skipped, reminded at 11:00", s.Due.In(loc), s.Turn, want)
	}
	if tab.Seats[1].Turn != nil || !tab.Seats[1].Due.IsZero() {
		t.Errorf("a robot not to act has a turn: %+v", tab.Seats[1])
	}
	l := tb.views.Loc("ru")
	want := " " + l.T("table.deadline_night", "Until", l.T("until.day", "Day", l.T("until.wed"), "Time", "17:00"))
	if got := adapter.DeadlineText(l, tb.views.AdapterView(tab), 0); got != want {
		t.Errorf("the deadline says %q, want %q", got, want)
	}
	hand, err := tb.views.Seat(tab, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !containsLine(hand.Text, want[1:]) {
		t.Errorf("the hand lacks %q:\n%s", want[1:], hand.Text)
	}
	if table := tb.views.Group(tab); !containsLine(table.Text, l.T("table.long", "Turn", view.TurnTimeText(l, 24*time.Hour), "Night", "23:00–09:00", "Zone", l.T("zone.yekaterinburg"))) {
		t.Errorf("the table does not say it is the long game:\n%s", table.Text)
	}

	clock.Set(at(loc, 25, 10, 59))
	if err := tb.clock.Fire(ctx, tab.ID); !errors.Is(err, refusal.ErrNoChange) {
		t.Fatalf("a minute before the reminder the timers did something: %v", err)
	}
	clock.Set(at(loc, 25, 11, 0))
	if err := tb.clock.Fire(ctx, tab.ID); err != nil {
		t.Fatal(err)
	}
	if err := tb.clock.Fire(ctx, tab.ID); !errors.Is(err, refusal.ErrNoChange) {
		t.Fatalf("a reminder fired twice: %v", err)
	}
	out := outboxOf(t, tb, tab.ID)
	if len(out) != 1 || out[0].ChatID != 1 || out[0].Message.Text != tb.views.Reminder(load(t, tb, tab.ID), 0).Text {
		t.Fatalf("the outbox after the reminder: %+v", out)
	}
	if got := out[0].Message.Text; got != l.T("remind.text", "Game", l.T("trickchef.title"), "Title", "Друзья", "Until", l.T("until.today", "Time", "17:00")) {
		t.Errorf("the reminder says %q", got)
	}
	after := load(t, tb, tab.ID)
	if next := after.NextTimer(); !next.Equal(at(loc, 25, 17, 0)) {
		t.Errorf("after the reminder the next timer is %v, want the deadline", next.In(loc))
	}
	clock.Set(at(loc, 25, 17, 0))
	if err := tb.clock.Fire(ctx, tab.ID); err != nil {
		t.Fatal(err)
	}
	after = load(t, tb, tab.ID)
	if after.Seats[0].Timeouts != 1 || len(after.Log) == 0 || !after.Log[0].Auto || after.Seats[0].Turn != nil {
		t.Errorf("at the deadline: timeouts %d, log %v, turn %+v", after.Seats[0].Timeouts, after.Log, after.Seats[0].Turn)
	}
	if n := len(outboxOf(t, tb, tab.ID)); n != 1 {
		t.Errorf("the timeout queued %d more messages", n-1)
	}
}

// transactNamed is transact on table id, its error alone.
func (tb *Tables) transactNamed(ctx context.Context, id string, fn func(t *record.Table, ch *txn.Change) error) error {
	_, _, err := tb.tx.Transact(ctx, id, 0, fn)
	return err
}

// load is table id as last committed.
func load(t *testing.T, tb *Tables, id string) *record.Table {
	t.Helper()
	tab, _, err := tb.tx.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestNoReminderForAMoveMade: a person who moved before their reminder
// gets none, and the robots move at their own pace meanwhile; a turn that
// ended with the seat still to act (a record whose nonce moved on) reminds
// nobody either.
func TestNoReminderForAMoveMade(t *testing.T) {
	loc := yekt(t)
	clock := &testClock{now: at(loc, 23, 10, 0)}
	tb := newTables(t, nil, clock.Now)
	ctx := context.Background()
	tab := longTable(t, tb, time.Hour)
	if r := tab.Seats[0].RemindAt(); !r.Equal(at(loc, 23, 10, 45)) {
		t.Fatalf("an hour's reminder at %v, want 10:45", r.In(loc))
	}
	g, st, err := txn.Decode(tb.views, tab)
	if err != nil {
		t.Fatal(err)
	}
	clock.Set(at(loc, 23, 10, 30))
	if _, _, err := tb.tx.Transact(ctx, tab.ID, 0, func(cur *record.Table, ch *txn.Change) error {
		return tb.moves.Apply(cur, ch, g, st, 0, st.Legal(0)[0], false)
	}); err != nil {
		t.Fatal(err)
	}
	// The robots (no pause in these tables) move till it is Оля's turn again.
	for i := 0; i < 10 && !slices.Contains(mustState(t, tb, load(t, tb, tab.ID)).ToAct(), 0); i++ {
		if err := tb.clock.Fire(ctx, tab.ID); err != nil {
			t.Fatal(err)
		}
	}
	clock.Set(at(loc, 23, 10, 45))
	if err := refusal.Settle(tb.clock.Fire(ctx, tab.ID)); err != nil {
		t.Fatal(err)
	}
	for _, e := range outboxOf(t, tb, tab.ID) {
		if e.ChatID == 1 {
			t.Errorf("reminded of a move made: %q", e.Text)
		}
	}
	// Оля's next turn is a new one, with a reminder of its own.
	if s := load(t, tb, tab.ID).Seats[0]; s.Turn == nil || !s.RemindAt().Equal(at(loc, 23, 11, 15)) {
		t.Errorf("her next turn: %+v, reminded at %v", s.Turn, s.RemindAt().In(loc))
	}

	stale := load(t, tb, tab.ID)
	stale.Seats[0].Nonce++ // her turn moved on, the record's reminder did not
	ch := &txn.Change{}
	if tb.moves.Remind(stale, ch, mustState(t, tb, stale), at(loc, 23, 12, 0)); len(ch.Outbox) != 0 {
		t.Errorf("a reminder of another turn: %+v", ch.Outbox)
	}
}

func mustState(t *testing.T, tb *Tables, tab *record.Table) game.State {
	t.Helper()
	_, st, err := txn.Decode(tb.views, tab)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestAutoToldOnce: in a long game, a person whose time runs out twice in
// a row is played for by the bot, and the group is told so once; a quick
// game's group is not (its table says so as it always did).
func TestAutoToldOnce(t *testing.T) {
	for _, turn := range []time.Duration{12 * time.Hour, time.Minute} {
		loc := yekt(t)
		clock := &testClock{now: at(loc, 23, 12, 0)}
		tb := newTables(t, nil, clock.Now)
		ctx := context.Background()
		tab := longTable(t, tb, turn)
		told := 0
		for range 40 {
			cur := load(t, tb, tab.ID)
			if cur.Phase != record.PhasePlaying {
				break
			}
			clock.Set(cur.NextTimer())
			if err := refusal.Settle(tb.clock.Fire(ctx, tab.ID)); err != nil {
				t.Fatal(err)
			}
		}
		l := tb.views.Loc("ru")
		for _, e := range outboxOf(t, tb, tab.ID) {
			if e.ChatID == tab.ChatID && e.Text == l.T("auto.group", "Name", "Оля") {
				told++
			}
		}
		if s := load(t, tb, tab.ID).Seats[0]; !s.Auto() {
			t.Fatalf("%v: Оля is not played for after 40 timers: %+v", turn, s)
		}
		if want := map[bool]int{true: 1, false: 0}[record.Long(turn)]; told != want {
			t.Errorf("%v a move: the group was told %d times, want %d", turn, told, want)
		}
	}
}

// TestShortTurnsAsTheyWere: a time for a move under an hour, a game with
// clocks of its own, and a robot keep now + the time and no long turn.
func TestShortTurnsAsTheyWere(t *testing.T) {
	clock := &testClock{now: at(time.UTC, 23, 22, 30)}
	tb := newTables(t, nil, clock.Now)
	tab := longTable(t, tb, 3*time.Minute)
	if s := tab.Seats[0]; !s.Due.Equal(clock.Now().Add(3*time.Minute)) || s.Turn != nil {
		t.Errorf("3 minutes at 22:30: %+v", s)
	}
	ck := testGame(t, "chekharda")
	ctab, st := golden.Table(t, ck, 3, 0, "", 9, nil)
	ctab.TurnTime = 24 * time.Hour
	ctab.StopTimers()
	tb.moves.Schedule(ctab, ck, st, true)
	for _, s := range ctab.Seats {
		if s.Turn != nil {
			t.Errorf("Чехарда's own clocks made a long turn: %+v", s)
		}
	}
}

// TestLobbyZone: a long time for a move shows the group's zone in the
// lobby with a button; it shows the zones (and the seats' row, so people
// still sit down), the creator picks one, kept in the record; a quick time
// shows no zone, and the button is refused; only the creator may press it.
func TestLobbyZone(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	g := testGame(t, "trickchef")
	tab := lobbyOf(g, 1)
	l := tb.views.Loc("ru")
	press := func(user int64, args ...int) (*txn.Change, error) {
		ch := &txn.Change{}
		return ch, tb.lobby.OnLobby(ctx, tab, ch, callback.Data{Op: callback.Lobby, Table: tab.ID, GameNo: tab.GameNo, Args: append([]int{callback.LobbyZone}, args...)}, &models.User{ID: user}, false)
	}
	zoneButton := l.T("lobby.zone_button", "Zone", l.T("zone.moscow"))
	if hasButtonText(tb.views.Group(tab), zoneButton) {
		t.Error("a quick lobby offers a time zone")
	}
	if _, err := press(1); err == nil {
		t.Error("the zone of a quick lobby was shown")
	}
	tab.TurnTime = 12 * time.Hour
	if !hasButtonText(tb.views.Group(tab), zoneButton) {
		t.Errorf("a long lobby lacks %q", zoneButton)
	}
	if _, err := press(2); err == nil {
		t.Error("someone else opened the zones")
	}
	if _, err := press(1); err != nil || !tab.ZonePick {
		t.Fatalf("the zones: %v, shown %v", err, tab.ZonePick)
	}
	m := tb.views.Group(tab)
	if !hasButtonText(m, l.T("lobby.join_button")) || !hasButtonText(m, "• "+l.T("zone.moscow")) || !hasButtonText(m, l.T("zone.kamchatka")) {
		t.Errorf("the zones' lobby: %+v", m.Keyboard)
	}
	i := slices.IndexFunc(record.Zones(), func(z record.Zone) bool { return z.Key == "irkutsk" })
	ch, err := press(1, i)
	if err != nil || tab.Zone != "Asia/Irkutsk" || tab.ZonePick || ch.Answer != l.T("lobby.zone_set", "Zone", l.T("zone.irkutsk")) {
		t.Fatalf("picked Irkutsk: %v, zone %q, shown %v, %q", err, tab.Zone, tab.ZonePick, ch.Answer)
	}
	if _, err := press(1, len(record.Zones())); err == nil || tab.Zone != "Asia/Irkutsk" {
		t.Errorf("a zone out of range: %v, zone %q", err, tab.Zone)
	}
}
