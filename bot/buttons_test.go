package bot_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
)

// Buttons that are not there any more must look it: a replaced message
// loses its keyboard, a settled question turns into its answer, and a
// press may change only a message made for it.

// noButtons waits until the chat's message id shows no keyboard (and,
// unless text is "", shows text).
func noButtons(t *testing.T, h *harness, chat *telegramtest.Chat, id int, text string) {
	t.Helper()
	var m *telegramtest.Message
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		m = chat.Message(id)
		return m != nil && len(m.Keyboard) == 0 && (text == "" || m.Text == text)
	}); err != nil {
		t.Fatalf("message %d is not settled (want no buttons and %q): %+v", id, text, m)
	}
}

// TestReplacedPromptLosesItsButtons: when a player's turn comes round
// again, the fresh «your turn» message replaces the old hand message,
// which loses its keyboard at once (not when the batch deletes it), and
// its buttons, pressed anyway, are stale and change nothing.
func TestReplacedPromptLosesItsButtons(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Кнопки", a, b)
	lobby, err := h.LobbyFor("trickchef", group, a, []*telegramtest.User{b}, 1)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, lobby)
	done := make(chan struct{})
	wait := h.Player(b, done, nil)
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			close(done)
			wait()
		}
	}
	defer stop()

	first, err := a.PrivateChat().WaitMessage(10*time.Second, contains(h.Shown("trickchef.hand_pick")))
	if err != nil {
		t.Fatal(err)
	}
	old := first.Keyboard[0][0].CallbackData
	if ans, err := a.Press(first, first.Keyboard[0][0].Text); err != nil || !h.Accepted(ans.Text) {
		t.Fatalf("Аня's pick: %+v, %v", ans, err)
	}
	// Her next turn posts a fresh message.
	prompt, err := a.PrivateChat().WaitMessage(30*time.Second, func(m *telegramtest.Message) bool {
		_, _, ok := playable(a)
		return ok && m.ID > first.ID && len(m.Keyboard) > 0
	})
	if err != nil {
		t.Fatalf("Аня's turn never came again: %v", err)
	}
	noButtons(t, h, a.PrivateChat(), first.ID, "")
	if cur := a.PrivateChat().Message(prompt.ID); cur == nil || len(cur.Keyboard) == 0 {
		t.Fatalf("the fresh prompt lost its buttons too: %+v", cur)
	}
	stop()
	v := h.Version(group)
	h.ExpectAnswer(a, first, old, h.T("error.stale"))
	if got := h.Version(group); got != v {
		t.Errorf("a press on the replaced message changed the table: version %d → %d", v, got)
	}
}

// TestStopQuestionTurnsIntoItsAnswer: an answered /stop question keeps no
// buttons; a second copy, pressed after the game was stopped on the
// first, says so and loses its buttons too.
func TestStopQuestionTurnsIntoItsAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Стоп", a, b)
	lobby, err := h.LobbyFor("trickchef", group, a, []*telegramtest.User{b}, 1)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, lobby)
	yes, no := h.T("stop.yes"), h.T("stop.no")
	ask := func(not ...int) *telegramtest.Message {
		t.Helper()
		a.Send(group, "/stop")
		q, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
			for _, id := range not {
				if m.ID == id {
					return false
				}
			}
			return hasButton(yes)(m)
		})
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	q1 := ask()
	if ans, err := a.Press(q1, no); err != nil || ans.Text != h.T("stop.kept") {
		t.Fatalf("«no»: %+v, %v", ans, err)
	}
	noButtons(t, h, group, q1.ID, h.Shown("stop.kept"))
	q2 := ask(q1.ID)
	q3 := ask(q1.ID, q2.ID)
	if ans, err := a.Press(q3, yes); err != nil || ans.Text != h.T("stop.done") {
		t.Fatalf("«yes»: %+v, %v", ans, err)
	}
	noButtons(t, h, group, q3.ID, h.Shown("stop.done"))
	v := h.Version(group)
	h.ExpectAnswer(a, q2, data(q2, yes), h.T("error.stale_game"))
	noButtons(t, h, group, q2.ID, "")
	if got := h.Version(group); got != v {
		t.Errorf("a press on the other question changed the table: version %d → %d", v, got)
	}
}

// TestSupersededTableSaysItMoved: /table in a lobby and in a game posts
// the table anew at the bottom; the old message says it moved and keeps no
// buttons.
func TestSupersededTableSaysItMoved(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Стол", a, b)
	join := h.T("lobby.join_button")
	a.Send(group, "/newgame trickchef")
	l1, err := group.WaitMessage(10*time.Second, hasButton(join))
	if err != nil {
		t.Fatal(err)
	}
	a.Send(group, "/table")
	l2, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool { return m.ID > l1.ID && hasButton(join)(m) })
	if err != nil {
		t.Fatal(err)
	}
	noButtons(t, h, group, l1.ID, h.Shown("table.moved"))
	if ans, err := b.Press(l2, join); err != nil || ans.Text != h.T("lobby.joined") {
		t.Fatalf("join on the new lobby: %+v, %v", ans, err)
	}
	if _, err := a.Press(l2, h.T("lobby.ai_button")); err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, l2)
	t1, err := group.WaitMessage(10*time.Second, inRound(h.Harness, 1))
	if err != nil {
		t.Fatal(err)
	}
	a.Send(group, "/table")
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool { return m.ID > t1.ID && inRound(h.Harness, 1)(m) }); err != nil {
		t.Fatal(err)
	}
	noButtons(t, h, group, t1.ID, h.Shown("table.moved"))
}

// TestForgedPressChangesNoMessage: a rules page turn sent against another
// message (the table) is refused and changes neither the message nor the
// table; on the rules message it turns the page.
func TestForgedPressChangesNoMessage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Подделка", a)
	a.Send(group, "/newgame trickchef")
	lobby, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.join_button")))
	if err != nil {
		t.Fatal(err)
	}
	a.Send(group, "/rules trickchef")
	rules, err := group.WaitMessage(10*time.Second, hasButton("▶"))
	if err != nil {
		t.Fatal(err)
	}
	v := h.Version(group)
	h.ExpectAnswer(a, lobby, data(rules, "▶"), h.T("error.foreign"))
	h.ExpectAnswer(a, lobby, "s:"+strconv.FormatInt(group.ID(), 10)+":1:1", h.T("error.foreign"))
	// The real page turn, pressed after them in the same chat, is handled
	// after them: once it shows, a wrong edit would have landed too.
	if ans, err := a.Press(rules, "▶"); err != nil || ans.Text != "" {
		t.Fatalf("page turn: %+v, %v", ans, err)
	}
	if err := h.Srv.WaitFor(10*time.Second, func() bool { return group.Message(rules.ID).Text != rules.Text }); err != nil {
		t.Error("the page did not turn on the rules message")
	}
	if cur := group.Message(lobby.ID); cur.Text != lobby.Text || len(cur.Keyboard) != len(lobby.Keyboard) {
		t.Errorf("a forged page turn changed the lobby:\n%q\nto\n%q", lobby.Text, cur.Text)
	}
	if got := h.Version(group); got != v {
		t.Errorf("forged presses changed the table: version %d → %d", v, got)
	}
}

// TestRepostedHandOldButtonsAreStale: /start in private posts the hand
// anew; the old hand message loses its buttons, and its buttons pressed
// anyway are stale though the seat has not acted since (they would have
// made the same move), so only the latest message plays.
func TestRepostedHandOldButtonsAreStale(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Снова", a, b)
	lobby, err := h.LobbyFor("trickchef", group, a, []*telegramtest.User{b}, 1)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, lobby)
	first, err := a.PrivateChat().WaitMessage(10*time.Second, contains(h.Shown("trickchef.hand_pick")))
	if err != nil {
		t.Fatal(err)
	}
	a.Send(a.PrivateChat(), "/start")
	again, err := a.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID > first.ID && len(m.Keyboard) > 0
	})
	if err != nil {
		t.Fatal(err)
	}
	noButtons(t, h, a.PrivateChat(), first.ID, "")
	v := h.Version(group)
	h.ExpectAnswer(a, first, first.Keyboard[0][0].CallbackData, h.T("error.stale"))
	if got := h.Version(group); got != v {
		t.Errorf("a press on the replaced hand changed the table: version %d → %d", v, got)
	}
	h.ExpectAnswer(a, again, again.Keyboard[0][0].CallbackData, chefToast(h, again.Keyboard[0][0].Text))
	if got := h.Version(group); got != v+1 {
		t.Errorf("the latest hand's press: version %d → %d, want one change", v, got)
	}
}

// chefToast is the toast that confirms taking the chef of a Трик-н-Шеф
// chef button («👨‍🍳 🟥 (3)»): it names the chef taken.
func chefToast(h *harness, button string) string {
	chef, _, _ := strings.Cut(button, " (")
	return h.T("move.toast", "Move", h.T("trickchef.move.chef", "Suit", strings.TrimPrefix(chef, "👨‍🍳 ")))
}
