package bot_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// harness is bottest.Test with the helpers of this package's tests.
type harness struct{ *bottest.Test }

// newHarness runs a bot with every game over a fresh namespace of the
// test Redis server.
func newHarness(t *testing.T, turnTimeout time.Duration) *harness {
	t.Helper()
	return &harness{bottest.NewTest(t, allGames(), turnTimeout)}
}

// newFloodHarness is newHarness whose bot limits each person's presses as
// in production (Telegram's limits stay scaled): for tests of a flood.
func newFloodHarness(t *testing.T, turnTimeout time.Duration) *harness {
	t.Helper()
	st := store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})
	return &harness{bottest.NewTestLimits(t, st, allGames(), turnTimeout, func(l *bot.Limits) {
		l.PressesPerSecond, l.PressBurst = 0, 0 // the defaults
	})}
}

var (
	contains  = bottest.Contains
	hasButton = bottest.HasButton
	playable  = bottest.Playable
)

// Tests find the bot's messages through the catalog (h.T, h.Shown), never
// by a typed phrase; the helpers below match what a template shows
// whatever its arguments.

// between is the value a line shows between before and after, if it
// starts and ends so.
func between(line, before, after string) (string, bool) {
	mid, ok := strings.CutPrefix(line, before)
	if !ok {
		return "", false
	}
	return strings.CutSuffix(mid, after)
}

// firstLine is a message's first line.
func firstLine(m *telegramtest.Message) string {
	line, _, _ := strings.Cut(m.Text, "\n")
	return line
}

// trickIn returns a function that reads the trick from the group table of
// a Трик-н-Шеф game in the given round (its first line is that round's
// header), and whether the message is such a table.
func trickIn(h *bottest.Harness, round int) func(*telegramtest.Message) (int, bool) {
	before, after := h.Around("trickchef.header", "Trick", "Title", h.T("trickchef.title"), "Round", round)
	return func(m *telegramtest.Message) (int, bool) {
		mid, ok := between(firstLine(m), before, after)
		if !ok {
			return 0, false
		}
		n, err := strconv.Atoi(mid)
		return n, err == nil
	}
}

// inRound matches the group table of a Трик-н-Шеф game in the given round.
func inRound(h *bottest.Harness, round int) func(*telegramtest.Message) bool {
	trick := trickIn(h, round)
	return func(m *telegramtest.Message) bool {
		_, ok := trick(m)
		return ok
	}
}

// roundOver matches a line that announces the end of a Трик-н-Шеф round,
// whichever round.
func roundOver(h *bottest.Harness) func(line string) bool {
	before, after := h.Around("trickchef.round_over", "Round")
	return func(line string) bool {
		mid, ok := between(line, before, after)
		_, err := strconv.Atoi(mid)
		return ok && err == nil
	}
}

func TestFullGameOfFourPeople(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name, telegramtest.WithLanguage("ru"))))
	}
	group := h.Srv.NewGroup("Друзья", people...)
	lobby := h.MustLobby(group, people[0], people[1:], 0)
	h.MustStartGame(people[0], lobby)
	final := h.MustPlayToEnd(group, people, 3*time.Minute)
	if !h.Won()(final) {
		t.Errorf("final message: %q", final.Text)
	}
	rounds := 0
	isRoundOver := roundOver(h.Harness)
	for _, m := range group.Messages() {
		if isRoundOver(firstLine(m)) {
			rounds++
		}
	}
	if rounds != 3 {
		t.Errorf("%d round results posted, want 3", rounds)
	}
	// Each player keeps one hand message: replaced ones are deleted.
	hand, _ := h.Around("trickchef.hand_header", "Round", "Title", h.T("trickchef.title"), "Chat", group.Chat().Title, "Trick", 1)
	for _, u := range people {
		hands := func() int {
			n := 0
			for _, m := range u.PrivateChat().Messages() {
				if strings.HasPrefix(m.Text, hand) {
					n++
				}
			}
			return n
		}
		if err := h.Srv.WaitFor(10*time.Second, func() bool { return hands() == 1 }); err != nil {
			t.Errorf("%s has %d hand messages, want 1", u.User().FirstName, hands())
		}
	}
	// Every turn is announced by a new message (edits do not notify): a
	// player has about 40 turns in a game of 160 moves, some in a row.
	for _, u := range people {
		sends := 0
		for _, c := range h.Srv.Calls() {
			if c.ChatID == u.ID() && c.Method == "sendMessage" && c.OK {
				sends++
			}
		}
		if sends < 15 {
			t.Errorf("%s was sent %d messages in a whole game: their turns did not notify them", u.User().FirstName, sends)
		}
	}
	h.CheckLimits(group)
	t.Logf("group calls: %d; peak in a scaled minute: %d", h.Srv.CallsPerChat()[group.ID()], h.Srv.PeakCalls(group.ID(), time.Minute/bottest.Speedup))
}

func TestTwoPeopleAndTwoRobots(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.Srv.NewUser("Аня")
	b := h.Srv.NewUser("Борис")
	h.MustBegin(a)
	h.MustBegin(b)
	group := h.Srv.NewGroup("Двое", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 2)
	h.MustStartGame(a, lobby)
	h.MustPlayToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute)
	h.CheckLimits(group)
}

func TestPlayerWhoNeverMoves(t *testing.T) {
	t.Parallel()
	h := newHarness(t, 300*time.Millisecond)
	a := h.Srv.NewUser("Аня")
	b := h.Srv.NewUser("Соня")
	h.MustBegin(a)
	h.MustBegin(b)
	group := h.Srv.NewGroup("Сонное царство", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)
	if _, err := group.WaitMessage(30*time.Second, contains(h.Shown("event.timeout", "Name", "Соня"))); err != nil {
		h.DumpGroup(group)
		t.Fatalf("no timeout notice: %v", err)
	}
	// After two timeouts in a row the bot plays for Соня until she is back.
	done := make(chan struct{})
	wait := h.Player(a, done, nil)
	auto, err := b.PrivateChat().WaitMessage(30*time.Second, hasButton(h.T("auto.back_button")))
	if err != nil {
		t.Fatalf("no auto-play notice in the hand: %v", err)
	}
	ans, err := b.Press(auto, h.T("auto.back_button"))
	close(done)
	wait()
	if err != nil || ans.Text != h.T("auto.welcome_back") {
		t.Fatalf("back: %+v %v", ans, err)
	}
	h.MustPlayToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute)
}

func TestTooManyRequestsAreWaitedOut(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.Srv.NewUser("Аня")
	h.MustBegin(a)
	group := h.Srv.NewGroup("Флуд", a)
	h.Srv.FailNext("sendMessage", 1, telegramtest.TooManyRequests(1))
	lobby := h.MustLobby(group, a, nil, 2)
	h.Srv.FailNext("editMessageText", 2, telegramtest.TooManyRequests(1))
	h.MustStartGame(a, lobby)
	h.MustPlayToEnd(group, []*telegramtest.User{a}, 3*time.Minute)
	if n := h.Srv.TooManyRequestsCount(); n < 3 {
		t.Errorf("expected the 3 forced 429s to be seen, got %d", n)
	}
}

func TestJoinThroughDeepLink(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.Srv.NewUser("Аня")
	h.MustBegin(a)
	stranger := h.Srv.NewUser("Новенький")
	group := h.Srv.NewGroup("Ссылка", a, stranger)
	a.Send(group, "/newgame trickchef")
	lobby, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.join_button")))
	if err != nil {
		t.Fatal(err)
	}
	ans, err := stranger.Press(lobby, h.T("lobby.join_button"))
	if err != nil {
		t.Fatal(err)
	}
	// The answer opens the private chat with the lobby's own join link.
	link := joinLink(t, h, lobby)
	wantURL := fmt.Sprintf("https://t.me/%s?start=%s", h.Srv.Bot().Username, link)
	if ans.URL != wantURL {
		t.Fatalf("join by a user the bot can't write to: url %q, want %q (text %q)", ans.URL, wantURL, ans.Text)
	}
	stranger.Start(link)
	if _, err := stranger.PrivateChat().WaitMessage(10*time.Second, contains(h.Shown("start.joined", "Title", group.Chat().Title))); err != nil {
		t.Fatal(err)
	}
	if _, err := group.WaitMessage(10*time.Second, contains("2. Новенький")); err != nil {
		h.DumpGroup(group)
		t.Fatal(err)
	}
	if _, err := a.Press(lobby, h.T("lobby.ai_button")); err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, lobby)
	h.MustPlayToEnd(group, []*telegramtest.User{a, stranger}, 3*time.Minute)
}

func TestForumTopicKeepsItsThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	forum := h.Srv.NewForum("Форум", a)
	topic := forum.NewTopic("Карты")
	a.Send(topic, "/newgame трик-н-шеф")
	lobby, err := topic.WaitMessage(10*time.Second, hasButton(h.T("lobby.join_button")))
	if err != nil {
		t.Fatalf("no lobby in the topic: %v", err)
	}
	if lobby.ThreadID != topic.ThreadID() {
		t.Errorf("lobby in thread %d, want %d", lobby.ThreadID, topic.ThreadID())
	}
	for i := 0; i < 2; i++ {
		if _, err := a.Press(lobby, h.T("lobby.ai_button")); err != nil {
			t.Fatal(err)
		}
	}
	h.MustStartGame(a, lobby)
	final := h.MustPlayToEnd(topic, []*telegramtest.User{a}, 3*time.Minute)
	if final.ThreadID != topic.ThreadID() {
		t.Errorf("result in thread %d, want %d", final.ThreadID, topic.ThreadID())
	}
}

func TestGroupUpgradedToSupergroupMidGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewBasicGroup("Старая группа", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)
	if _, err := group.WaitMessage(10*time.Second, inRound(h.Harness, 1)); err != nil {
		t.Fatal(err)
	}
	super := group.Migrate()
	if _, err := super.WaitMessage(10*time.Second, inRound(h.Harness, 1)); err != nil {
		t.Fatalf("the table did not move to the supergroup: %v", err)
	}
	h.MustPlayToEnd(super, []*telegramtest.User{a, b}, 3*time.Minute)
}

func TestPlainNewGameOffersAChoice(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Выбор", a)
	a.Send(group, "/newgame")
	sausages := h.T("sausages.title")
	choice, err := group.WaitMessage(10*time.Second, hasButton(sausages))
	if err != nil {
		t.Fatalf("no game choice: %v", err)
	}
	if _, ok := choice.Button(h.T("trickchef.title")); !ok {
		t.Fatalf("the choice lacks Трик-н-Шеф: %+v", choice.Keyboard)
	}
	if _, err := a.Press(choice, sausages); err != nil {
		t.Fatal(err)
	}
	if _, err := group.WaitMessage(10*time.Second, contains(h.Shown("lobby.title", "Game", sausages))); err != nil {
		t.Fatalf("the lobby did not turn into a Сосиски lobby: %v", err)
	}
}

// TestSausagesWithRobots plays Сосиски: two people and three robots, and
// Трик-н-Шеф in another group of the same bot at the same time.
func TestSausagesWithRobotsNextToTrickchef(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	c := h.MustBegin(h.Srv.NewUser("Вера"))
	sausages := h.Srv.NewGroup("Сосиски", a, b)
	trick := h.Srv.NewGroup("Трик", c)
	lobby, err := h.LobbyFor("sausages", sausages, a, []*telegramtest.User{b}, 3)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, lobby)
	lobby2 := h.MustLobby(trick, c, nil, 2)
	h.MustStartGame(c, lobby2)
	done := make(chan struct{})
	wc := h.Player(c, done, nil)
	h.MustPlayToEnd(sausages, []*telegramtest.User{a, b}, 3*time.Minute)
	if _, err := trick.WaitMessage(3*time.Minute, h.Won()); err != nil {
		t.Errorf("the Трик-н-Шеф game next door did not end: %v", err)
	}
	close(done)
	wc()
	h.CheckLimits(sausages)
}

// TestRobotLevels adds a «Шеф» and a «Повар» robot through the lobby's
// level button and plays a game with them.
func TestRobotLevels(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Уровни", a)
	a.Send(group, "/newgame trickchef")
	lobby, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.join_button")))
	if err != nil {
		t.Fatal(err)
	}
	levelButton, _ := h.Around("lobby.level_button", "Level")
	cook, shef := h.T("trickchef.level.cook"), h.T("trickchef.level.shef")
	for _, want := range []string{cook, shef} {
		if _, err := a.PressFunc(lobby, func(b telegramtest.Button) bool { return strings.HasPrefix(b.Text, levelButton) }); err != nil {
			t.Fatal(err)
		}
		if _, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.level_button", "Level", want))); err != nil {
			t.Fatalf("level did not change to %s: %v", want, err)
		}
		if _, err := a.Press(lobby, h.T("lobby.ai_button")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return strings.Contains(m.Text, "· "+cook+"\n") && strings.Contains(m.Text, "· "+shef+"\n")
	}); err != nil {
		h.DumpGroup(group)
		t.Fatalf("the lobby does not list both robots with their levels: %v", err)
	}
	h.MustStartGame(a, lobby)
	h.MustPlayToEnd(group, []*telegramtest.User{a}, 3*time.Minute)
}
