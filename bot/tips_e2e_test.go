package bot_test

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
)

// tipWatch collects, until done, the tips u's hands show (their texts),
// and presses «🔕» on the first one when off is set.
func tipWatch(h *harness, u *telegramtest.User, off bool, done <-chan struct{}) func() []string {
	title := h.Shown("tips.title", "Game", h.T("trickchef.title"))
	offBtn := h.T("tips.off_button")
	var mu sync.Mutex
	var seen []string
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			for _, m := range u.PrivateChat().Messages() {
				i := strings.Index(m.Text, title)
				if i < 0 {
					continue
				}
				tip := m.Text[i:]
				mu.Lock()
				if !slices.Contains(seen, tip) {
					seen = append(seen, tip)
				}
				mu.Unlock()
				if _, ok := m.Button(offBtn); ok && off {
					off = false
					if ans, err := u.Press(m, offBtn); err != nil || ans.Text != h.T("tips.off") {
						h.TB.Errorf("tips off: %+v, %v", ans, err)
					}
				}
			}
		}
	}()
	return func() []string { <-finished; mu.Lock(); defer mu.Unlock(); return seen }
}

// TestFirstGameTips: in their first game of Трик-н-Шеф Аня and Борис get
// tips on their hands, each kind once (the table keeps which); Аня turns
// them off with the tip's button. In the next game neither gets any: Аня
// turned them off, and Борис has played the game before.
func TestFirstGameTips(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Учимся", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	watching := make(chan struct{})
	wa, wb := tipWatch(h, a, true, watching), tipWatch(h, b, false, watching)
	h.MustStartGame(a, lobby)
	final := h.MustPlayToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute)
	tab, _ := h.Table(group)
	close(watching)
	if tipsA, tipsB := wa(), wb(); len(tipsA) == 0 || len(tipsB) == 0 {
		t.Fatalf("tips seen in a first game: Аня %q, Борис %q", tipsA, tipsB)
	}
	for _, s := range tab.Seats {
		for i, tip := range s.Tips {
			if slices.Contains(s.Tips[:i], tip) {
				t.Errorf("%s was given the tip %q twice: %v", s.Name, tip, s.Tips)
			}
		}
	}

	if _, err := a.Press(final, h.T("again.button")); err != nil {
		t.Fatal(err)
	}
	lobby, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.start_button")))
	if err != nil {
		t.Fatalf("no second lobby: %v", err)
	}
	watching = make(chan struct{})
	wa, wb = tipWatch(h, a, false, watching), tipWatch(h, b, false, watching)
	h.MustStartGame(a, lobby)
	done := make(chan struct{})
	pa, pb := h.Player(a, done, nil), h.Player(b, done, nil)
	again := h.T("again.button")
	_, err = group.WaitMessage(3*time.Minute, func(m *telegramtest.Message) bool {
		bt, ok := m.Button(again)
		return ok && strings.Contains(bt.CallbackData, ":2:") // the second game's end
	})
	close(done)
	pa()
	pb()
	close(watching)
	if err != nil {
		t.Fatalf("the second game did not end: %v", err)
	}
	tab, _ = h.Table(group)
	for _, s := range tab.Seats {
		if s.Human() && (s.Learning || len(s.Tips) > 0) {
			t.Errorf("%s was taught in a second game: %v", s.Name, s.Tips)
		}
	}
	wa()
	wb()
}
