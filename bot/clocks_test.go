package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
)

// TestReplicasWithClocksAMinuteApart: two replicas of the bot on one
// store, one machine's clock a minute ahead of the other's. The queues'
// leases run on Redis's clock and everything else each replica times
// (send leases, rate windows, turn deadlines, robots' pauses) on its clock
// kept to the store's, so the replicas agree: two groups play to the end,
// every announcement is in its group once, each game replays from its
// log, and no press is left unanswered.
func TestReplicasWithClocksAMinuteApart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	// Replica one (polling) is the harness's own, on the machine's clock
	// kept to the store's; replica two runs a minute ahead.
	h.Stop()
	h.StoreClock = true
	h.MustStart()
	ahead := &bottest.Harness{Srv: h.Srv, Store: h.Store, Games: h.Games, Cfg: h.Cfg, Log: h.Log,
		Now: func() time.Time { return time.Now().Add(time.Minute) }, StoreClock: true, NoPoll: true}
	if err := ahead.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ahead.Stop)
	if off := ahead.Bot.Now().Sub(time.Now()); off > 5*time.Second || off < -5*time.Second {
		t.Errorf("the replica a minute ahead keeps a clock %v off the store's", off)
	}

	type table struct {
		group  *telegramtest.Chat
		people []*telegramtest.User
	}
	var tables []table
	for _, names := range [][2]string{{"Аня", "Борис"}, {"Вера", "Глеб"}} {
		a := h.MustBegin(h.Srv.NewUser(names[0]))
		b := h.MustBegin(h.Srv.NewUser(names[1]))
		group := h.Srv.NewGroup("Часы "+names[0], a, b)
		h.MustStartGame(a, h.MustLobby(group, a, []*telegramtest.User{b}, 1))
		tables = append(tables, table{group, []*telegramtest.User{a, b}})
	}
	done := make(chan struct{})
	var waits []func() []string
	for _, tb := range tables {
		for _, u := range tb.people {
			waits = append(waits, h.Player(u, done, nil))
		}
	}
	for _, tb := range tables {
		if _, err := tb.group.WaitMessage(4*time.Minute, h.Won()); err != nil {
			close(done)
			h.DumpGroup(tb.group)
			t.Fatal(err)
		}
	}
	close(done)
	for _, w := range waits {
		w()
	}
	before, after := h.Around("trickchef.round_over", "Round")
	won := h.Won()
	for _, tb := range tables {
		h.CheckReplay(tb.group)
		h.checkAnnouncedOnce(tb.group)
		// In order: round 1's result, 2's, 3's, then the final result.
		var order []string
		for _, m := range tb.group.Messages() {
			if mid, ok := between(firstLine(m), before, after); ok {
				order = append(order, mid)
			}
			if won(m) {
				order = append(order, "final")
			}
		}
		if strings.Join(order, ",") != "1,2,3,final" {
			t.Errorf("%s: the announcements came as %v", tb.group.Chat().Title, order)
		}
	}
	if n := h.Srv.Unanswered(0); n > 0 {
		t.Errorf("%d presses never answered", n)
	}
}
