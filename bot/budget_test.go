package bot

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
)

// TestPrioritiesShareTheBudget: with the token's budget half used, cleanup
// (50%) must wait while prompts still go, and prompts may use it all.
func TestPrioritiesShareTheBudget(t *testing.T) {
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "b.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	b := &Bot{store: st, now: func() time.Time { return now }, cfg: Config{Limits: Limits{
		GroupInterval: 3 * time.Second, PrivateInterval: time.Millisecond, GlobalPerSecond: 10, GlobalWindow: time.Second,
	}}}
	b.budget = newBudget(10)
	ctx := context.Background()
	sent := map[priority]int{}
	// Each call goes to its own private chat, so only the token limits.
	chat := int64(1)
	try := func(p priority) bool {
		chat++
		if b.admitFor(ctx, chat, p).IsZero() {
			sent[p]++
			return true
		}
		return false
	}
	for i := 0; i < 5; i++ {
		if !try(prioCleanup) {
			t.Fatalf("cleanup call %d refused with the budget unused", i+1)
		}
	}
	if try(prioCleanup) {
		t.Fatal("cleanup went over its half of the budget")
	}
	// Table edits (90% = 9) still fit after the 5 cleanup calls.
	if !try(prioTable) {
		t.Fatal("a table edit refused with room left in its share")
	}
	for try(prioPrompt) {
	}
	if total := sent[prioCleanup] + sent[prioTable] + sent[prioAnnounce] + sent[prioPrompt]; total != 10 {
		t.Fatalf("%d calls in one window, want the whole budget of 10 (%v)", total, sent)
	}
	if try(prioPrompt) {
		t.Fatal("a prompt went over the token's budget")
	}
	// A second later the window has moved on.
	now = now.Add(time.Second + time.Millisecond)
	if !try(prioCleanup) {
		t.Fatal("cleanup still refused in a fresh window")
	}
}

// TestGroupSpacingStretchesUnderLoad: group edits are spaced 3.1 s while
// the token is idle and up to twice that when it is fully used.
func TestGroupSpacingStretchesUnderLoad(t *testing.T) {
	u := newBudget(10)
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	base := 3100 * time.Millisecond
	if got := u.groupInterval(base, now); got != base {
		t.Fatalf("idle: %v, want %v", got, base)
	}
	for i := 0; i < 5; i++ {
		u.admitted(now)
	}
	if got := u.groupInterval(base, now); got != base {
		t.Fatalf("half used: %v, want %v", got, base)
	}
	for i := 0; i < 5; i++ {
		u.admitted(now)
	}
	if got := u.groupInterval(base, now); got != 2*base {
		t.Fatalf("fully used: %v, want %v", got, 2*base)
	}
	if got := u.groupInterval(base, now.Add(1100*time.Millisecond)); got != base {
		t.Fatalf("a second later: %v, want %v", got, base)
	}
}

// TestRunningHotIsReported: over 80% of the budget for a minute gives one
// log line, and again a minute later if it lasts; gauges follow.
func TestRunningHotIsReported(t *testing.T) {
	u := newBudget(10)
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
