package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
)

// tipMessages are the first-game tips in u's private chat, by text.
func tipMessages(h *harness, u *telegramtest.User) []*telegramtest.Message {
	title := h.Shown("tips.title", "Game", h.T("trickchef.title"))
	var out []*telegramtest.Message
	for _, m := range u.PrivateChat().Messages() {
		if strings.HasPrefix(m.Text, title) {
			out = append(out, m)
		}
	}
	return out
}

// TestFirstGameTips: in their first game of Трик-н-Шеф Аня and Борис get
// tips in private, each kind once; Аня turns them off with the tip's
// button. In the next game neither gets any: Аня turned them off, and
// Борис has played the game before.
func TestFirstGameTips(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Учимся", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)
	final := h.MustPlayToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute)

	for _, u := range []*telegramtest.User{a, b} {
		tips := tipMessages(h, u)
		if len(tips) == 0 {
			t.Fatalf("%s got no tips in a first game", u.User().FirstName)
		}
		seen := map[string]bool{}
		for _, m := range tips {
			if seen[m.Text] {
				t.Errorf("%s got a tip twice: %q", u.User().FirstName, m.Text)
			}
			seen[m.Text] = true
		}
	}
	off := h.T("tips.off_button")
	first := tipMessages(h, a)[0]
	if ans, err := a.Press(first, off); err != nil || ans.Text != h.T("tips.off") {
		t.Fatalf("tips off: %+v, %v", ans, err)
	}

	before := map[*telegramtest.User]int{a: len(tipMessages(h, a)), b: len(tipMessages(h, b))}
	if _, err := a.Press(final, h.T("again.button")); err != nil {
		t.Fatal(err)
	}
	lobby, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.start_button")))
	if err != nil {
		t.Fatalf("no second lobby: %v", err)
	}
	h.MustStartGame(a, lobby)
	done := make(chan struct{})
	wa, wb := h.Player(a, done, nil), h.Player(b, done, nil)
	again := h.T("again.button")
	_, err = group.WaitMessage(3*time.Minute, func(m *telegramtest.Message) bool {
		bt, ok := m.Button(again)
		return ok && strings.Contains(bt.CallbackData, ":2:") // the second game's end
	})
	close(done)
	wa()
	wb()
	if err != nil {
		t.Fatalf("the second game did not end: %v", err)
	}
	for u, n := range before {
		if got := len(tipMessages(h, u)); got != n {
			t.Errorf("%s got %d tips in a second game", u.User().FirstName, got-n)
		}
	}
}
