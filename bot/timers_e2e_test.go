package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
)

// TestTimersKeepTheirTable: a person who never moves, three robots with a
// 30 ms pause, a second a turn: every move is a timer's, and a robot's
// next timer often falls due while the last one is still being served. The
// table must stay in the timers' queue until the game ends (a serving that
// returned "not due" for a timer come due meanwhile once dropped it, and
// the game stood still for good).
func TestTimersKeepTheirTable(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Second)
	h.Stop()
	h.Cfg.AIDelay = 30 * time.Millisecond
	h.MustStart()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Кухня", a)
	h.MustStartGame(a, h.MustLobby(group, a, nil, 3))
	if _, err := group.WaitMessage(2*time.Minute, h.Won()); err != nil {
		tab, _ := h.Table(group)
		n, _ := h.Redis.Pending(context.Background(), store.Timers)
		t.Fatalf("the game did not end: %v; %d moves, next timer %v, tables in the timers' queue %d", err, len(tab.Log), tab.NextTimer(), n)
	}
}
