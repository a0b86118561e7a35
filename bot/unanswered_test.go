package bot_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestUnansweredHandsStopAtTheCap: Telegram answers every message the bot
// sends to one person late — later than the bot's 1 s call time — while
// everything else goes as usual. Each copy of her hand that the fake posts
// is a message the bot may never hear of. Her hand is sent again at most
// viewTries times for one state of the table (copies carrying the same
// nonce), however long her turn; the game goes on (her turns run out, then
// the bot plays for her) to its end. Answers that come late but while the
// bot still listens make each copy known: it is taken as her hand, or loses
// its buttons, without anyone pressing it. Answers that never come leave
// copies nobody knows of: each refuses its press as stale, and once a later
// hand is known each loses its buttons when pressed.
func TestUnansweredHandsStopAtTheCap(t *testing.T) {
	const viewTries = 3 // deliver's cap on a view's unanswered sends for one state
	for _, tc := range []struct {
		name  string
		delay time.Duration // how late Telegram answers her messages
		heard bool          // the bot still listens then
	}{
		{"answers late", 2 * time.Second, true},
		{"answers never", 20 * time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})
			h := &harness{bottest.NewTestLimits(t, st, allGames(), 12*time.Second, func(l *bot.Limits) { l.CallTimeout = time.Second })}
			a := h.MustBegin(h.Srv.NewUser("Аня"))
			group := h.Srv.NewGroup("Медленный личный чат", a)
			lobby := h.MustLobby(group, a, nil, 2)
			h.Srv.KeepParams()
			h.Srv.SlowIn(a.ID(), "sendMessage", tc.delay)
			h.MustStartGame(a, lobby)
			// Her first turn runs out: the bot moves for her.
			if err := eventually(time.Minute, func() bool {
				tab, _ := h.Table(group)
				return tab.Seats[0].Timeouts > 0
			}); err != nil {
				t.Fatal("her turn never ran out")
			}
			// Her hand's sends with a move on them, by the nonce the move
			// carries (one state of the table while she does not move).
			copies := map[int]int{}
			for _, c := range h.Srv.Calls() {
				if nonce, ok := sentMove(c); ok && c.ChatID == a.ID() {
					copies[nonce]++
				}
			}
			if len(copies) == 0 {
				t.Fatal("no hand of hers with a move to make was sent")
			}
			for nonce, n := range copies {
				if n > viewTries {
					t.Errorf("her hand at nonce %d was sent %d times, want at most %d", nonce, n, viewTries)
				}
			}
			tab, _ := h.Table(group)
			hand := func() int {
				recs, err := h.Redis.Messages(context.Background(), tab.ID)
				if err != nil {
					t.Fatal(err)
				}
				return view.ParseMessageRecord(recs[view.Hand(tab.GameNo, 0)]).ID
			}
			if tc.heard {
				// Every copy is known: the hand, or one that loses its
				// buttons by itself.
				err := eventually(30*time.Second, func() bool {
					for _, m := range a.PrivateChat().Messages() {
						if _, ok := action(m); ok && m.ID != hand() {
							return false
						}
					}
					return true
				})
				if err != nil {
					for _, m := range a.PrivateChat().Messages() {
						if _, ok := action(m); ok && m.ID != hand() {
							t.Errorf("copy %d of her hand kept its buttons (her hand is %d)", m.ID, hand())
						}
					}
				}
			}
			// Every copy with a move on it refuses the move now (her turn
			// was played for her).
			for _, m := range a.PrivateChat().Messages() {
				if p, ok := action(m); ok && m.ID != hand() {
					ans, err := a.PressData(m, p.Word)
					if err != nil || h.Accepted(ans.Text) {
						t.Errorf("copy %d of her hand (nonce %d) took a move: %q (%v)", m.ID, p.Args[1], ans.Text, err)
					}
				}
			}
			if !tc.heard {
				// Telegram answers again: her hand is known, and every
				// older copy is an orphan that loses its buttons when
				// pressed.
				h.Srv.SlowIn(a.ID(), "sendMessage", 0)
				if err := eventually(time.Minute, func() bool { return hand() != 0 }); err != nil {
					t.Fatal("her hand was never known once Telegram answered again")
				}
				for _, m := range a.PrivateChat().Messages() {
					p, ok := action(m)
					if !ok || m.ID >= hand() {
						continue
					}
					ans, err := a.PressData(m, p.Word)
					if err != nil || h.Accepted(ans.Text) {
						t.Errorf("orphaned copy %d took a move: %q (%v)", m.ID, ans.Text, err)
					}
					if err := eventually(10*time.Second, func() bool {
						_, ok := action(a.PrivateChat().Message(m.ID))
						return !ok
					}); err != nil {
						t.Errorf("orphaned copy %d kept its buttons", m.ID)
					}
				}
			}
			if _, err := group.WaitMessage(3*time.Minute, h.Won()); err != nil {
				h.DumpGroup(group)
				t.Fatal("the game did not go on to its end")
			}
			sends := 0
			for _, c := range h.Srv.Calls() {
				if c.Method == "sendMessage" && c.ChatID == a.ID() {
					sends++
				}
			}
			t.Logf("her hand sent with a move, by nonce: %v; %d messages sent to her in all", copies, sends)
		})
	}
}

// action is the first button of m that makes a move, parsed (its data in
// Word).
func action(m *telegramtest.Message) (callback.Data, bool) {
	if m == nil {
		return callback.Data{}, false
	}
	for _, b := range m.Buttons() {
		if p, err := callback.Parse(b.CallbackData); err == nil && p.Op == callback.Action && len(p.Args) > 1 {
			p.Word = b.CallbackData
			return p, true
		}
	}
	return callback.Data{}, false
}

// sentMove reports the nonce of the move a sendMessage call's keyboard
// offers, if it offers one.
func sentMove(c telegramtest.Call) (int, bool) {
	if c.Method != "sendMessage" {
		return 0, false
	}
	var kb models.InlineKeyboardMarkup
	if err := json.Unmarshal([]byte(c.Params["reply_markup"]), &kb); err != nil {
		return 0, false
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if p, err := callback.Parse(b.CallbackData); err == nil && p.Op == callback.Action && len(p.Args) > 1 {
				return p.Args[1], true
			}
		}
	}
	return 0, false
}

// eventually polls cond until it holds, or gives up after timeout.
func eventually(timeout time.Duration, cond func() bool) error {
	for deadline := time.Now().Add(timeout); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			return context.DeadlineExceeded
		}
	}
	return nil
}
