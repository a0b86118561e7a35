package deliver

import (
	"context"
	"strconv"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
)

// TestEarliestDeadlineFirst: with the token's budget used up, waiting
// calls go by deadline — a prompt before a table edit that asked earlier,
// cleanup last — and a call the token refused has not spent its chat's
// spacing.
func TestEarliestDeadlineFirst(t *testing.T) {
	st := testBolt(t)
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	now := start
	d := budgetDelivery(st, nil, &now, Limits{
		GroupInterval: 3 * time.Second, PrivateInterval: time.Millisecond, GlobalPerSecond: 2, GlobalSlice: time.Second,
	})
	ctx := context.Background()
	at := func(ms int) { now = start.Add(time.Duration(ms) * time.Millisecond) }
	type call struct {
		chat     int64
		prio     priority
		name     string
		patience time.Duration
	}
	var (
		cleanup = call{4, prioCleanup, "t1/clean/hand:1:0", cleanupPatience}
		table   = call{-5, prioTable, "t2/table:1", tablePatience}
		prompt  = call{6, prioPrompt, "t3/hand:1:2", promptPatience}
	)
	// Each call's deadline counts from its first try, as the tries below
	// are the first after each change.
	first := map[string]time.Time{}
	goes := func(c call) bool {
		if _, ok := first[c.name]; !ok {
			first[c.name] = now
		}
		return d.budget.admitFor(ctx, c.chat, c.prio, c.name, first[c.name].Add(c.patience)).IsZero()
	}

	// The budget (2 a second) is used at 0 and 500 ms.
	if !goes(call{2, prioPrompt, "t0/hand:1:0", promptPatience}) {
		t.Fatal("refused with the budget unused")
	}
	at(500)
	if !goes(call{3, prioPrompt, "t0/hand:1:1", promptPatience}) {
		t.Fatal("refused with half the budget unused")
	}
	at(600)
	if goes(cleanup) {
		t.Fatal("cleanup went over the budget")
	}
	at(700)
	if goes(table) {
		t.Fatal("a table edit went over the budget")
	}
	at(800)
	if goes(prompt) {
		t.Fatal("a prompt went over the budget")
	}
	// At 1 s one call fits: the prompt's deadline (0.8 + 0.5 s) is the
	// earliest, though it asked last.
	at(1000)
	if goes(cleanup) || goes(table) {
		t.Fatal("a later deadline took the prompt's turn")
	}
	if !goes(prompt) {
		t.Fatal("the prompt refused at its turn")
	}
	// At 1.5 s the table edit goes: the token's refusals did not spend
	// the group's 3 s spacing.
	at(1500)
	if goes(cleanup) {
		t.Fatal("cleanup took the table edit's turn")
	}
	if !goes(table) {
		t.Fatal("the table edit refused at its turn")
	}
	at(2000)
	if !goes(cleanup) {
		t.Fatal("cleanup refused once everything before it went")
	}
	// The group's spacing counts from the edit that went.
	at(2100)
	if goes(call{-5, prioTable, "t2/table:2", tablePatience}) {
		t.Fatal("a group edit inside the group's spacing")
	}
}

// TestRunningHotIsReported: over 80% of the budget for a minute gives one
// log line, and again a minute later if it lasts; gauges follow.
func TestRunningHotIsReported(t *testing.T) {
	u := newTokenLoad(10)
	var hot []float64
	var waitingTables int
	u.onHot = func(use float64) { hot = append(hot, use) }
	u.gauges = func(_ float64, _ [4]int, tables int) { waitingTables = tables }
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	busy := func(at time.Time) {
		for i := 0; i < 9; i++ {
			u.admitted(at)
		}
	}
	for s := 0; s <= 130; s++ {
		at := now.Add(time.Duration(s) * time.Second)
		busy(at)
		u.report("t1", [4]int{0, 1, 0, 0}, at)
	}
	if len(hot) != 2 {
		t.Fatalf("%d hot reports over 130 busy seconds, want 2 (at 60 s and 120 s)", len(hot))
	}
	if waitingTables != 1 {
		t.Fatalf("tables waiting = %d, want 1", waitingTables)
	}
	u.report("t1", [4]int{}, now.Add(131*time.Second))
	if waitingTables != 0 {
		t.Fatalf("tables waiting = %d after the table caught up, want 0", waitingTables)
	}
}

// disarmRecorder is a Bot API client that records the messages whose
// buttons were taken away.
type disarmRecorder struct {
	Telegram
	disarmed []int
}

func (r *disarmRecorder) EditMessageReplyMarkup(_ context.Context, p *tgbot.EditMessageReplyMarkupParams) (*models.Message, error) {
	r.disarmed = append(r.disarmed, p.MessageID)
	return &models.Message{ID: p.MessageID}, nil
}

// TestHandStripTakesOnlySpareBudget: while a game is on, taking the
// buttons off a replaced hand message never takes a turn a waiting call
// wants — even a table edit with a later deadline, of another replica —
// nor goes over the token's budget; it goes once the budget is spare, and
// the record forgets it.
func TestHandStripTakesOnlySpareBudget(t *testing.T) {
	st := testBolt(t)
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	now := start
	limits := Limits{GroupInterval: 3 * time.Second, PrivateInterval: time.Millisecond, GlobalPerSecond: 1, GlobalSlice: time.Second}
	tg := &disarmRecorder{}
	d := budgetDelivery(st, tg, &now, limits)
	// Another replica on the same token: its calls fill the token's line
	// without counting in this process's own use.
	other := budgetDelivery(st, nil, &now, limits)
	ctx := context.Background()
	at := func(ms int) { now = start.Add(time.Duration(ms) * time.Millisecond) }
	tab := &record.Table{ID: "-5", ChatID: -5, Phase: record.PhasePlaying, GameNo: 1, Seats: []record.Seat{{UserID: 7, Name: "Аня"}}}
	hand := view.Hand(1, 0)
	if err := st.SetMessage(ctx, tab.ID, hand, view.MessageRecord{ID: 11, Strip: []int{10}, Buttons: true}.String()); err != nil {
		t.Fatal(err)
	}
	disarm := func() {
		var waiting [4]int
		records, err := d.store.Messages(ctx, tab.ID)
		if err != nil {
			t.Fatal(err)
		}
		d.disarmReplaced(ctx, tab, records, false, &waiting)
	}
	// The token's one call of this second is used; a table edit waits in
	// line, due after the disarming would be.
	if !other.budget.admitFor(ctx, 2, prioPrompt, "t0/hand:1:0", now.Add(promptPatience)).IsZero() {
		t.Fatal("refused with the budget unused")
	}
	at(100)
	edit := now.Add(tablePatience)
	if other.budget.admitFor(ctx, -9, prioTable, "t1/table:1", edit).IsZero() {
		t.Fatal("a table edit went over the budget")
	}
	at(200)
	disarm()
	at(1000)
	disarm()
	if len(tg.disarmed) != 0 {
		t.Fatalf("the disarming went over the budget or before a waiting table edit: %v", tg.disarmed)
	}
	if !other.budget.admitFor(ctx, -9, prioTable, "t1/table:1", edit).IsZero() {
		t.Fatal("the table edit refused at its turn")
	}
	at(2000)
	disarm()
	if len(tg.disarmed) != 1 || tg.disarmed[0] != 10 {
		t.Fatalf("with spare budget disarmed %v, want [10]", tg.disarmed)
	}
	recs, err := st.Messages(ctx, tab.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec := view.ParseMessageRecord(recs[hand]); len(rec.Strip) != 0 || rec.ID != 11 {
		t.Fatalf("record after the disarming: %+v", rec)
	}
}

// TestBusyTokenDropsHandStrips: while this process uses half or more of
// the token's calls a second, a hand's pending disarming is given up without
// a call (its message stays listed for the batch deletion, and presses on
// it stay stale); a disarming kept for a lull would take the lull's calls from
// the next prompts.
func TestBusyTokenDropsHandStrips(t *testing.T) {
	st := testBolt(t)
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	tg := &disarmRecorder{}
	d := budgetDelivery(st, tg, &now, Limits{
		GroupInterval: 3 * time.Second, PrivateInterval: time.Millisecond, GlobalPerSecond: 4, GlobalSlice: time.Second,
	})
	ctx := context.Background()
	for i := range 2 {
		if !d.budget.admitFor(ctx, int64(100+i), prioPrompt, "prompt/"+strconv.Itoa(i), now.Add(promptPatience)).IsZero() {
			t.Fatalf("prompt %d refused", i)
		}
	}
	tab := &record.Table{ID: "-5", ChatID: -5, Phase: record.PhasePlaying, GameNo: 1, Seats: []record.Seat{{UserID: 7, Name: "Аня"}}}
	hand := view.Hand(1, 0)
	if err := st.SetMessage(ctx, tab.ID, hand, view.MessageRecord{ID: 11, Strip: []int{10}, Stale: []int{10}, StaleSince: 1, Buttons: true}.String()); err != nil {
		t.Fatal(err)
	}
	records, err := st.Messages(ctx, tab.ID)
	if err != nil {
		t.Fatal(err)
	}
	var waiting [4]int
	d.disarmReplaced(ctx, tab, records, false, &waiting)
	if len(tg.disarmed) != 0 {
		t.Fatalf("a busy token stripped %v", tg.disarmed)
	}
	after, err := st.Messages(ctx, tab.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec := view.ParseMessageRecord(after[hand])
	if len(rec.Strip) != 0 || !rec.Replaced(10) || len(rec.Stale) != 1 {
		t.Fatalf("record after a busy disarming: %+v; want it given up, the message still to delete", rec)
	}
}

// TestSpareCallsLeaveHalfASlice: a call nobody waits for (no name: a
// strip, a cleanup) takes the token's budget only while its slice is less
// than half used, so a prompt that arrives next still finds room.
func TestSpareCallsLeaveHalfASlice(t *testing.T) {
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	now := start
	d := budgetDelivery(testBolt(t), nil, &now, Limits{
		GroupInterval: 3 * time.Second, PrivateInterval: time.Millisecond, GlobalPerSecond: 40, GlobalSlice: 100 * time.Millisecond,
	})
	ctx := context.Background()
	spare := func(chat int64) bool {
		return d.budget.admitFor(ctx, chat, prioCleanup, "", now.Add(time.Minute)).IsZero()
	}
	if !spare(1) || !spare(2) {
		t.Fatal("spare calls refused with the slice unused")
	}
	if spare(3) {
		t.Fatal("a spare call took more than half the slice")
	}
	for i, chat := range []int64{4, 5} {
		if !d.budget.admitFor(ctx, chat, prioPrompt, "prompt/"+strconv.Itoa(i), now.Add(promptPatience)).IsZero() {
			t.Fatalf("prompt %d refused: the spare calls left no room", i)
		}
	}
	now = now.Add(150 * time.Millisecond)
	if !spare(6) {
		t.Fatal("a spare call refused in a fresh slice")
	}
}

// TestSpareCallsWaitWhileTheTokenRunsHot: with half or more of the
// token's calls of the last second taken, a call nobody waits for is not made even in
// an empty slice: a busy bot's budget goes to its players' moves.
func TestSpareCallsWaitWhileTheTokenRunsHot(t *testing.T) {
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	now := start
	d := budgetDelivery(testBolt(t), nil, &now, Limits{
		GroupInterval: 3 * time.Second, PrivateInterval: time.Millisecond, GlobalPerSecond: 10, GlobalSlice: 100 * time.Millisecond,
	})
	ctx := context.Background()
	for i := range 8 {
		now = start.Add(time.Duration(i) * 100 * time.Millisecond)
		if !d.budget.admitFor(ctx, int64(100+i), prioPrompt, "prompt/"+strconv.Itoa(i), now.Add(promptPatience)).IsZero() {
			t.Fatalf("prompt %d refused", i)
		}
	}
	now = start.Add(850 * time.Millisecond) // a slice of its own, empty
	if d.budget.admitFor(ctx, 7, prioCleanup, "", now.Add(time.Minute)).IsZero() {
		t.Fatal("a spare call went with 8 of the token's 10 calls a second taken")
	}
	now = start.Add(2 * time.Second)
	if !d.budget.admitFor(ctx, 7, prioCleanup, "", now.Add(time.Minute)).IsZero() {
		t.Fatal("a spare call refused once the token cooled down")
	}
}
