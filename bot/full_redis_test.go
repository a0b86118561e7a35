package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestFullRedisLosesNoPress: a Redis at its maxmemory (noeviction, as
// docker-compose.yml runs it) refuses every write. A press made then is
// neither lost nor applied: the bot keeps the update (Telegram's, or the
// inbox's), goes on running and tries again, and applies it once there is
// room — the lobby then seats the person and shows them.
func TestFullRedisLosesNoPress(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t, "--maxmemory-policy", "noeviction")
	c := srv.Client(t)
	st := store.NewRedis(c, "tc:full:", store.Config{})
	h := newHarnessOn(t, st, time.Minute)
	ctx := t.Context()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	g := h.Srv.NewGroup("Полная", a, b)
	lobby := h.send(a, g, "/newgame trickchef", hasButton(h.T("lobby.join_button")))

	// Delivery has recorded the lobby's message (else it would post it
	// anew, rightly, after the refusal).
	tab, _ := h.Table(g)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m, err := st.Messages(ctx, tab.ID); err == nil && len(m) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the lobby's message was never recorded")
		}
	}

	// A limit far below what it holds: every write is refused, every
	// delete still goes through.
	if err := c.ConfigSet(ctx, "maxmemory", "1").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, "probe", "x", 0).Err(); err == nil || !strings.Contains(err.Error(), "OOM") {
		t.Fatalf("a write to the full Redis: %v, want OOM", err)
	}

	if _, err := b.PressAsync(lobby, h.T("lobby.join_button")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // the bot tries, and is refused, for a while
	if tab, _ = h.Table(g); tab.SeatOf(b.ID()) >= 0 {
		t.Fatal("Борис was seated while Redis refused every write")
	}

	// Room again: the press is applied, and the lobby shows it.
	if err := c.ConfigSet(ctx, "maxmemory", "0").Err(); err != nil {
		t.Fatal(err)
	}
	roomAt := time.Now()
	if _, err := g.WaitMessage(30*time.Second, func(m *telegramtest.Message) bool {
		return m.ID == lobby.ID && strings.Contains(m.Text, "Борис")
	}); err != nil {
		t.Fatalf("the press made while Redis was full was never applied: %v", err)
	}
	t.Logf("the press made while Redis was full applied and shown %v after there was room", time.Since(roomAt).Round(10*time.Millisecond))
	if tab, _ = h.Table(g); tab.SeatOf(b.ID()) < 0 {
		t.Error("Борис is not seated once Redis had room")
	}
}
