package bot_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
)

// version reads the table record's version: refusals must leave it alone.
func (h *harness) version(group *telegramtest.Chat) int64 {
	h.t.Helper()
	rec, err := h.store.Load(context.Background(), strconv.FormatInt(group.ID(), 10))
	if err != nil {
		h.t.Fatal(err)
	}
	return rec.Version
}

func (h *harness) expectAnswer(u *telegramtest.User, msg *telegramtest.Message, data, want string) {
	h.t.Helper()
	ans, err := u.PressData(msg, data)
	if err != nil {
		h.t.Fatalf("press %q: %v", data, err)
	}
	if !strings.Contains(ans.Text, want) {
		h.t.Errorf("press %q by %s: answer %q, want it to contain %q", data, u.User().FirstName, ans.Text, want)
	}
}

// data is the callback data of a message's button.
func data(m *telegramtest.Message, text string) string {
	b, _ := m.Button(text)
	return b.CallbackData
}

func (h *harness) expectReply(chat *telegramtest.Chat, want string) {
	h.t.Helper()
	if _, err := chat.WaitMessage(10*time.Second, contains(want)); err != nil {
		h.t.Errorf("no reply containing %q: %v", want, err)
	}
}

func TestBadInputsAreAnsweredAndChangeNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.begin(h.srv.NewUser("Аня"))
	b := h.begin(h.srv.NewUser("Борис"))
	c := h.begin(h.srv.NewUser("Вера"))
	stranger := h.begin(h.srv.NewUser("Чужой"))
	group := h.srv.NewGroup("Проверка", a, b, c, stranger)
	tid := strconv.FormatInt(group.ID(), 10)

	// Commands in the wrong kind of chat.
	a.Send(a.PrivateChat(), "/newgame")
	h.expectReply(a.PrivateChat(), "Эта команда работает в группе")

	// The lobby.
	a.Send(group, "/newgame trickchef")
	lobby, err := group.WaitMessage(10*time.Second, hasButton("✋ Присоединиться"))
	if err != nil {
		t.Fatal(err)
	}
	if ans, _ := b.Press(lobby, "✋ Присоединиться"); ans == nil || ans.Text != "Вы за столом!" {
		t.Fatalf("join: %+v", ans)
	}
	v := h.version(group)
	h.expectAnswer(b, lobby, data(lobby, "✋ Присоединиться"), "Вы уже за столом")
	h.expectAnswer(b, lobby, data(lobby, "▶️ Начать"), "только создатель стола")
	h.expectAnswer(a, lobby, data(lobby, "▶️ Начать"), "Нужно от 3 до 4 игроков")
	h.expectAnswer(stranger, lobby, data(lobby, "🚪 Выйти"), "Вас нет за этим столом")
	h.expectAnswer(stranger, lobby, "garbage", "Эта кнопка мне незнакома")
	h.expectAnswer(stranger, lobby, "l:"+tid+":1:99", "Эта кнопка мне незнакома")
	h.expectAnswer(stranger, lobby, "l:"+tid+":7:1", "Эта кнопка устарела")
	h.expectAnswer(stranger, lobby, strings.Repeat("x", 64), "Эта кнопка мне незнакома")
	if got := h.version(group); got != v {
		t.Errorf("refused lobby presses changed the table: version %d → %d", v, got)
	}
	if ans, _ := c.Press(lobby, "✋ Присоединиться"); ans == nil || ans.Text != "Вы за столом!" {
		t.Fatalf("join: %+v", ans)
	}
	h.startGame(group, a, lobby)
	a.Send(group, "/newgame")
	h.expectReply(group, "Здесь уже идёт игра")

	// Аня picks a chef first. Others' presses out of turn are refused.
	hand, err := a.PrivateChat().WaitMessage(10*time.Second, contains("Выберите Шефа"))
	if err != nil {
		t.Fatal(err)
	}
	pick := hand.Keyboard[0][0].CallbackData
	table, err := group.WaitMessage(10*time.Second, contains("раунд 1 из 3"))
	if err != nil {
		t.Fatal(err)
	}
	v = h.version(group)
	h.expectAnswer(stranger, table, pick, "Это не ваши кнопки")
	h.expectAnswer(b, table, fmt.Sprintf("a:%s:1:1:0:0", tid), "Сейчас не ваш ход")
	h.expectAnswer(a, table, fmt.Sprintf("a:%s:1:0:0:99999", tid), "Такого хода нет")
	h.expectAnswer(a, table, fmt.Sprintf("a:%s:1:9:0:0", tid), "Эта кнопка мне незнакома")
	h.expectAnswer(a, table, fmt.Sprintf("a:%s:0:0:0:0", tid), "от игры, которая уже закончилась")
	if got := h.version(group); got != v {
		t.Errorf("refused game presses changed the table: version %d → %d", v, got)
	}

	// A double tap: both presses answered, exactly one applied.
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
		if strings.Contains(ans, "устарела") {
			stale++
		}
	}
	if stale != 1 {
		t.Errorf("double tap answers %q and %q: want exactly one refused as stale", ans1.Text, ans2.Text)
	}
	if got := h.version(group); got != v+1 {
		t.Errorf("double tap: version %d → %d, want one change", v, got)
	}
	// The old button again: stale.
	h.expectAnswer(a, hand, pick, "устарела")

	// Play on until someone must follow suit, and try to break the rule.
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range []*telegramtest.User{b, c} {
		waits = append(waits, h.player(u, done))
	}
	var illegal string
	var illegalMsg *telegramtest.Message
	for illegal == "" {
		var msg *telegramtest.Message
		var btn telegramtest.Button
		err := h.srv.WaitFor(30*time.Second, func() bool {
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
			h.srv.WaitFor(5*time.Second, func() bool {
				m, _, ok := playable(a)
				return !ok || m.ID != msg.ID
			})
		}
	}
	v = h.version(group)
	h.expectAnswer(a, illegalMsg, illegal, "Нужно ходить в масть")
	if got := h.version(group); got != v {
		t.Errorf("an illegal card changed the table: version %d → %d", v, got)
	}

	// /stop: only the creator or an admin, with a confirmation.
	b.Send(group, "/stop")
	h.expectReply(group, "Остановить игру может создатель стола или администратор")
	a.Send(group, "/stop")
	confirm, err := group.WaitMessage(10*time.Second, hasButton("Да, остановить"))
	if err != nil {
		t.Fatal(err)
	}
	h.expectAnswer(b, confirm, data(confirm, "Да, остановить"), "Подтвердить может только тот")
	h.expectAnswer(a, confirm, data(confirm, "Нет, играем дальше"), "Играем дальше")
	a.Send(group, "/stop")
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return hasButton("Да, остановить")(m) && m.ID != confirm.ID
	}); err != nil {
		t.Fatal(err)
	}
	confirm = group.Find(hasButton("Да, остановить"))
	h.expectAnswer(a, confirm, data(confirm, "Да, остановить"), "Игра остановлена")
	close(done)
	for _, w := range waits {
		w()
	}
	h.expectReply(group, "⛔ Игра остановлена")
	if _, err := a.PrivateChat().WaitMessage(10*time.Second, contains("Игра остановлена")); err != nil {
		t.Errorf("the hand does not say the game was stopped: %v", err)
	}
	h.expectAnswer(a, illegalMsg, illegal, "от игры, которая уже закончилась")
}
