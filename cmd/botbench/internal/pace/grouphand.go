package pace

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/cmd/internal/measure"
)

// The -hands group mode: the bot offers the hand in the group, and every
// person presses «Мои карты» under the group's table once, then plays
// only from the ephemeral message the bot shows them there, at the same
// pace, never looking at their private chat.

// handWait is how long a person who pressed «Мои карты» waits for their
// hand before pressing it again: the bot gives a hand up when the group's
// calls are spent for the 15 s after the press that asked for it.
const handWait = 20 * time.Second

// playGroup is one simulated person who plays from the group: they open
// their hand there (openHand), then play from it as play does.
func playGroup(ctx context.Context, h *bottest.Harness, t *table, u *telegramtest.User, nudge <-chan struct{}, think func() time.Duration, rng *rand.Rand, limit int) {
	if !openHand(ctx, h, t, u, nudge, think) {
		return
	}
	hand := func() (*telegramtest.Message, string, []string) {
		m := u.LastEphemeral(t.Group)
		if m == nil {
			return nil, "", nil
		}
		return playable([]*telegramtest.Message{m})
	}
	// A turn the bot also tells in the private chat (the hand in the
	// group waiting for the group's calls) reached the person there
	// first: they still answer it in the group.
	told := func(key string) time.Time {
		var first time.Time
		for _, m := range u.PrivateChat().Messages() {
			if _, k, _ := playable([]*telegramtest.Message{m}); k == key && (first.IsZero() || m.Date.Before(first)) {
				first = m.Date
			}
		}
		return first
	}
	play(ctx, h, t, u, nudge, hand, told, think, rng, limit)
}

// openHand waits for the group's table to offer «Мои карты», thinks,
// presses it, and waits for the hand to show; it presses again when no
// hand came within handWait. It reports false when the table or ctx ended
// first.
func openHand(ctx context.Context, h *bottest.Harness, t *table, u *telegramtest.User, nudge <-chan struct{}, think func() time.Duration) bool {
	button := h.T("grouphand.button")
	// wait waits for a nudge, at most d; false when the run or table ended.
	wait := func(d time.Duration) bool {
		select {
		case <-ctx.Done():
			return false
		case <-t.done:
			return false
		case <-nudge:
		case <-time.After(d):
		}
		return true
	}
	for {
		msg := withButton(t.Group.Messages(), button)
		if msg == nil {
			if !wait(time.Minute) {
				return false
			}
			continue
		}
		if !measure.Sleep(ctx, think()) || t.finished() {
			return false
		}
		ans, err := u.Press(msg, button)
		t.mu.Lock()
		if err != nil || ans == nil {
			t.pressErrors++
		} else {
			t.opens++
		}
		t.mu.Unlock()
		for until := time.Now().Add(handWait); u.LastEphemeral(t.Group) == nil && time.Now().Before(until); {
			if !wait(time.Until(until)) {
				return false
			}
		}
		if u.LastEphemeral(t.Group) != nil {
			return true
		}
	}
}

// withButton is the newest of msgs with a button of this text, or nil.
func withButton(msgs []*telegramtest.Message, button string) *telegramtest.Message {
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, ok := msgs[i].Button(button); ok {
			return msgs[i]
		}
	}
	return nil
}
