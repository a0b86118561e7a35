package bot

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// A rendered deadline is the bound of the time left at the view's clock,
// and nothing once the time is up or for a view without a clock.
func TestDeadlineTextAtTheViewsClock(t *testing.T) {
	due := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tab := &record.Table{Phase: record.PhasePlaying, Seats: []record.Seat{{UserID: 1, Name: "Оля", Due: due}, {UserID: 2, Name: "Серёжа"}}}
	l := adapter.NewLoc(testCatalog(t), "ru")
	at := func(now time.Time) string {
		b := &Bot{now: func() time.Time { return now }}
		return adapter.DeadlineText(l, b.adapterView(tab), 0)
	}
	for _, tc := range []struct {
		left time.Duration
		want string // "" or the bound's text
	}{
		{90 * time.Minute, adapter.DeadlineLeft(l, 2*time.Hour)},
		{61 * time.Second, adapter.DeadlineLeft(l, 2*time.Minute)},
		{time.Minute, adapter.DeadlineLeft(l, time.Minute)},
		{56 * time.Second, adapter.DeadlineLeft(l, time.Minute)},
		{20 * time.Second, adapter.DeadlineLeft(l, 20*time.Second)},
		{time.Second, adapter.DeadlineLeft(l, 5*time.Second)},
		{0, ""},
		{-time.Second, ""},
	} {
		got := at(due.Add(-tc.left))
		if tc.want != "" {
			tc.want = " " + tc.want
		}
		if got != tc.want {
			t.Errorf("%v left: %q, want %q", tc.left, got, tc.want)
		}
	}
	if got := adapter.DeadlineText(l, adapter.View(tab), 0); got != "" {
		t.Errorf("a view without a clock shows %q", got)
	}
	b := &Bot{now: func() time.Time { return due.Add(-time.Minute) }}
	if got := adapter.DeadlineText(l, b.adapterView(tab), 1); got != "" {
		t.Errorf("a seat without a timer shows %q", got)
	}
}

// A person's own move records when they acted; the bot's move for them
// does not. IdleFor counts from that, or from the deal before any move,
// at the view's clock.
func TestIdleForCountsFromTheLastOwnMove(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	g := testGame(t, "trickchef")
	b := &Bot{tr: testCatalog(t), games: &registry{games: testGames()}, now: func() time.Time { return now }}
	tab := &record.Table{ID: "-1", ChatID: -1, Lang: "ru", Phase: record.PhasePlaying, GameID: g.ID(), Seed: 7, Started: now,
		Seats: []record.Seat{{UserID: 1, Name: "Оля"}, {UserID: 2, Name: "Серёжа"}, {UserID: 3, Name: "Маша"}}}
	st, err := g.Start(adapter.View(tab))
	if err != nil {
		t.Fatal(err)
	}
	if tab.State, err = st.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	move := func(auto bool) game.Seat {
		t.Helper()
		st, err := g.Decode(tab.State)
		if err != nil {
			t.Fatal(err)
		}
		s := st.ToAct()[0]
		if err := b.apply(tab, &change{}, g, st, s, st.Legal(s)[0], auto); err != nil {
			t.Fatal(err)
		}
		return s
	}
	now = now.Add(20 * time.Second)
	own := move(false)
	now = now.Add(5 * time.Second)
	robot := move(true)
	now = now.Add(10 * time.Second)
	if got := adapter.IdleFor(b.adapterView(tab), own); got != 15*time.Second {
		t.Errorf("after their own move 15 s ago: idle %v", got)
	}
	if got := adapter.IdleFor(b.adapterView(tab), robot); got != 35*time.Second || !tab.Seats[robot].Acted.IsZero() {
		t.Errorf("the bot moved for them, the deal 35 s ago: idle %v, acted %v", got, tab.Seats[robot].Acted)
	}
	if got := adapter.IdleFor(adapter.View(tab), own); got != 0 {
		t.Errorf("a view without a clock: idle %v", got)
	}
	tab.Phase = record.PhaseIdle
	if got := adapter.IdleFor(b.adapterView(tab), own); got != 0 {
		t.Errorf("a game no longer running: idle %v", got)
	}
}
