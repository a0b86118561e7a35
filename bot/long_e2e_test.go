package bot_test

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
)

// movedClock is the bot's clock in a test of long games: real time from a
// chosen moment, moved on by hours when the test says so (the workers look
// at their queues at least every half second, so they notice).
type movedClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func newMovedClock(at time.Time) *movedClock { return &movedClock{offset: time.Until(at)} }

func (c *movedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// To moves the clock on to at (never back).
func (c *movedClock) To(at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := time.Until(at); d > c.offset {
		c.offset = d
	}
}

// withClock restarts h's bot on clock.
func withClock(h *harness, clock *movedClock) {
	h.Stop()
	h.Now = clock.Now
	h.MustStart()
}

// lobbyData is the callback data of the lobby button op (and arg) of the
// lobby message m (its table and game number are its buttons').
func lobbyData(t *testing.T, m *telegramtest.Message, args ...int) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if p, err := callback.Parse(b.CallbackData); err == nil && p.Op == callback.Lobby {
			return callback.Data{Op: callback.Lobby, Table: p.Table, GameNo: p.GameNo, Args: args}.String()
		}
	}
	t.Fatalf("no lobby button on %q", m.Text)
	return ""
}

// pressData presses data on msg as u and waits for the answer.
func (h *harness) pressData(u *telegramtest.User, msg *telegramtest.Message, data string) string {
	h.TB.Helper()
	ans, err := u.PressData(msg, data)
	if err != nil {
		h.TB.Fatal(err)
	}
	return ans.Text
}

// countIn is how many messages of chat match pred.
func countIn(chat *telegramtest.Chat, pred func(*telegramtest.Message) bool) int {
	n := 0
	for _, m := range chat.Messages() {
		if pred(m) {
			n++
		}
	}
	return n
}

// TestLongGameOverDays plays a long game through the fake Bot API on the
// bot's clock, moved on by hours: Трик-н-Шеф at 24 hours a move in
// Yekaterinburg (chosen in the lobby), Аня moving at once, Борис never.
// The game starts on Monday at 21:00, so Борис's first turn is due on
// Wednesday at 17:00 (two nights do not count), which his hand says. The
// night is quiet; the bot is killed and started again in the middle of
// it. On Wednesday at 11:00 Борис gets his one reminder; another restart
// sends it again to nobody; at 17:00 his time runs out and the bot moves
// for him. His next turn runs out too (on Friday at 13:00, after its own
// reminder on Thursday at 21:00): from then on the bot plays for him, and
// the group is told so once. The game goes on to its end.
func TestLongGameOverDays(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	yekt, err := time.LoadLocation("Asia/Yekaterinburg")
	if err != nil {
		t.Fatal(err)
	}
	day := func(d, hour, min int) time.Time { return time.Date(2026, 11, d, hour, min, 0, 0, yekt) }
	clock := newMovedClock(day(23, 20, 55))
	withClock(h, clock)
	a, b := h.MustBegin(h.Srv.NewUser("Аня")), h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Дача", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)

	// ⏳ to 24 hours, then the zone: the zones' list, Екатеринбург in it.
	for range 3 { // 1 min → 3 min → 1 h → 12 h, and then to 24 h
		h.pressData(a, lobby, lobbyData(t, lobby, callback.LobbyTurn))
	}
	if ans := h.pressData(a, lobby, lobbyData(t, lobby, callback.LobbyTurn)); ans != h.T("lobby.turn_set", "Time", h.T("count.hours", "Count", 24)) {
		t.Fatalf("the fourth press of ⏳ answered %q", ans)
	}
	long := h.T("lobby.turn_button", "Time", h.T("count.hours", "Count", 24))
	if _, err := group.WaitMessage(10*time.Second, hasButton(long)); err != nil {
		t.Fatalf("the lobby does not offer 24 hours: %v", err)
	}
	h.pressData(a, lobby, lobbyData(t, lobby, callback.LobbyZone))
	picker, err := group.WaitMessage(10*time.Second, hasButton(h.T("zone.yekaterinburg")))
	if err != nil {
		t.Fatalf("no zones: %v", err)
	}
	if ans, err := a.Press(picker, h.T("zone.yekaterinburg")); err != nil || ans.Text != h.T("lobby.zone_set", "Zone", h.T("zone.yekaterinburg")) {
		t.Fatalf("picking Екатеринбург: %v %+v", err, ans)
	}
	if _, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.zone_button", "Zone", h.T("zone.yekaterinburg")))); err != nil {
		t.Fatalf("the lobby does not name the zone: %v", err)
	}
	clock.To(day(23, 21, 0))
	h.MustStartGame(a, lobby)
	id := strconv.FormatInt(group.ID(), 10)

	// Аня plays whenever it is her turn; Борис never does.
	done := make(chan struct{})
	stopAnya := h.Player(a, done, nil)
	defer func() { close(done); stopAnya() }()

	wed17 := h.Shown("table.deadline_night", "Until", h.T("until.day", "Day", h.T("until.wed"), "Time", "17:00"))
	if _, err := b.PrivateChat().WaitMessage(20*time.Second, func(m *telegramtest.Message) bool {
		_, _, ok := bottest.PlayableAt(b, id)
		return ok && contains(wed17)(m)
	}); err != nil {
		tab, _ := h.Table(group)
		t.Fatalf("Борис's hand does not say %q: %v; seats %+v", wed17, err, tab.Seats)
	}
	longLine := h.Shown("table.long", "Turn", h.T("count.hours", "Count", 24), "Night", "23:00–09:00", "Zone", h.T("zone.yekaterinburg"))
	if _, err := group.WaitMessage(10*time.Second, contains(longLine)); err != nil {
		t.Errorf("the group's table does not say it is the long game: %v", err)
	}

	remind := func() func(*telegramtest.Message) bool {
		before, _ := h.Around("remind.text", "Until", "Game", h.T("trickchef.title"), "Title", "Дача")
		return contains(before)
	}()
	// The night: nothing is due, the bot is killed and started again.
	clock.To(day(24, 2, 0))
	time.Sleep(time.Second)
	h.Stop()
	h.MustStart()
	clock.To(day(24, 3, 0))
	time.Sleep(time.Second)
	if n := countIn(b.PrivateChat(), remind); n != 0 {
		t.Fatalf("%d reminders at night", n)
	}
	if tab, _ := h.Table(group); tab.Seats[1].Due.In(yekt).Day() != 25 || tab.Seats[1].Due.In(yekt).Hour() != 17 || tab.Seats[1].RemindAt().In(yekt).Hour() != 11 {
		t.Fatalf("after the night's restart Борис's turn: %+v", tab.Seats[1])
	}

	// Wednesday 11:00: one reminder; a restart sends nothing again.
	clock.To(day(25, 11, 0).Add(time.Second))
	if _, err := b.PrivateChat().WaitMessage(20*time.Second, remind); err != nil {
		tab, _ := h.Table(group)
		t.Fatalf("no reminder on Wednesday at 11:00: %v; Борис %+v", err, tab.Seats[1])
	}
	h.Stop()
	h.MustStart()
	time.Sleep(2 * time.Second)
	if n := countIn(b.PrivateChat(), remind); n != 1 {
		t.Fatalf("%d reminders after a restart, want 1", n)
	}
	if n := countIn(a.PrivateChat(), remind); n != 0 {
		t.Errorf("Аня, who moves at once, was reminded %d times", n)
	}

	// Wednesday 17:00: his time runs out, the bot moves for him.
	clock.To(day(25, 17, 0).Add(time.Second))
	timedOut := contains(h.Shown("event.timeout", "Name", "Борис"))
	if _, err := group.WaitMessage(20*time.Second, timedOut); err != nil {
		t.Fatalf("no timeout on Wednesday at 17:00: %v", err)
	}
	if tab, _ := h.Table(group); tab.Seats[1].Timeouts != 1 {
		t.Fatalf("after the first timeout: %+v", tab.Seats[1])
	}

	// His next turn, begun at 17:00: reminded on Thursday at 21:00, due
	// on Friday at 13:00 (6 + 14 + 4 hours).
	if err := h.Srv.WaitFor(20*time.Second, func() bool {
		tab, _ := h.Table(group)
		return tab.Seats[1].Turn != nil && tab.Seats[1].Turn.Nonce == tab.Seats[1].Nonce
	}); err != nil {
		t.Fatal("Борис's second turn did not come")
	}
	tab, _ := h.Table(group)
	if due := tab.Seats[1].Due.In(yekt); due.Day() != 27 || due.Hour() != 13 {
		t.Errorf("his second turn is due %v, want Friday 13:00", due)
	}
	clock.To(day(26, 21, 0).Add(time.Second))
	if err := h.Srv.WaitFor(20*time.Second, func() bool { return countIn(b.PrivateChat(), remind) == 2 }); err != nil {
		t.Fatalf("no second reminder on Thursday at 21:00 (%d)", countIn(b.PrivateChat(), remind))
	}
	clock.To(day(27, 13, 0).Add(time.Second))
	autoNotice := contains(h.Shown("auto.group", "Name", "Борис"))
	if _, err := group.WaitMessage(20*time.Second, autoNotice); err != nil {
		t.Fatalf("the group was not told that I play for Борис: %v", err)
	}
	if _, err := group.WaitMessage(2*time.Minute, h.Won()); err != nil {
		tab, _ := h.Table(group)
		t.Fatalf("the game did not end: %v; %+v", err, tab.Seats)
	}
	if n := countIn(group, autoNotice); n != 1 {
		t.Errorf("the group was told %d times that I play for Борис", n)
	}
	if n := countIn(b.PrivateChat(), remind); n != 2 {
		t.Errorf("Борис got %d reminders, want 2 (one per turn he had to make)", n)
	}
	h.CheckReplay(group)
}

// TestLongAndQuickInOneChat: a group plays Трик-н-Шеф at an hour a move
// and, while it goes on, Меню шефа at 20 seconds at its table 2; the
// same person (Аня) sits at both. /stop asks which game; /table posts
// both; both games are played to the end at once, each through its own
// buttons, and both are recorded: /history lists both.
func TestLongAndQuickInOneChat(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	msk, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		t.Fatal(err)
	}
	clock := newMovedClock(time.Date(2026, 11, 23, 12, 0, 0, 0, msk))
	withClock(h, clock)
	a, b, v := h.MustBegin(h.Srv.NewUser("Аня")), h.MustBegin(h.Srv.NewUser("Борис")), h.MustBegin(h.Srv.NewUser("Вера"))
	group := h.Srv.NewGroup("Клуб", a, b, v)
	longLobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	for range 2 { // 1 min → 3 min → 1 h
		h.pressData(a, longLobby, lobbyData(t, longLobby, callback.LobbyTurn))
	}
	if _, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.turn_button", "Time", h.T("count.hours", "Count", 1)))); err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, longLobby)
	own := strconv.FormatInt(group.ID(), 10)
	if err := h.Srv.WaitFor(10*time.Second, func() bool { return !hasButton(h.T("lobby.join_button"))(group.Message(longLobby.ID)) }); err != nil {
		t.Fatal("the long game's lobby did not turn into its table")
	}
	second := record.TableID(group.ID(), 0, 2)

	// Вера opens Меню шефа: table 2's lobby, which names its table.
	quickLobby, err := h.LobbyFor("chef", group, v, []*telegramtest.User{a}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(bottest.Plain(quickLobby.Text), h.Shown("table.number", "N", 2)) {
		t.Errorf("table 2's lobby does not name its table:\n%s", quickLobby.Text)
	}
	if p, _ := callback.Parse(quickLobby.Buttons()[0].CallbackData); p.Table != second {
		t.Fatalf("the quick lobby is at %q, want %q", p.Table, second)
	}
	for range 5 { // 1 min → 3 min → 1 h → 12 h → 24 h → 20 s
		h.pressData(v, quickLobby, lobbyData(t, quickLobby, callback.LobbyTurn))
	}
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		tab, _ := h.loadTable(second)
		return tab.TurnTime == 20*time.Second
	}); err != nil {
		tab, _ := h.loadTable(second)
		t.Fatalf("the quick lobby's time: %v", tab.TurnTime)
	}
	h.MustStartGame(v, quickLobby)

	// /stop: which game? Борис may stop neither (he is no admin, and the
	// creator of neither); Аня asks to stop hers, and keeps it.
	a.Send(group, "/stop@"+h.Srv.Bot().Username)
	which, err := group.WaitMessage(10*time.Second, contains(h.Shown("stop.which")))
	if err != nil {
		t.Fatal(err)
	}
	var ownStop, quickStop string
	for _, bt := range which.Buttons() {
		if p, err := callback.Parse(bt.CallbackData); err == nil && p.Op == callback.Stop {
			if p.Table == own {
				ownStop = bt.CallbackData
			} else if p.Table == second {
				quickStop = bt.CallbackData
			}
		}
	}
	if ownStop == "" || quickStop == "" {
		t.Fatalf("the question does not offer both games: %+v", which.Buttons())
	}
	if ans, err := b.PressData(which, quickStop); err != nil || ans.Text != h.T("stop.not_allowed") {
		t.Errorf("Борис stopping Вера's game: %v %+v", err, ans)
	}
	h.pressData(a, which, ownStop)
	confirm, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID == which.ID && strings.Contains(m.Text, h.Shown("stop.confirm"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if ans, err := a.Press(confirm, h.T("stop.no")); err != nil || ans.Text != h.T("stop.kept") {
		t.Fatalf("keeping the game: %v %+v", err, ans)
	}

	// /table posts both tables anew.
	before := countIn(group, contains(h.Shown("table.moved")))
	b.Send(group, "/table@"+h.Srv.Bot().Username)
	if err := h.Srv.WaitFor(20*time.Second, func() bool { return countIn(group, contains(h.Shown("table.moved"))) >= before+2 }); err != nil {
		t.Errorf("/table did not post both tables anew (%d moved)", countIn(group, contains(h.Shown("table.moved")))-before)
	}

	// Both games to the end at once: each person presses each table's
	// buttons as they come.
	done := make(chan struct{})
	waits := []func() []string{h.PlayerAt(a, own, done, nil), h.PlayerAt(a, second, done, nil),
		h.PlayerAt(b, own, done, nil), h.PlayerAt(v, second, done, nil)}
	err = h.Srv.WaitFor(3*time.Minute, func() bool { return countIn(group, h.Won()) >= 2 })
	close(done)
	for _, w := range waits {
		w()
	}
	if err != nil {
		t.Fatalf("the two games did not both end (%d finals)", countIn(group, h.Won()))
	}
	a.Send(group, "/history@"+h.Srv.Bot().Username)
	if _, err := group.WaitMessage(20*time.Second, func(m *telegramtest.Message) bool {
		return strings.Contains(m.Text, h.Shown("history.title")) && strings.Contains(m.Text, h.T("trickchef.title")) && strings.Contains(m.Text, h.T("chef.title"))
	}); err != nil {
		t.Errorf("/history does not list both games: %v", err)
	}
}

// loadTable is table id's record as committed.
func (h *harness) loadTable(id string) (*record.Table, error) {
	rec, err := h.Redis.Load(h.TB.Context(), id)
	if err != nil {
		return nil, err
	}
	return record.Decode(rec.Data)
}
