package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/game"
)

// The time a deadline states is an upper bound of the time left: never
// less than is left (so it stays true while the message waits for its next
// edit), rounded up to less than one of its units over it, and in a unit
// the catalog has words for.
func TestDeadlineBoundNeverPromisesLess(t *testing.T) {
	cat := testCatalog(t)
	var lefts []time.Duration
	for d := time.Millisecond; d < 5*time.Hour; d = d*11/10 + time.Millisecond {
		lefts = append(lefts, d)
	}
	lefts = append(lefts, time.Minute, time.Minute+1, time.Hour, time.Hour+1, 59*time.Minute+time.Second)
	for _, left := range lefts {
		key, count, bound := deadlineBound(left)
		if bound < left {
			t.Errorf("%v left: states %v, less than is left", left, bound)
		}
		unit, countUnit := time.Minute, time.Minute
		switch {
		case bound > time.Hour:
			unit, countUnit = time.Hour, time.Hour
		case bound < time.Minute:
			unit, countUnit = deadlineStep, time.Second
		}
		if bound-left >= unit {
			t.Errorf("%v left: states %v, a whole %v too much", left, bound, unit)
		}
		if (count == 0) != (bound == time.Minute) || count != 0 && time.Duration(count)*countUnit != bound {
			t.Errorf("%v left: count %d does not say %v", left, count, bound)
		}
		for _, lang := range cat.Langs() {
			if !cat.Has(key) || strings.Contains(deadlineLeft(NewLoc(cat, lang), left), "{{") {
				t.Errorf("%v left: %s has no text in %s", left, key, lang)
			}
		}
	}
}

// A rendered deadline is the bound of the time left at the view's clock,
// and nothing once the time is up or for a view without a clock.
func TestDeadlineTextAtTheViewsClock(t *testing.T) {
	due := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tab := &Table{Phase: PhasePlaying, Seats: []Seat{{UserID: 1, Name: "Оля", Due: due}, {UserID: 2, Name: "Серёжа"}}}
	l := NewLoc(testCatalog(t), "ru")
	at := func(now time.Time) string {
		b := &Bot{now: func() time.Time { return now }}
		return DeadlineText(l, b.view(tab), 0)
	}
	for _, tc := range []struct {
		left time.Duration
		want string // "" or the bound's text
	}{
		{90 * time.Minute, deadlineLeft(l, 2*time.Hour)},
		{61 * time.Second, deadlineLeft(l, 2*time.Minute)},
		{time.Minute, deadlineLeft(l, time.Minute)},
		{56 * time.Second, deadlineLeft(l, time.Minute)},
		{20 * time.Second, deadlineLeft(l, 20*time.Second)},
		{time.Second, deadlineLeft(l, 5*time.Second)},
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
	if got := DeadlineText(l, tab.View(), 0); got != "" {
		t.Errorf("a view without a clock shows %q", got)
	}
	b := &Bot{now: func() time.Time { return due.Add(-time.Minute) }}
	if got := DeadlineText(l, b.view(tab), 1); got != "" {
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
	tab := &Table{ID: "-1", ChatID: -1, Lang: "ru", Phase: PhasePlaying, Kind: g.ID(), Seed: 7, Started: now,
		Seats: []Seat{{UserID: 1, Name: "Оля"}, {UserID: 2, Name: "Серёжа"}, {UserID: 3, Name: "Маша"}}}
	st, err := g.Start(tab.View())
	if err != nil {
		t.Fatal(err)
	}
	if tab.Game, err = st.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	move := func(auto bool) game.Seat {
		t.Helper()
		st, err := g.Decode(tab.Game)
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
	if got := IdleFor(b.view(tab), own); got != 15*time.Second {
		t.Errorf("after their own move 15 s ago: idle %v", got)
	}
	if got := IdleFor(b.view(tab), robot); got != 35*time.Second || !tab.Seats[robot].Acted.IsZero() {
		t.Errorf("the bot moved for them, the deal 35 s ago: idle %v, acted %v", got, tab.Seats[robot].Acted)
	}
	if got := IdleFor(tab.View(), own); got != 0 {
		t.Errorf("a view without a clock: idle %v", got)
	}
	tab.Phase = PhaseIdle
	if got := IdleFor(b.view(tab), own); got != 0 {
		t.Errorf("a game no longer running: idle %v", got)
	}
}
