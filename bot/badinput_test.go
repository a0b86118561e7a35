package bot_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/trickchef"
)

// data is the callback data of a message's button.
func data(m *telegramtest.Message, text string) string {
	b, _ := m.Button(text)
	return b.CallbackData
}

// expectReply waits for a message in chat that shows the catalog text of
// key (a reply of its own, or a line of the table).
func (h *harness) expectReply(chat *telegramtest.Chat, key string, args ...any) {
	h.TB.Helper()
	want := h.Shown(key, args...)
	if _, err := chat.WaitMessage(10*time.Second, contains(want)); err != nil {
		h.TB.Errorf("no reply containing %q (%s): %v", want, key, err)
	}
}

func TestBadInputsAreAnsweredAndChangeNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	c := h.MustBegin(h.Srv.NewUser("Вера"))
	stranger := h.MustBegin(h.Srv.NewUser("Чужой"))
	group := h.Srv.NewGroup("Проверка", a, b, c, stranger)
	tid := strconv.FormatInt(group.ID(), 10)

	// Commands in the wrong kind of chat.
	a.Send(a.PrivateChat(), "/top")
	h.expectReply(a.PrivateChat(), "command.group_only")

	// The lobby.
	join, start := h.T("lobby.join_button"), h.T("lobby.start_button")
	a.Send(group, "/newgame trickchef")
	lobby, err := group.WaitMessage(10*time.Second, hasButton(join))
	if err != nil {
		t.Fatal(err)
	}
	if ans, _ := b.Press(lobby, join); ans == nil || ans.Text != h.T("lobby.joined") {
		t.Fatalf("join: %+v", ans)
	}
	v := h.Version(group)
	lo, hi := trickchef.Game().SeatRange()
	h.ExpectAnswer(b, lobby, data(lobby, join), h.T("lobby.already_seated"))
	h.ExpectAnswer(b, lobby, data(lobby, start), h.T("lobby.creator_only"))
	h.ExpectAnswer(a, lobby, data(lobby, start), h.T("lobby.seat_count", "Min", lo, "Max", hi))
	h.ExpectAnswer(stranger, lobby, data(lobby, h.T("lobby.leave_button")), h.T("lobby.not_seated"))
	h.ExpectAnswer(stranger, lobby, "garbage", h.T("error.bad_button"))
	h.ExpectAnswer(stranger, lobby, "l:"+tid+":1:99", h.T("error.bad_button"))
	h.ExpectAnswer(stranger, lobby, "l:"+tid+":7:1", h.T("error.stale"))
	h.ExpectAnswer(stranger, lobby, strings.Repeat("x", 64), h.T("error.bad_button"))
	if got := h.Version(group); got != v {
		t.Errorf("refused lobby presses changed the table: version %d → %d", v, got)
	}
	if ans, _ := c.Press(lobby, join); ans == nil || ans.Text != h.T("lobby.joined") {
		t.Fatalf("join: %+v", ans)
	}
	h.MustStartGame(a, lobby)
	a.Send(group, "/table 9") // the group holds 4 tables
	h.expectReply(group, "table.bad_number", "Max", 4)

	// Аня picks a chef first. Others' presses out of turn are refused.
	hand, err := a.PrivateChat().WaitMessage(10*time.Second, contains(h.Shown("trickchef.hand_pick")))
	if err != nil {
		t.Fatal(err)
	}
	pick := hand.Keyboard[0][0].CallbackData
	table, err := group.WaitMessage(10*time.Second, inRound(h.Harness, 1))
	if err != nil {
		t.Fatal(err)
	}
	v = h.Version(group)
	h.ExpectAnswer(stranger, table, pick, h.T("error.not_yours"))
	// A seat's button counts only from its person's private chat.
	h.ExpectAnswer(a, table, pick, h.T("error.elsewhere"))
	// (On his latest private message: his hand, or one after it, never an
	// older copy of it.)
	h.ExpectAnswer(b, b.PrivateChat().Last(), fmt.Sprintf("a:%s:1:1:0:0", tid), h.T("error.not_your_turn"))
	h.ExpectAnswer(a, hand, fmt.Sprintf("a:%s:1:0:0:99999", tid), h.T("error.unknown_action"))
	h.ExpectAnswer(a, table, fmt.Sprintf("a:%s:1:9:0:0", tid), h.T("error.bad_button"))
	h.ExpectAnswer(a, hand, fmt.Sprintf("a:%s:0:0:0:0", tid), h.T("error.stale_game"))
	if got := h.Version(group); got != v {
		t.Errorf("refused game presses changed the table: version %d → %d", v, got)
	}

	// A double tap: both presses answered, exactly one applied; the other
	// is stale, on the latest message: the move was made.
	q1, err1 := a.PressDataAsync(hand, pick)
	q2, err2 := a.PressDataAsync(hand, pick)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	ans1, e1 := q1.Wait(10 * time.Second)
	ans2, e2 := q2.Wait(10 * time.Second)
	if e1 != nil || e2 != nil {
		t.Fatalf("double tap not answered: %v %v", e1, e2)
	}
	stale := 0
	for _, ans := range []string{ans1.Text, ans2.Text} {
		if ans == h.T("error.stale_done_wait") {
			stale++
		}
	}
	if stale != 1 {
		t.Errorf("double tap answers %q and %q: want exactly one refused as stale", ans1.Text, ans2.Text)
	}
	if got := h.Version(group); got != v+1 {
		t.Errorf("double tap: version %d → %d, want one change", v, got)
	}
	// The old button again: the move was made, new buttons come with
	// Аня's next turn (the waiting hand is not redrawn).
	h.ExpectAnswer(a, hand, pick, h.T("error.stale_done_wait"))

	// Play on until someone must follow suit, and try to break the rule.
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range []*telegramtest.User{b, c} {
		waits = append(waits, h.Player(u, done, nil))
	}
	var illegal string
	var illegalMsg *telegramtest.Message
	for illegal == "" {
		var msg *telegramtest.Message
		var btn telegramtest.Button
		err := h.Srv.WaitFor(30*time.Second, func() bool {
			msgs := a.PrivateChat().Messages()
			if len(msgs) == 0 {
				return false
			}
			last := msgs[len(msgs)-1]
			for _, row := range last.Keyboard {
				for _, bt := range row {
					if strings.HasPrefix(bt.Text, "(") {
						illegal, illegalMsg = bt.CallbackData, last
						return true
					}
				}
			}
			m, bt, ok := playable(a)
			if ok && m.ID == last.ID {
				msg, btn = m, bt
				return true
			}
			return false
		})
		if err != nil {
			t.Fatalf("Аня never had a move: %v", err)
		}
		if illegal == "" {
			if _, err := a.PressData(msg, btn.CallbackData); err != nil {
				t.Fatal(err)
			}
			h.Srv.WaitFor(5*time.Second, func() bool {
				m, _, ok := playable(a)
				return !ok || m.ID != msg.ID
			})
		}
	}
	v = h.Version(group)
	h.ExpectAnswer(a, illegalMsg, illegal, h.T("trickchef.error.must_follow_suit"))
	if got := h.Version(group); got != v {
		t.Errorf("an illegal card changed the table: version %d → %d", v, got)
	}

	// /stop: only the creator or an admin, with a confirmation.
	b.Send(group, "/stop")
	h.expectReply(group, "stop.not_allowed")
	a.Send(group, "/stop")
	yes := h.T("stop.yes")
	confirm, err := group.WaitMessage(10*time.Second, hasButton(yes))
	if err != nil {
		t.Fatal(err)
	}
	h.ExpectAnswer(b, confirm, data(confirm, yes), h.T("stop.not_yours"))
	h.ExpectAnswer(a, confirm, data(confirm, h.T("stop.no")), h.T("stop.kept"))
	a.Send(group, "/stop")
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return hasButton(yes)(m) && m.ID != confirm.ID
	}); err != nil {
		t.Fatal(err)
	}
	confirm = group.Find(hasButton(yes))
	h.ExpectAnswer(a, confirm, data(confirm, yes), h.T("stop.done"))
	close(done)
	for _, w := range waits {
		w()
	}
	h.expectReply(group, "event.stopped", "Name", "Аня") // who stopped it
	if _, err := a.PrivateChat().WaitMessage(10*time.Second, contains(h.Shown("hand.stopped"))); err != nil {
		t.Errorf("the hand does not say the game was stopped: %v", err)
	}
	h.ExpectAnswer(a, illegalMsg, illegal, h.T("error.stale_game"))
}
