package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestSentinelFailoverMidGame: the bot on Redis behind Sentinel (a master
// and two replicas, every write waiting for one replica's copy), the
// master killed mid-game. Sentinel promotes a replica, the bot's client
// follows it, and the game finishes: every move replays from the log, every
// announcement is in the group once, and no press of the players is left
// unanswered.
func TestSentinelFailoverMidGame(t *testing.T) {
	t.Parallel()
	s := redistest.StartSentinel(t, 2)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	st, err := store.DialRedis(ctx, s.URL()+"?wait_replicas=1&wait_timeout=1s", "tc:", store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := newHarnessOn(t, st, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Часовые", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)

	done := make(chan struct{})
	waits := []func() []string{h.Player(a, done, nil), h.Player(b, done, nil)}
	if _, err := group.WaitMessage(2*time.Minute, reached(h.Harness, 1, 4)); err != nil {
		close(done)
		h.DumpGroup(group)
		t.Fatal(err)
	}
	_, before := h.Table(group)
	old, err := s.MasterAddr(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.KillMaster(ctx); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	promoted, err := s.WaitFailover(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	failover := time.Since(killed)
	if _, after := h.Table(group); after < before {
		t.Errorf("the failover lost committed moves: version %d before the kill, %d after", before, after)
	}
	tab := h.audit(group, done, waits)
	if n := h.Srv.Unanswered(0); n > 0 {
		t.Errorf("%d presses never answered", n)
	}
	t.Logf("%d moves; master %s killed, %s promoted after %v; game over %v after the kill",
		len(tab.Log), old, promoted, failover.Round(time.Millisecond), time.Since(killed).Round(time.Millisecond))
}
