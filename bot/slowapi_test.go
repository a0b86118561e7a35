package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestSlowTelegramDoublesNothing: Telegram takes its time, or fails. Some
// sendMessage calls take effect at once but are answered only 6–8 s
// later. With the bot's generous call time every call is waited for: each
// announcement is posted once and the game plays to its end. With a call
// time shorter than Telegram's answer the worker stops waiting but the
// call goes on listening for its answer: an announcement heard late is
// acknowledged (posted once; a copy sent again would say it may be a
// repeat, and counts here), a hand heard late is taken as the hand, and a
// hand posted anew leaves no second live hand — a press on an orphaned
// copy is refused as stale and takes its buttons away. Calls Telegram
// answers with 500s posted nothing: they are tried again until they go,
// and everything shows once.
func TestSlowTelegramDoublesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		call time.Duration // the bot's time for a call (0: the default)
		most int           // how often an announcement may show, marked copies too
		fail bool          // Telegram refuses calls with 500s instead
	}{
		{"generous call time", 0, 1, false},
		{"call time shorter than the answer", 3 * time.Second, 1, false},
		{"failing with 500s", 0, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})
			h := &harness{bottest.NewTestLimits(t, st, allGames(), time.Minute, func(l *bot.Limits) { l.CallTimeout = tc.call })}
			a := h.MustBegin(h.Srv.NewUser("Аня"))
			b := h.MustBegin(h.Srv.NewUser("Боря"))
			group := h.Srv.NewGroup("Медленный телеграм", a, b)
			lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
			// The deal and the first turns: the group's table and the
			// hands are sent while Telegram answers late.
			if tc.fail {
				h.Srv.FailNext("sendMessage", 6, telegramtest.InternalError())
				h.Srv.FailNext("editMessageText", 6, telegramtest.InternalError())
			} else {
				h.Srv.SlowNext("sendMessage", 6, 6*time.Second+time.Duration(len(tc.name)%3)*time.Second)
			}
			h.MustStartGame(a, lobby)
			start := time.Now()
			if tc.call != 0 && !tc.fail {
				// Sends given up on took effect: a hand may show twice. The
				// older copy's move is refused, and the copy loses its
				// buttons.
				// Until a send of a hand is answered, nobody knows which copy
				// is the hand (one press can count: the seat's nonce moves
				// on); once one is, every older copy is an orphan.
				tab, _ := h.Table(group)
				if err := h.Srv.WaitFor(time.Minute, func() bool {
					recs, err := h.Redis.Messages(context.Background(), tab.ID)
					return err == nil && view.ParseMessageRecord(recs[view.Hand(tab.GameNo, 0)]).ID != 0 &&
						view.ParseMessageRecord(recs[view.Hand(tab.GameNo, 1)]).ID != 0
				}); err != nil {
					t.Fatal("the hands were never posted")
				}
				orphans := 0
				for _, u := range []*telegramtest.User{a, b} {
					var moves []*telegramtest.Message
					for _, m := range u.PrivateChat().Messages() {
						for _, btn := range m.Buttons() {
							if strings.HasPrefix(btn.CallbackData, "a:") {
								moves = append(moves, m)
								break
							}
						}
					}
					for _, m := range moves[:max(len(moves)-1, 0)] {
						orphans++
						data := ""
						for _, btn := range m.Buttons() {
							if strings.HasPrefix(btn.CallbackData, "a:") {
								data = btn.CallbackData
								break
							}
						}
						ans, err := u.PressData(m, data)
						if err != nil || h.Accepted(ans.Text) {
							t.Errorf("%s's orphaned hand %d took a move: %q (%v)", u.User().FirstName, m.ID, ans.Text, err)
						}
						if err := h.Srv.WaitFor(10*time.Second, func() bool { return len(u.PrivateChat().Message(m.ID).Keyboard) == 0 }); err != nil {
							t.Errorf("%s's orphaned hand %d kept its buttons", u.User().FirstName, m.ID)
						}
					}
				}
				t.Logf("%d orphaned hands found and disarmed", orphans)
			}
			final := h.MustPlayToEnd(group, []*telegramtest.User{a, b}, 4*time.Minute)
			if final == nil {
				t.Fatal("no final result")
			}
			// Each announcement at most tc.most times.
			seen := map[string]int{}
			for _, m := range group.Messages() {
				if m.FromBot && len(m.Keyboard) == 0 && m.Text != "" {
					text, _ := h.Unmarked(m.Text)
					seen[text]++
				}
			}
			most := 0
			for text, n := range seen {
				if strings.HasPrefix(text, h.Shown("table.moved")) {
					continue
				}
				most = max(most, n)
				if n > tc.most {
					t.Errorf("posted %d times (at most %d): %.60q", n, tc.most, text)
				}
			}
			if n := h.Srv.Unanswered(0); n > 0 {
				t.Errorf("%d presses never answered", n)
			}
			t.Logf("copies of an announcement, at most: %d; every press answered; game over %v after the deal",
				most, time.Since(start).Round(100*time.Millisecond))
		})
	}
}
