package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// The hand in the group (docs/bot.md «The hand in the group»): people
// who press «🖐 Мои карты» play from ephemeral messages in the group; the
// private hand stays the durable path.

// newGroupHandsHarness runs a bot that offers the hand in the group, on a
// fake server built with opts; its warnings go to the test log and to logs.
func newGroupHandsHarness(t *testing.T, logs *bottest.Logs, opts ...telegramtest.Option) *harness {
	t.Helper()
	fake, ours := bottest.ScaledLimits()
	srv := telegramtest.NewServer(append([]telegramtest.Option{telegramtest.WithLimits(fake), telegramtest.WithTB(t)}, opts...)...)
	t.Cleanup(srv.Close)
	st := store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})
	h := &bottest.Test{Harness: &bottest.Harness{Games: allGames(), Srv: srv, Store: st, GroupHands: true,
		Cfg: bottest.TestConfig(time.Minute, ours),
		Log: zerolog.New(zerolog.MultiLevelWriter(zerolog.NewTestWriter(t), logs)).Level(zerolog.WarnLevel)},
		TB: t, Redis: st}
	h.MustStart()
	t.Cleanup(h.Stop)
	return &harness{h}
}

// fourAtTable seats four people who opened the private chat at a
// Трик-н-Шеф table of a new group and starts the game.
func fourAtTable(t *testing.T, h *harness) (*telegramtest.Chat, []*telegramtest.User) {
	t.Helper()
	var people []*telegramtest.User
	for _, name := range []string{"Оля", "Петя", "Маша", "Дима"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Кухня", people...)
	lobby := h.MustLobby(group, people[0], people[1:], 0)
	h.MustStartGame(people[0], lobby)
	return group, people
}

// privateCalls counts the bot's sends and edits in each person's private
// chat.
//
// A turn whose hand in the group waits for the group's budget goes to the
// private chat at once as well (a message with buttons, then an edit that
// drops them): with the server keeping parameters, those two calls are
// not counted, so what remains is what the private chat says besides.
func privateCalls(h *harness, people []*telegramtest.User) map[int64]int {
	n := map[int64]int{}
	for _, c := range h.Srv.Calls() {
		if c.ErrorCode == 0 && (c.Method == "sendMessage" || c.Method == "editMessageText") {
			n[c.ChatID]++
			if c.Method == "sendMessage" && strings.Contains(c.Params["reply_markup"], "callback_data") {
				n[c.ChatID] -= 2 // a stalled turn told in private, and its edit
			}
		}
	}
	out := map[int64]int{}
	for _, u := range people {
		out[u.ID()] = n[u.ID()]
	}
	return out
}

// TestGroupHandsFourPeople: four people play Трик-н-Шеф to the end from
// the group, each pressing «🖐 Мои карты» once and then only their hand
// there; every press is answered, the group stays inside Telegram's
// limits, and their private chats go quiet once they play from the group.
func TestGroupHandsFourPeople(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{})
	h.Srv.KeepParams()
	group, people := fourAtTable(t, h)
	done := make(chan struct{})
	var waits []func() bottest.GroupStats
	for _, u := range people {
		waits = append(waits, h.GroupPlayer(u, group, done, nil))
	}
	// Every person's first move from the group proves their app shows it;
	// the private chat is counted from when all four have made one.
	var before map[int64]int
	err := h.Srv.WaitFor(time.Minute, func() bool {
		tbl, _ := h.Table(group)
		for _, s := range tbl.Seats {
			if !s.Group {
				return false
			}
		}
		before = privateCalls(h, people)
		return true
	})
	if err != nil {
		h.DumpGroup(group)
		t.Fatalf("not everyone plays from the group: %v", err)
	}
	// An old private hand's button now says where the cards are.
	if msg, btns := bottest.ActionMessage(people[0]); msg != nil {
		if ans, err := people[0].PressData(msg, btns[0].CallbackData); err != nil {
			t.Errorf("an old private button: %v", err)
		} else if want := h.T("grouphand.stale_private"); ans.Text != want {
			t.Errorf("an old private button answered %q, want grouphand.stale_private", ans.Text)
		}
	}
	final, err := group.WaitMessage(3*time.Minute, hasButton(h.T("again.button")))
	close(done)
	var moves int
	for i, w := range waits {
		st := w()
		if !st.Opened || st.Moves == 0 {
			t.Errorf("%s: opened %v, %d moves from the group", people[i].User().FirstName, st.Opened, st.Moves)
		}
		if st.Unanswered > 0 {
			t.Errorf("%s: %d presses unanswered", people[i].User().FirstName, st.Unanswered)
		}
		moves += st.Moves
	}
	if err != nil {
		h.DumpGroup(group)
		t.Fatalf("the game did not end: %v", err)
	}
	_ = final
	h.CheckLimits(group)
	after := privateCalls(h, people)
	for _, u := range people {
		// What must still reach them: the private result (and its
		// file of moves goes as a document, not counted here).
		if extra := after[u.ID()] - before[u.ID()]; extra > 2 {
			t.Errorf("%s's private chat got %d messages and edits while they played from the group (%d moves in all)",
				u.User().FirstName, extra, moves)
		}
	}
	for _, c := range h.Srv.Calls() {
		// The probe's delete of a message that cannot exist is refused
		// by design; nothing else may be.
		if c.ErrorCode != 0 && strings.Contains(c.Method, "phemeral") && c.Method != "deleteEphemeralMessage" {
			t.Errorf("%s refused: %d %s", c.Method, c.ErrorCode, c.Description)
		}
	}
}

// TestGroupHandsDropped: a person whose app never shows the hand in the
// group (every ephemeral message lost on the way) still plays the game to
// the end in private.
func TestGroupHandsDropped(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{})
	h.Srv.DropEphemeral(1)
	group, people := fourAtTable(t, h)
	done := make(chan struct{})
	var waits []func() bottest.GroupStats
	for _, u := range people {
		waits = append(waits, h.GroupPlayer(u, group, done, nil))
	}
	if _, err := h.PlayToEnd(group, people, 3*time.Minute, nil); err != nil {
		h.DumpGroup(group)
		t.Fatal(err)
	}
	close(done)
	for i, w := range waits {
		if st := w(); !st.Opened || st.Moves != 0 {
			t.Errorf("%s: opened %v, %d moves from a hand that never arrived", people[i].User().FirstName, st.Opened, st.Moves)
		}
	}
	if h.Srv.DroppedEphemeral() == 0 {
		t.Error("no hand in the group was sent (and lost)")
	}
	h.CheckLimits(group)
}

// TestGroupHandsUnknownToServer: a Bot API server older than ephemeral
// messages answers the first try with an error; the bot stops offering
// «🖐 Мои карты», says why in its log once, and the game goes on in
// private to the end.
func TestGroupHandsUnknownToServer(t *testing.T) {
	logs := &bottest.Logs{}
	h := newGroupHandsHarness(t, logs, telegramtest.WithoutEphemeralMessages())
	group, people := fourAtTable(t, h)
	button := h.T("grouphand.button")
	table, err := group.WaitMessage(10*time.Second, hasButton(button))
	if err != nil {
		t.Fatalf("no «%s» under the table: %v", button, err)
	}
	for _, u := range people[:2] {
		if _, err := u.Press(table, button); err != nil {
			t.Fatal(err)
		}
	}
	// The next drawing of the table, after a move, no longer offers it.
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range people {
		waits = append(waits, h.Player(u, done, nil))
	}
	err = h.Srv.WaitFor(time.Minute, func() bool {
		cur := newestTable(group, table.ID)
		_, offered := cur.Button(button)
		return !offered
	})
	if err != nil {
		t.Errorf("the table still offers «%s» after the server refused it: %v", button, err)
	}
	_, err = group.WaitMessage(3*time.Minute, hasButton(h.T("again.button")))
	close(done)
	for _, w := range waits {
		w()
	}
	if err != nil {
		h.DumpGroup(group)
		t.Fatalf("the game did not end: %v", err)
	}
	if n := strings.Count(logs.String(), "does not know ephemeral messages"); n != 1 {
		t.Errorf("the log says %d times that the server does not know ephemeral messages, want once", n)
	}
	h.CheckLimits(group)
}

// newestTable is the current version of message id in the group.
func newestTable(group *telegramtest.Chat, id int) *telegramtest.Message {
	for _, m := range group.Messages() {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// TestGroupHandsWithoutPrivateChat: someone who never opened the private
// chat joins from the lobby's button, is seated (the answer says their
// cards come to the group), and plays the whole game from the group.
func TestGroupHandsWithoutPrivateChat(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{})
	var people []*telegramtest.User
	for _, name := range []string{"Оля", "Петя", "Маша"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	stranger := h.Srv.NewUser("Дима") // never pressed «Запустить»
	group := h.Srv.NewGroup("Кухня", append(people, stranger)...)
	lobby := h.MustLobby(group, people[0], people[1:], 0)
	ans, err := stranger.Press(lobby, h.T("lobby.join_button"))
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text != h.T("grouphand.joined") {
		t.Fatalf("joining without the private chat answered %q, want grouphand.joined", ans.Text)
	}
	h.MustStartGame(people[0], lobby)
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range people {
		waits = append(waits, h.Player(u, done, nil))
	}
	own := h.GroupPlayer(stranger, group, done, nil)
	_, err = group.WaitMessage(3*time.Minute, hasButton(h.T("again.button")))
	close(done)
	for _, w := range waits {
		w()
	}
	st := own()
	if err != nil {
		h.DumpGroup(group)
		t.Fatalf("the game did not end: %v", err)
	}
	if st.Moves == 0 || st.Unanswered > 0 {
		t.Errorf("the person without a private chat made %d moves from the group, %d presses unanswered", st.Moves, st.Unanswered)
	}
	tbl, _ := h.Table(group)
	if s := tbl.SeatOf(stranger.ID()); s < 0 || tbl.Seats[s].Auto() {
		t.Errorf("the person without a private chat was not playing themselves at the end (seat %d)", s)
	}
	h.CheckLimits(group)
}
