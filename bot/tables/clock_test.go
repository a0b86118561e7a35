package tables

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/game"
)

// A person's own move records when they acted; the bot's move for them
// does not. IdleFor counts from that, or from the deal before any move,
// at the view's clock. (That a deadline is drawn at the view's clock is
// view's: TestDeadlineTextAtTheViewsClock there.)
func TestIdleForCountsFromTheLastOwnMove(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tb := newTables(t, nil, func() time.Time { return now })
	g := testGame(t, "trickchef")
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
		if err := tb.moves.Apply(tab, &txn.Change{}, g, st, s, st.Legal(s)[0], auto); err != nil {
			t.Fatal(err)
		}
		return s
	}
	now = now.Add(20 * time.Second)
	own := move(false)
	now = now.Add(5 * time.Second)
	robot := move(true)
	now = now.Add(10 * time.Second)
	if got := adapter.IdleFor(tb.views.AdapterView(tab), own); got != 15*time.Second {
		t.Errorf("after their own move 15 s ago: idle %v", got)
	}
	if got := adapter.IdleFor(tb.views.AdapterView(tab), robot); got != 35*time.Second || !tab.Seats[robot].Acted.IsZero() {
		t.Errorf("the bot moved for them, the deal 35 s ago: idle %v, acted %v", got, tab.Seats[robot].Acted)
	}
	if got := adapter.IdleFor(adapter.View(tab), own); got != 0 {
		t.Errorf("a view without a clock: idle %v", got)
	}
	tab.Phase = record.PhaseIdle
	if got := adapter.IdleFor(tb.views.AdapterView(tab), own); got != 0 {
		t.Errorf("a game no longer running: idle %v", got)
	}
}
