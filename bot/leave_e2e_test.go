package bot_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// End-to-end tests of leaving a running game, of the bot playing for an
// absent person, and of each person's private result, through the fake
// Bot API. Texts are found through the catalog's keys.

// seatOfLeaver is the seat user left, or -1.
func seatOfLeaver(tab *record.Table, user int64) int {
	for i, s := range tab.Seats {
		if s.Leaver != nil && s.Leaver.UserID == user {
			return i
		}
	}
	return -1
}

// resultSeatOf is player's seat in a recorded result.
func resultSeatOf(t *testing.T, r store.Result, player string) store.ResultSeat {
	t.Helper()
	for _, s := range r.Seats {
		if s.Player == player {
			return s
		}
	}
	t.Fatalf("%s not in the result %+v", player, r)
	return store.ResultSeat{}
}

// checkCountedNotRated waits for the group's one recorded result and checks
// that unrated's game was counted but not rated — their private result
// saying why (the catalog's reason key) — while rated's game was rated. It
// returns unrated's seat as recorded.
func checkCountedNotRated(t *testing.T, h *harness, group *telegramtest.Chat, unrated, rated *telegramtest.User, reason string) store.ResultSeat {
	t.Helper()
	ctx := context.Background()
	var hist []store.Result
	var err error
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		hist, err = h.Redis.History(ctx, group.ID(), 1)
		return err == nil && len(hist) == 1
	}); err != nil {
		t.Fatalf("no result: %v", err)
	}
	u, r := resultSeatOf(t, hist[0], resPlayer(unrated)), resultSeatOf(t, hist[0], resPlayer(rated))
	if !u.Unrated || r.Unrated {
		t.Errorf("recorded: %+v", hist[0].Seats)
	}
	uName, rName := unrated.User().FirstName, rated.User().FirstName
	if p, ok, err := h.Redis.Stats(ctx, group.ID(), "trickchef", resPlayer(unrated)); err != nil || !ok || p.Games != 1 || p.Sigma != 0 {
		t.Errorf("%s's stats %+v, %v, %v: want the game counted, not rated", uName, p, ok, err)
	}
	if p, ok, err := h.Redis.Stats(ctx, group.ID(), "trickchef", resPlayer(rated)); err != nil || !ok || p.Sigma == 0 {
		t.Errorf("%s's stats %+v, %v, %v: want them rated", rName, p, ok, err)
	}
	if _, err := unrated.PrivateChat().WaitMessage(10*time.Second, contains(h.Shown(reason))); err != nil {
		t.Errorf("%s's private result does not say why they were not rated: %v", uName, err)
	}
	return u
}

// TestLeaveTheGame: Борис asks to leave and thinks better of it, then
// leaves. A robot takes his seat, the group is told, his message says he
// left and he gets nothing more; Аня plays to the end and gets her own
// result; the result records Борис last, marked, and rated.
func TestLeaveTheGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Уходим", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)
	leave, no, yes := h.T("leave.button"), h.T("leave.no"), h.T("leave.yes")
	chat := b.PrivateChat()
	hand, err := chat.WaitMessage(10*time.Second, hasButton(leave))
	if err != nil {
		t.Fatalf("no leave button on Борис's hand: %v", err)
	}

	// Presses that are not Борис's to make, or not of this game: refused,
	// nothing changes.
	v := h.Version(group)
	leaveData := mustData(t, hand, leave)
	h.ExpectAnswer(a, lobby, leaveData, h.T("error.not_yours")) // pressed in the group
	tid := strconv.FormatInt(group.ID(), 10)
	h.ExpectAnswer(b, hand, "x:"+tid+":0:1:1", h.T("error.stale_game"))
	h.ExpectAnswer(b, hand, "x:"+tid+":1:9:1", h.T("error.bad_button"))
	if mine := strings.TrimSuffix(leaveData, ":1"); mine != leaveData {
		h.ExpectAnswer(b, hand, mine+":7", h.T("error.bad_button")) // no such step
	} else {
		t.Errorf("the leave button's data %q does not end with the «ask» step", leaveData)
	}
	if got := h.Version(group); got != v {
		t.Errorf("refused leave presses changed the table: version %d → %d", v, got)
	}

	// Asked, the same message asks to confirm; «no» turns it back.
	if ans, err := b.Press(hand, leave); err != nil || ans.Text != "" {
		t.Fatalf("leave: %+v, %v", ans, err)
	}
	confirm, err := chat.WaitMessage(10*time.Second, hasButton(no))
	if err != nil || confirm.ID != hand.ID {
		t.Fatalf("no confirmation in the hand's message: %+v, %v", confirm, err)
	}
	tab, _ := h.Table(group)
	seat := tab.SeatOf(b.ID())
	if seat < 0 || !tab.Seats[seat].LeaveAsked {
		t.Fatalf("asked: seat %d %+v", seat, tab.Seats)
	}
	yesData := mustData(t, confirm, yes)
	if ans, err := b.Press(confirm, no); err != nil || ans.Text != h.T("leave.kept") {
		t.Fatalf("no: %+v, %v", ans, err)
	}
	back, err := chat.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		_, ok := m.Button(no)
		return m.ID == hand.ID && !ok && hasButton(leave)(m)
	})
	if err != nil {
		t.Fatalf("the confirmation stayed on screen: %v", err)
	}
	if tab, _ := h.Table(group); tab.Seats[seat].LeaveAsked || !tab.Seats[seat].Human() {
		t.Fatalf("kept: %+v", tab.Seats[seat])
	}
	h.ExpectAnswer(b, confirm, yesData, h.T("error.stale")) // «yes» once «no» was pressed

	// Leaving for good.
	if _, err := b.Press(back, leave); err != nil {
		t.Fatal(err)
	}
	confirm, err = chat.WaitMessage(10*time.Second, hasButton(yes))
	if err != nil {
		t.Fatal(err)
	}
	yesData = mustData(t, confirm, yes)
	h.ExpectAnswer(b, confirm, yesData, h.T("leave.done"))
	tab, _ = h.Table(group)
	s := tab.Seats[seat]
	if tab.Phase != record.PhasePlaying || s.Human() || s.AI == "" || s.Leaver == nil || s.Leaver.UserID != b.ID() ||
		s.Leaver.Name != "Борис" || tab.SeatOf(b.ID()) >= 0 {
		t.Fatalf("after leaving: %+v", tab)
	}
	announce := h.Shown("leave.announce", "Name", "Борис", "Robot", s.Name, "Level", h.T("trickchef.level."+s.AI))
	if _, err := group.WaitMessage(10*time.Second, contains(announce)); err != nil {
		h.DumpGroup(group)
		t.Fatalf("the group was not told: %v", err)
	}
	if _, err := chat.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID == hand.ID && m.Text == h.Shown("leave.left") && len(m.Keyboard) == 0
	}); err != nil {
		t.Fatalf("Борис's message does not say he left: %v", err)
	}
	h.ExpectAnswer(b, confirm, yesData, h.T("leave.already"))
	last := chat.Last().ID

	h.MustPlayToEnd(group, []*telegramtest.User{a}, 3*time.Minute)
	mine, err := a.PrivateChat().WaitMessage(10*time.Second, hasButton(h.T("again.button")))
	if err != nil {
		t.Fatalf("Аня got no private result: %v", err)
	}
	ratingLine, _ := h.Around("private.rating", "Rating", "Change", "+0")
	if !strings.Contains(mine.Text, ratingLine) {
		t.Errorf("Аня's result has no rating line %q:\n%s", ratingLine, mine.Text)
	}
	for _, m := range chat.Messages() {
		if m.ID > last {
			t.Errorf("Борис got a message after leaving:\n%s", m.Text)
		}
	}

	hist, err := h.Redis.History(ctx, group.ID(), 1)
	if err != nil || len(hist) != 1 {
		t.Fatalf("history %+v, %v", hist, err)
	}
	left, stayed := resultSeatOf(t, hist[0], resPlayer(b)), resultSeatOf(t, hist[0], resPlayer(a))
	for _, o := range hist[0].Seats {
		if o.Player != left.Player && o.Place >= left.Place {
			t.Errorf("Борис (place %d) is not last: %+v", left.Place, hist[0].Seats)
		}
	}
	if !left.Left || left.Unrated || left.Score != 0 || left.Name != "Борис" || stayed.Left || stayed.Unrated {
		t.Errorf("recorded seats: %+v", hist[0].Seats)
	}
	if p, ok, err := h.Redis.Stats(ctx, group.ID(), "trickchef", resPlayer(b)); err != nil || !ok || p.Games != 1 || p.Sigma == 0 {
		t.Errorf("Борис's stats %+v, %v, %v: want the game counted and rated", p, ok, err)
	}
	// The private «Ещё партию» works like the group's.
	if ans, err := a.Press(mine, h.T("again.button")); err != nil || ans.Text != h.T("again.opened") {
		t.Fatalf("play again from the private result: %+v, %v", ans, err)
	}
	if next, _ := h.Table(group); next.Phase != record.PhaseLobby || next.GameNo != tab.GameNo+1 || next.SeatOf(b.ID()) >= 0 {
		t.Errorf("after play again: %+v", next)
	}
}

// TestEveryoneLeaves: the only person leaves a game with robots: the game
// ends there, the table says so, and the robots' level is recorded first
// and the person last.
func TestEveryoneLeaves(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Одна", a)
	lobby := h.MustLobby(group, a, nil, 2)
	h.MustStartGame(a, lobby)
	hand, err := a.PrivateChat().WaitMessage(10*time.Second, hasButton(h.T("leave.button")))
	if err != nil {
		t.Fatal(err)
	}
	h.ExpectAnswer(a, hand, mustData(t, hand, h.T("leave.button")), "")
	confirm, err := a.PrivateChat().WaitMessage(10*time.Second, hasButton(h.T("leave.yes")))
	if err != nil {
		t.Fatal(err)
	}
	h.ExpectAnswer(a, confirm, mustData(t, confirm, h.T("leave.yes")), h.T("leave.done"))
	tab, _ := h.Table(group)
	if tab.Phase != record.PhaseIdle || tab.Event == nil || tab.Event.Key != "event.all_left" || seatOfLeaver(tab, a.ID()) < 0 {
		t.Fatalf("after everyone left: %+v", tab)
	}
	if _, err := group.WaitMessage(10*time.Second, contains(h.Shown("event.all_left"))); err != nil {
		h.DumpGroup(group)
		t.Fatalf("the table does not say the game is over: %v", err)
	}
	var hist []store.Result
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		hist, err = h.Redis.History(ctx, group.ID(), 5)
		return err == nil && len(hist) == 1
	}); err != nil {
		t.Fatalf("no result recorded: %+v", hist)
	}
	me := resultSeatOf(t, hist[0], resPlayer(a))
	if len(hist[0].Seats) != 2 || !me.Left || me.Place < 2 {
		t.Errorf("recorded: %+v", hist[0].Seats)
	}
	for _, s := range hist[0].Seats {
		if s.Player != me.Player && (s.Place != 1 || !strings.HasPrefix(s.Player, "r")) {
			t.Errorf("the robot: %+v", s)
		}
	}
}

// mustData is the callback data of msg's button text.
func mustData(t *testing.T, msg *telegramtest.Message, text string) string {
	t.Helper()
	b, ok := msg.Button(text)
	if !ok {
		t.Fatalf("no %q button: %+v", text, msg.Keyboard)
	}
	return b.CallbackData
}

// TestAutopilotOneState: Соня never moves. After two timeouts her message
// says the bot plays for her — one message, not a fresh «your turn» each
// turn. «Я снова здесь» turns it back into her hand. Left alone again, the
// bot makes most of her moves: the game does not rate her, records her
// place marked, and her private result says why.
func TestAutopilotOneState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, 500*time.Millisecond)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Соня"))
	group := h.Srv.NewGroup("Автопилот", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)
	done := make(chan struct{})
	wait := h.Player(a, done, nil)
	chat := b.PrivateChat()
	backButton := h.T("auto.back_button")
	auto, err := chat.WaitMessage(30*time.Second, hasButton(backButton))
	if err != nil {
		close(done)
		wait()
		t.Fatalf("no autopilot message: %v", err)
	}
	if auto.Text != h.Shown("auto.notice") {
		t.Errorf("the autopilot message shows more than its state:\n%s", auto.Text)
	}
	// The bot makes three more of her moves: no new message comes.
	tab, _ := h.Table(group)
	seat := tab.SeatOf(b.ID())
	movesOf := func(tab *record.Table) int {
		n := 0
		for _, m := range tab.Log {
			if int(m.Seat) == seat {
				n++
			}
		}
		return n
	}
	from := movesOf(tab)
	if err := h.Srv.WaitFor(60*time.Second, func() bool {
		tab, _ := h.Table(group)
		return movesOf(tab) >= from+3 || tab.Phase != record.PhasePlaying
	}); err != nil {
		t.Fatalf("the bot did not play for Соня: %v", err)
	}
	for _, m := range chat.Messages() {
		if m.ID > auto.ID {
			t.Errorf("a new message while the bot plays for Соня:\n%s", m.Text)
		}
	}
	if m := chat.Message(auto.ID); m == nil || m.Text != h.Shown("auto.notice") {
		t.Errorf("the autopilot message changed: %+v", m)
	}

	ans, err := b.Press(auto, backButton)
	if err != nil || ans.Text != h.T("auto.welcome_back") {
		t.Fatalf("back: %+v, %v", ans, err)
	}
	if _, err := chat.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		_, stillAuto := m.Button(backButton)
		return m.ID == auto.ID && !stillAuto && !strings.Contains(m.Text, h.Shown("auto.notice"))
	}); err != nil {
		t.Fatalf("the autopilot message stayed after «back»: %v", err)
	}

	// Соня is away again for the rest of the game.
	close(done)
	wait()
	h.MustPlayToEnd(group, []*telegramtest.User{a}, 3*time.Minute)
	if sonya := checkCountedNotRated(t, h, group, b, a, "private.unrated"); sonya.Left || sonya.Place < 1 {
		t.Errorf("Соня recorded as %+v: want her place, not a leaver's", sonya)
	}
}
