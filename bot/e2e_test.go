package bot_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

const testToken = "123456:TEST-token-for-the-fake-bot-api"

// speedup runs Telegram's rate limits this many times faster in the fake
// server and in the bot alike, so games finish quickly with limits on.
const speedup = 20

// harness is one fake Telegram, one Redis namespace, and a bot process
// that can be stopped and started again over the same store.
type harness struct {
	t      *testing.T
	srv    *telegramtest.Server
	store  *store.Redis
	cfg    bot.Config
	cancel context.CancelFunc
	done   sync.WaitGroup
}

func scaledLimits() (telegramtest.Limits, bot.Limits) {
	d := telegramtest.DefaultLimits()
	fake := telegramtest.Limits{
		Group:   telegramtest.Rate{N: d.Group.N, Per: d.Group.Per / speedup},
		Private: telegramtest.Rate{N: d.Private.N, Per: d.Private.Per / speedup},
		Global:  telegramtest.Rate{N: d.Global.N, Per: d.Global.Per / speedup},
	}
	ours := bot.Limits{
		GroupInterval:   3100 * time.Millisecond / speedup,
		PrivateInterval: 1100 * time.Millisecond / speedup,
		GlobalPerSecond: 30,
		GlobalWindow:    time.Second / speedup,
	}
	return fake, ours
}

func newHarness(t *testing.T, turnTimeout time.Duration) *harness {
	t.Helper()
	fake, ours := scaledLimits()
	srv := telegramtest.NewServer(telegramtest.WithLimits(fake))
	t.Cleanup(srv.Close)
	h := &harness{
		t:     t,
		srv:   srv,
		store: store.NewRedis(redistest.Client(t), redistest.Prefix(t)),
		cfg:   bot.Config{TurnTimeout: turnTimeout, AIDelay: 0, Limits: ours},
	}
	h.start()
	t.Cleanup(h.stop)
	return h
}

// start runs a bot process: the delivery worker and the update poller.
func (h *harness) start() {
	h.t.Helper()
	cat, err := locales.New()
	if err != nil {
		h.t.Fatal(err)
	}
	tg, err := tgbot.New(testToken, tgbot.WithServerURL(h.srv.URL), tgbot.WithSkipGetMe())
	if err != nil {
		h.t.Fatal(err)
	}
	log := zerolog.New(zerolog.NewTestWriter(h.t)).Level(zerolog.WarnLevel)
	b := bot.New(h.cfg, h.store, tg, cat, bot.WithLogger(log))
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.Init(ctx); err != nil {
		h.t.Fatal(err)
	}
	h.cancel = cancel
	h.done.Add(2)
	go func() { defer h.done.Done(); b.RunWorker(ctx) }()
	go func() {
		defer h.done.Done()
		b.Poll(ctx, &bot.Poller{APIURL: h.srv.URL, Token: testToken, Timeout: time.Second})
	}()
}

// stop ends the bot process abruptly, as a crash would: whatever was not
// committed is lost.
func (h *harness) stop() {
	if h.cancel != nil {
		h.cancel()
		h.done.Wait()
		h.cancel = nil
	}
}

// begin makes u open the private chat with the bot and waits for the greeting.
func (h *harness) begin(u *telegramtest.User) *telegramtest.User {
	h.t.Helper()
	u.Start("")
	if _, err := u.PrivateChat().WaitMessage(10*time.Second, contains("Привет")); err != nil {
		h.t.Fatalf("no greeting for %s: %v", u.User().FirstName, err)
	}
	return u
}

func contains(sub string) func(*telegramtest.Message) bool {
	return func(m *telegramtest.Message) bool { return strings.Contains(m.Text, sub) }
}

func hasButton(text string) func(*telegramtest.Message) bool {
	return func(m *telegramtest.Message) bool {
		for _, row := range m.Keyboard {
			for _, b := range row {
				if b.Text == text {
					return true
				}
			}
		}
		return false
	}
}

// lobby opens a lobby in the group and seats the other users through the
// Join button; robots are added on top.
func (h *harness) lobby(group *telegramtest.Chat, creator *telegramtest.User, others []*telegramtest.User, robots int) *telegramtest.Message {
	h.t.Helper()
	creator.Send(group, "/newgame@"+h.srv.Bot().Username)
	lobby, err := group.WaitMessage(10*time.Second, hasButton("✋ Присоединиться"))
	if err != nil {
		h.t.Fatalf("no lobby: %v", err)
	}
	for _, u := range others {
		ans, err := u.Press(lobby, "✋ Присоединиться")
		if err != nil {
			h.t.Fatalf("join %s: %v", u.User().FirstName, err)
		}
		if ans.Text != "Вы за столом!" {
			h.t.Fatalf("join %s answered %q", u.User().FirstName, ans.Text)
		}
	}
	for i := 0; i < robots; i++ {
		if _, err := creator.Press(lobby, "🤖 Добавить робота"); err != nil {
			h.t.Fatal(err)
		}
	}
	return lobby
}

func (h *harness) startGame(group *telegramtest.Chat, creator *telegramtest.User, lobby *telegramtest.Message) {
	h.t.Helper()
	ans, err := creator.Press(lobby, "▶️ Начать")
	if err != nil {
		h.t.Fatal(err)
	}
	if ans.Text != "Поехали!" {
		h.t.Fatalf("start answered %q", ans.Text)
	}
}

// playable finds the newest hand message of u with a move to make, and
// the first playable button on it (cards in brackets are not playable).
func playable(u *telegramtest.User) (*telegramtest.Message, telegramtest.Button, bool) {
	msgs := u.PrivateChat().Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, row := range msgs[i].Keyboard {
			for _, b := range row {
				if strings.HasPrefix(b.CallbackData, "a:") && !strings.HasPrefix(b.Text, "(") {
					return msgs[i], b, true
				}
			}
		}
	}
	return nil, telegramtest.Button{}, false
}

// player presses u's first playable button whenever there is a new one,
// until done is closed. It returns the answers it got.
func (h *harness) player(u *telegramtest.User, done <-chan struct{}) func() []string {
	var answers []string
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		pressed := map[string]bool{}
		for {
			var msg *telegramtest.Message
			var btn telegramtest.Button
			h.srv.WaitFor(time.Minute, func() bool {
				select {
				case <-done:
					return true
				default:
				}
				m, b, ok := playable(u)
				if ok && !pressed[b.CallbackData] {
					msg, btn = m, b
					return true
				}
				return false
			})
			select {
			case <-done:
				return
			default:
			}
			if msg == nil {
				continue
			}
			pressed[btn.CallbackData] = true
			ans, err := u.PressData(msg, btn.CallbackData)
			if err == nil && ans.Text != "" {
				answers = append(answers, ans.Text)
			}
		}
	}()
	return func() []string { <-finished; return answers }
}

// playToEnd runs the people until the group shows the final result.
func (h *harness) playToEnd(group *telegramtest.Chat, people []*telegramtest.User, timeout time.Duration) *telegramtest.Message {
	h.t.Helper()
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range people {
		waits = append(waits, h.player(u, done))
	}
	final, err := group.WaitMessage(timeout, contains("Победител"))
	close(done)
	for _, w := range waits {
		w()
	}
	if err != nil {
		h.dumpGroup(group)
		h.t.Fatalf("the game did not end: %v", err)
	}
	return final
}

func (h *harness) dumpGroup(group *telegramtest.Chat) {
	for _, m := range group.Messages() {
		h.t.Logf("group message %d:\n%s", m.ID, m.Text)
	}
}

// checkLimits asserts the bot stayed inside Telegram's limits.
func (h *harness) checkLimits(group *telegramtest.Chat) {
	h.t.Helper()
	if n := h.srv.TooManyRequestsCount(); n != 0 {
		h.t.Errorf("the bot got %d answers 429", n)
	}
	if peak := h.srv.PeakCalls(group.ID(), time.Minute/speedup); peak > 20 {
		h.t.Errorf("%d calls to the group in one (scaled) minute, want ≤ 20", peak)
	}
}

func TestFullGameOfFourPeople(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб"} {
		people = append(people, h.begin(h.srv.NewUser(name, telegramtest.WithLanguage("ru"))))
	}
	group := h.srv.NewGroup("Друзья", people...)
	lobby := h.lobby(group, people[0], people[1:], 0)
	h.startGame(group, people[0], lobby)
	final := h.playToEnd(group, people, 3*time.Minute)
	if !strings.Contains(final.Text, "Победитель") && !strings.Contains(final.Text, "Победители") {
		t.Errorf("final message: %q", final.Text)
	}
	rounds := 0
	for _, m := range group.Messages() {
		if strings.Contains(m.Text, "Раунд") && strings.Contains(m.Text, "окончен") {
			rounds++
		}
	}
	if rounds != 3 {
		t.Errorf("%d round results posted, want 3", rounds)
	}
	h.checkLimits(group)
	t.Logf("group calls: %d; peak in a scaled minute: %d", h.srv.CallsPerChat()[group.ID()], h.srv.PeakCalls(group.ID(), time.Minute/speedup))
}

func TestTwoPeopleAndTwoRobots(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.srv.NewUser("Аня")
	b := h.srv.NewUser("Борис")
	h.begin(a)
	h.begin(b)
	group := h.srv.NewGroup("Двое", a, b)
	lobby := h.lobby(group, a, []*telegramtest.User{b}, 2)
	h.startGame(group, a, lobby)
	h.playToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute)
	h.checkLimits(group)
}

func TestPlayerWhoNeverMoves(t *testing.T) {
	t.Parallel()
	h := newHarness(t, 300*time.Millisecond)
	a := h.srv.NewUser("Аня")
	b := h.srv.NewUser("Соня")
	h.begin(a)
	h.begin(b)
	group := h.srv.NewGroup("Сонное царство", a, b)
	lobby := h.lobby(group, a, []*telegramtest.User{b}, 1)
	h.startGame(group, a, lobby)
	if _, err := group.WaitMessage(30*time.Second, contains("Время вышло — за игрока Соня сходил бот")); err != nil {
		h.dumpGroup(group)
		t.Fatalf("no timeout notice: %v", err)
	}
	h.playToEnd(group, []*telegramtest.User{a}, 3*time.Minute)
}

func TestRestartInTheMiddleOfATrick(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера"} {
		people = append(people, h.begin(h.srv.NewUser(name)))
	}
	group := h.srv.NewGroup("Перезапуск", people...)
	lobby := h.lobby(group, people[0], people[1:], 0)
	h.startGame(group, people[0], lobby)

	// Play until the second trick of the first round has a card on it.
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range people {
		waits = append(waits, h.player(u, done))
	}
	_, err := group.WaitMessage(time.Minute, func(m *telegramtest.Message) bool {
		return strings.Contains(m.Text, "взятка 2 из 10") && strings.Contains(m.Text, "На столе")
	})
	close(done)
	for _, w := range waits {
		w()
	}
	if err != nil {
		h.dumpGroup(group)
		t.Fatal(err)
	}
	h.stop()
	h.start()
	// Everybody keeps playing with the hand messages they already have.
	h.playToEnd(group, people, 3*time.Minute)
	h.checkLimits(group)
}

func TestTooManyRequestsAreWaitedOut(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.srv.NewUser("Аня")
	h.begin(a)
	group := h.srv.NewGroup("Флуд", a)
	h.srv.FailNext("sendMessage", 1, telegramtest.TooManyRequests(1))
	lobby := h.lobby(group, a, nil, 2)
	h.srv.FailNext("editMessageText", 2, telegramtest.TooManyRequests(1))
	h.startGame(group, a, lobby)
	h.playToEnd(group, []*telegramtest.User{a}, 3*time.Minute)
	if n := h.srv.TooManyRequestsCount(); n < 3 {
		t.Errorf("expected the 3 forced 429s to be seen, got %d", n)
	}
}

func TestJoinThroughDeepLink(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.srv.NewUser("Аня")
	h.begin(a)
	stranger := h.srv.NewUser("Новенький")
	group := h.srv.NewGroup("Ссылка", a, stranger)
	a.Send(group, "/newgame")
	lobby, err := group.WaitMessage(10*time.Second, hasButton("✋ Присоединиться"))
	if err != nil {
		t.Fatal(err)
	}
	ans, err := stranger.Press(lobby, "✋ Присоединиться")
	if err != nil {
		t.Fatal(err)
	}
	wantURL := fmt.Sprintf("https://t.me/%s?start=j%d", h.srv.Bot().Username, group.ID())
	if ans.URL != wantURL {
		t.Fatalf("join by a user the bot can't write to: url %q, want %q (text %q)", ans.URL, wantURL, ans.Text)
	}
	stranger.Start(fmt.Sprintf("j%d", group.ID()))
	if _, err := stranger.PrivateChat().WaitMessage(10*time.Second, contains("Вы за столом")); err != nil {
		t.Fatal(err)
	}
	if _, err := group.WaitMessage(10*time.Second, contains("2. Новенький")); err != nil {
		h.dumpGroup(group)
		t.Fatal(err)
	}
	if _, err := a.Press(lobby, "🤖 Добавить робота"); err != nil {
		t.Fatal(err)
	}
	h.startGame(group, a, lobby)
	h.playToEnd(group, []*telegramtest.User{a, stranger}, 3*time.Minute)
}
