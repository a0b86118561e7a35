package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// TestGroupHandStalledTurnGoesToPrivate: a person plays from the group,
// and the group's calls are spent for the next minute (filled in the
// store, as a busy group's would be). When their turn comes, the hand in
// the group cannot show it for a minute: the turn goes to their private
// chat at once, not when the quiet private hand's minute is up. The
// group keeps Telegram's real 20 calls a minute here (the other limits
// run 20× fast), so the bot's wait and the nudge's minute are real ones.
func TestGroupHandStalledTurnGoesToPrivate(t *testing.T) {
	const turn = 3 * time.Minute // the private nudge comes a minute into a turn
	fake, ours := bottest.ScaledLimits()
	fake.Group = telegramtest.DefaultLimits().Group
	ours.GroupInterval = 3100 * time.Millisecond
	h := groupHandsHarnessLimits(t, turn, fake, ours)
	group, people, _ := playFromGroupOnce(t, h)
	u := people[0]
	// The group's minute is spent.
	for range 20 {
		if _, _, err := h.Redis.Allow(context.Background(), store.ChatRateKey(group.ID()), 20, 62*time.Second, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	defer close(done)
	since, calls := othersPlayUntilTurn(t, h, group, people, done)
	var prompt *telegramtest.Call
	err := h.Srv.WaitFor(40*time.Second, func() bool {
		for _, c := range h.Srv.CallsSince(calls) {
			if c.OK && c.ChatID == u.ID() && c.Method == "sendMessage" {
				prompt = &c
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("40 s into their turn, with the group's calls spent, the private chat of a person who plays from the group heard nothing")
	}
	// The nudge would come 60 s into the turn; the stall is seen at once
	// (20 s is slack for a loaded machine).
	if wait := prompt.Time.Sub(since); wait > 20*time.Second {
		t.Errorf("the turn reached the private chat %v after it began, want at once", wait)
	}
	for _, c := range h.Srv.CallsSince(calls) {
		if c.Ephemeral && c.ChatID == group.ID() && c.Time.Before(prompt.Time) && c.OK {
			t.Errorf("a hand in the group (%s at %v) went before the private prompt while the group's minute was spent", c.Method, c.Time)
		}
	}
	t.Logf("the turn reached the private chat %v after it began", prompt.Time.Sub(since))
}
