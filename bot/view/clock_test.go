package view

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
)

// A rendered deadline is the bound of the time left at the view's clock,
// and nothing once the time is up or for a view without a clock.
func TestDeadlineTextAtTheViewsClock(t *testing.T) {
	due := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tab := &record.Table{Phase: record.PhasePlaying, Seats: []record.Seat{{UserID: 1, Name: "Оля", Due: due}, {UserID: 2, Name: "Серёжа"}}}
	l := adapter.NewLoc(testCatalog(t), "ru")
	at := func(now time.Time) string {
		r := New(Config{}, nil, nil, func() time.Time { return now }, zerolog.Nop())
		return adapter.DeadlineText(l, r.AdapterView(tab), 0)
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
	r := New(Config{}, nil, nil, func() time.Time { return due.Add(-time.Minute) }, zerolog.Nop())
	if got := adapter.DeadlineText(l, r.AdapterView(tab), 1); got != "" {
		t.Errorf("a seat without a timer shows %q", got)
	}
}
