package bot_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// Attacks on the hand in the group (docs/bot.md «The hand in the group»):
// what a person can do with «🖐 Мои карты» and with the ephemeral hand it
// sends, and what the bot owes them when they play from the group.

// groupHandsHarnessTurn is newGroupHandsHarness with another time for a
// move.
func groupHandsHarnessTurn(t *testing.T, turn time.Duration) *harness {
	t.Helper()
	fake, ours := bottest.ScaledLimits()
	return groupHandsHarnessLimits(t, turn, fake, ours)
}

// groupHandsHarnessLimits is groupHandsHarnessTurn with the fake server's
// limits and the bot's own given.
func groupHandsHarnessLimits(t *testing.T, turn time.Duration, fake telegramtest.Limits, ours bot.Limits) *harness {
	t.Helper()
	srv := telegramtest.NewServer(telegramtest.WithLimits(fake), telegramtest.WithTB(t))
	t.Cleanup(srv.Close)
	st := store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})
	h := &bottest.Test{Harness: &bottest.Harness{Games: allGames(), Srv: srv, Store: st, GroupHands: true,
		Cfg: bottest.TestConfig(turn, ours), Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)},
		TB: t, Redis: st}
	h.MustStart()
	t.Cleanup(h.Stop)
	return &harness{h}
}

// ephemeralSends counts the ephemeral messages the bot sent (or tried to)
// in chat; the server must keep the calls' parameters (KeepParams).
func ephemeralSends(h *harness, chat int64) (sent, refused int) {
	for _, c := range h.Srv.Calls() {
		if c.Method != "sendMessage" || c.ChatID != chat || c.Params["ephemeral_message_parameters"] == "" {
			continue
		}
		if c.OK {
			sent++
		} else {
			refused++
		}
	}
	return sent, refused
}

// myHandTable waits for the group's table offering «🖐 Мои карты».
func myHandTable(t *testing.T, h *harness, group *telegramtest.Chat) *telegramtest.Message {
	t.Helper()
	table, err := group.WaitMessage(10*time.Second, hasButton(h.T("grouphand.button")))
	if err != nil {
		h.DumpGroup(group)
		t.Fatalf("no «%s» under the table: %v", h.T("grouphand.button"), err)
	}
	return table
}

// playableData is the first playable button of a hand, "" when none.
func playableData(m *telegramtest.Message) string {
	if m == nil {
		return ""
	}
	for _, row := range m.Keyboard {
		for _, b := range row {
			if strings.HasPrefix(b.CallbackData, "a:") && !strings.HasPrefix(b.Text, "(") {
				return b.CallbackData
			}
		}
	}
	return ""
}

// TestGroupHandAttackManyPresses: a person who presses «🖐 Мои карты» again
// and again (a double tap, an impatient player, a script) must not get a
// pile of hands in the group, each an ephemeral message counted against
// the group's 20 a minute: one hand at a time, the older ones not left
// behind with live-looking buttons that are never redrawn.
func TestGroupHandAttackManyPresses(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{})
	h.Srv.KeepParams()
	group, people := fourAtTable(t, h)
	table := myHandTable(t, h, group)
	u := people[1]
	const presses = 8
	var queries []*telegramtest.Query
	for range presses {
		q, err := u.PressAsync(table, h.T("grouphand.button"))
		if err != nil {
			t.Fatal(err)
		}
		queries = append(queries, q)
	}
	for i, q := range queries {
		if _, err := q.Wait(10 * time.Second); err != nil {
			t.Errorf("press %d unanswered: %v", i+1, err)
		}
	}
	time.Sleep(3 * time.Second) // the sends the presses queued
	sent, refused := ephemeralSends(h, group.ID())
	if shown := len(u.Ephemeral(group)); shown > 1 {
		t.Errorf("%d presses of «Мои карты» left %d hands in the group (only the newest is ever redrawn)", presses, shown)
	}
	if sent+refused > 2 {
		t.Errorf("%d presses of «Мои карты» cost %d ephemeral sends (%d refused) against the group's 20 a minute", presses, sent+refused, refused)
	}
	h.CheckLimits(group)
}

// TestGroupHandAttackMyHandFromPrivate: «🖐 Мои карты» is the group's
// button; its data replayed from the private chat (where the send could
// only be refused: the callback query is not the group's) must be refused
// there, not answered «the cards are at the bottom of the chat» while a
// call is spent against the group for nothing.
func TestGroupHandAttackMyHandFromPrivate(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{})
	h.Srv.KeepParams()
	group, people := fourAtTable(t, h)
	myHandTable(t, h, group)
	tbl, _ := h.Table(group)
	u := people[1]
	private := u.PrivateChat().Last()
	if private == nil {
		t.Fatal("no message in the private chat")
	}
	data := callback.Data{Op: callback.MyHand, Table: tbl.ID, GameNo: tbl.GameNo}.String()
	ans, err := u.PressData(private, data)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text == h.T("grouphand.shown") {
		t.Errorf("«Мои карты» pressed in the private chat answered %q", ans.Text)
	}
	time.Sleep(2 * time.Second)
	if sent, refused := ephemeralSends(h, group.ID()); sent+refused > 0 {
		t.Errorf("a press in the private chat sent %d hands to the group (%d refused)", sent, refused)
	}
}

// TestGroupHandAttackForgedSeat: the presser's own hand in the group
// (message id 0, the table's group) carrying another seat's number must
// be refused and change nothing.
func TestGroupHandAttackForgedSeat(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{})
	group, people := fourAtTable(t, h)
	table := myHandTable(t, h, group)
	u := people[1]
	if _, err := u.Press(table, h.T("grouphand.button")); err != nil {
		t.Fatal(err)
	}
	hand, err := u.WaitEphemeral(group, 10*time.Second, func(*telegramtest.Message) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	tbl, _ := h.Table(group)
	own := tbl.SeatOf(u.ID())
	version := h.Version(group)
	// The first to move is seat 0 (Оля): forge her move from Петя's hand.
	first := people[0]
	firstHand := first.PrivateChat().Last()
	data := playableData(firstHand)
	if data == "" {
		t.Fatal("the first player has no playable button")
	}
	parts := strings.Split(data, ":")
	if parts[3] == strconv.Itoa(own) {
		t.Fatalf("the first player's seat is Петя's (%s)", data)
	}
	ans, err := u.PressData(hand, data)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	if v := h.Version(group); v != version {
		t.Errorf("a forged move for another seat from the group's hand changed the table (version %d → %d); answer %q", version, v, ans.Text)
	}
}

// playFromGroupOnce seats four, has people[0] (the first to move) press
// «🖐 Мои карты» and make their first move from the group, and returns the
// group, the people and the data of the move made.
func playFromGroupOnce(t *testing.T, h *harness) (*telegramtest.Chat, []*telegramtest.User, string) {
	t.Helper()
	group, people := fourAtTable(t, h)
	return group, people, playFromGroup(t, h, group, people)
}

// playFromGroup is playFromGroupOnce at a running table.
func playFromGroup(t *testing.T, h *harness, group *telegramtest.Chat, people []*telegramtest.User) string {
	t.Helper()
	table := myHandTable(t, h, group)
	u := people[0]
	if _, err := u.Press(table, h.T("grouphand.button")); err != nil {
		t.Fatal(err)
	}
	hand, err := u.WaitEphemeral(group, 10*time.Second, func(m *telegramtest.Message) bool { return playableData(m) != "" })
	if err != nil {
		h.DumpGroup(group)
		t.Fatalf("the first player's hand in the group offers no move: %v", err)
	}
	data := playableData(hand)
	ans, err := u.PressData(hand, data)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Srv.WaitFor(5*time.Second, func() bool {
		tbl, _ := h.Table(group)
		return tbl.Seats[tbl.SeatOf(u.ID())].Group
	}); err != nil {
		t.Fatalf("the move from the group (answered %q) did not make the seat play from the group", ans.Text)
	}
	return data
}

// TestGroupHandAttackQuietTurnTimesOut: a person who plays from the group
// and does not answer their turn there (not looking at the group; the
// ephemeral message not delivered — Telegram promises nothing) must be
// told of it in private before the bot plays for them. The quiet private
// chat waits a fixed minute from the table's last change (nudgeAfter,
// quietUntil = t.Updated + 1 minute): never before a turn timeout of a
// minute or less (the default is 60 s).
func TestGroupHandAttackQuietTurnTimesOut(t *testing.T) {
	const turn = 30 * time.Second
	h := groupHandsHarnessTurn(t, turn)
	group, people, _ := playFromGroupOnce(t, h)
	u := people[0]
	// The others play in private, at once; u's turn comes back.
	done := make(chan struct{})
	defer close(done)
	since, calls := othersPlayUntilTurn(t, h, group, people, done)
	// Before the bot plays for them, their private chat must say it is
	// their turn.
	deadline := since.Add(turn - 5*time.Second)
	got := false
	for time.Now().Before(deadline) && !got {
		for _, c := range h.Srv.CallsSince(calls) {
			if c.OK && c.ChatID == u.ID() && (c.Method == "sendMessage" || c.Method == "editMessageText") {
				got = true
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !got {
		t.Errorf("a person playing from the group who does not answer there heard nothing in private for %v of their %v turn (the nudge comes a minute after the last change)", turn-5*time.Second, turn)
	}
}

// TestGroupHandAttackStalePrivateHand: once a person plays from the group,
// their private hand is no longer redrawn; its buttons must not keep
// offering the move they just made from the group as if it were still
// theirs to make.
func TestGroupHandAttackStalePrivateHand(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{})
	group, people, data := playFromGroupOnce(t, h)
	u := people[0]
	// The private hand loses the move through the private chat's spacing:
	// let delivery settle (on a loaded machine it may take a while), then
	// look.
	offering := func() []*telegramtest.Message {
		var out []*telegramtest.Message
		for _, m := range u.PrivateChat().BotMessages() {
			if cur := u.PrivateChat().Message(m.ID); cur != nil {
				if _, ok := cur.ButtonFunc(func(b telegramtest.Button) bool { return b.CallbackData == data }); ok {
					out = append(out, cur)
				}
			}
		}
		return out
	}
	time.Sleep(2 * time.Second)
	h.Srv.WaitFor(30*time.Second, func() bool { return len(offering()) == 0 })
	for _, cur := range offering() {
		if b, ok := cur.ButtonFunc(func(b telegramtest.Button) bool { return b.CallbackData == data }); ok {
			ans, err := u.PressData(cur, data)
			text := ""
			if err == nil {
				text = ans.Text
			}
			t.Errorf("the private hand still offers «%s», the move already made from the group (pressing it answers %q)", b.Text, text)
		}
	}
	_ = group
}

// callsTo counts the bot's ephemeral calls (sends, edits) in chat whose
// receiver is user, from the call numbered from on.
func callsTo(h *harness, chat, user int64, from int) int {
	id := strconv.FormatInt(user, 10)
	n := 0
	for _, c := range h.Srv.CallsSince(from) {
		if c.ChatID != chat {
			continue
		}
		switch {
		case c.Method == "editEphemeralMessageText" || c.Method == "editEphemeralMessageReplyMarkup":
			if c.Params["receiver_user_id"] == id {
				n++
			}
		case c.Method == "sendMessage" && strings.Contains(c.Params["ephemeral_message_parameters"], id):
			n++
		}
	}
	return n
}

// TestGroupHandAttackLeftGroup: a person who plays from the group and
// leaves it loses their seat (a robot plays on); their hand in the group
// must stop being live: no more sends or edits to someone who cannot see
// the group, each one spent against its 20 a minute.
func TestGroupHandAttackLeftGroup(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{})
	h.Srv.KeepParams()
	// The group's owner does not play: the first player may leave.
	owner := h.MustBegin(h.Srv.NewUser("Хозяйка"))
	var people []*telegramtest.User
	for _, name := range []string{"Оля", "Петя", "Маша", "Дима"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Кухня", append([]*telegramtest.User{owner}, people...)...)
	lobby := h.MustLobby(group, people[0], people[1:], 0)
	h.MustStartGame(people[0], lobby)
	playFromGroup(t, h, group, people)
	u := people[0]
	from := len(h.Srv.Calls())
	u.Leave(group)
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		tbl, _ := h.Table(group)
		return tbl.SeatOf(u.ID()) < 0
	}); err != nil {
		t.Fatalf("the person who left the group kept their seat: %v", err)
	}
	done := make(chan struct{})
	for _, p := range people[1:] {
		h.Player(p, done, nil)
	}
	time.Sleep(8 * time.Second) // several turns go round
	close(done)
	if n := callsTo(h, group.ID(), u.ID(), from); n > 0 {
		t.Errorf("%d ephemeral calls in the group went to a person who left it", n)
	}
}

// TestGroupHandAttackForgetMe: /forgetme of a person who played from the
// group must leave nothing of theirs: the hand the group still shows them
// (their cards, live-looking buttons) is deleted while the bot still
// knows whose it is — after the forget the seat's id is no longer theirs,
// and an edit to the forgotten id cannot reach it.
func TestGroupHandAttackForgetMe(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{})
	h.Srv.KeepParams()
	group, people, _ := playFromGroupOnce(t, h)
	u := people[0]
	h.forgetMe(u)
	done := make(chan struct{})
	for _, p := range people[1:] {
		h.Player(p, done, nil)
	}
	time.Sleep(5 * time.Second)
	close(done)
	for _, m := range u.Ephemeral(group) {
		if len(m.Buttons()) > 0 {
			t.Errorf("after /forgetme the group still shows them their hand with %d buttons: %q", len(m.Buttons()), m.Text)
		}
	}
	for _, c := range h.Srv.Calls() {
		if strings.Contains(c.Method, "phemeral") && !c.OK && c.Method != "deleteEphemeralMessage" {
			t.Errorf("after /forgetme %s refused: %d %s", c.Method, c.ErrorCode, c.Description)
		}
	}
}

// TestGroupHandAttackNudgeOutrun: the quiet private chat of a person who
// plays from the group is told of a turn «left waiting a minute» — but
// the minute is counted from the table's last change (t.Updated), and
// anyone else's press of «🖐 Мои карты» is a change. One other player
// pressing it every 20 s keeps the private chat of the person to move
// silent for the whole turn.
func TestGroupHandAttackNudgeOutrun(t *testing.T) {
	const turn = 3 * time.Minute
	h := groupHandsHarnessTurn(t, turn)
	group, people, _ := playFromGroupOnce(t, h)
	u := people[0]
	done := make(chan struct{})
	defer close(done)
	since, calls := othersPlayUntilTurn(t, h, group, people, done)
	table := myHandTable(t, h, group)
	other := people[2]
	got := false
	next := time.Now()
	for time.Since(since) < 80*time.Second && !got {
		if time.Now().After(next) {
			if _, err := other.Press(table, h.T("grouphand.button")); err != nil {
				t.Logf("press: %v", err)
			}
			next = time.Now().Add(20 * time.Second)
		}
		for _, c := range h.Srv.CallsSince(calls) {
			if c.OK && c.ChatID == u.ID() && (c.Method == "sendMessage" || c.Method == "editMessageText") {
				got = true
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !got {
		t.Errorf("80 s into their turn, the private chat of a person who plays from the group heard nothing (another player pressed «Мои карты» every 20 s)")
	}
}

// TestGroupHandAttackRefusedChangeNothing: «🖐 Мои карты» pressed by a
// member who is not seated, replayed for another game number or another
// table, in the lobby or after the game ended is refused: no hand is
// sent, the table does not change.
func TestGroupHandAttackRefusedChangeNothing(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{})
	h.Srv.KeepParams()
	var people []*telegramtest.User
	for _, name := range []string{"Оля", "Петя", "Маша", "Дима"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	guest := h.MustBegin(h.Srv.NewUser("Гость"))
	group := h.Srv.NewGroup("Кухня", append(people, guest)...)
	lobby := h.MustLobby(group, people[0], people[1:], 0)
	tbl, _ := h.Table(group)
	inLobby := callback.Data{Op: callback.MyHand, Table: tbl.ID, GameNo: tbl.GameNo + 1}.String()
	check := func(what string, u *telegramtest.User, msg *telegramtest.Message, data string) {
		t.Helper()
		version := settledVersion(h, group)
		sent, refused := ephemeralSends(h, group.ID())
		ans, err := u.PressData(msg, data)
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		if ans.Text == h.T("grouphand.shown") {
			t.Errorf("%s: answered %q", what, ans.Text)
		}
		time.Sleep(time.Second)
		if v := h.Version(group); v != version {
			t.Errorf("%s: the table changed (version %d → %d)", what, version, v)
		}
		if s, r := ephemeralSends(h, group.ID()); s != sent || r != refused {
			t.Errorf("%s: %d hands sent to the group", what, s-sent+r-refused)
		}
	}
	check("in the lobby", people[1], lobby, inLobby)
	h.MustStartGame(people[0], lobby)
	table := myHandTable(t, h, group)
	tbl, _ = h.Table(group)
	mine := callback.Data{Op: callback.MyHand, Table: tbl.ID, GameNo: tbl.GameNo}.String()
	check("a member not seated", guest, table, mine)
	check("another game number", people[1], table, callback.Data{Op: callback.MyHand, Table: tbl.ID, GameNo: tbl.GameNo + 1}.String())
	check("another table", people[1], table, callback.Data{Op: callback.MyHand, Table: tbl.ID + "x", GameNo: tbl.GameNo}.String())
	h.MustPlayToEnd(group, people, 3*time.Minute)
	check("after the end", people[1], newestTable(group, table.ID), mine)
}

// settledVersion waits until the table has no job left and its version
// has held for a second, and returns it: after a game ends the bot still
// commits its own follow-ups (the finished game's job, deliveries
// recorded, the review's state), and a press measured against those
// would blame the press for them. The job is waited for, not timed: on
// a loaded machine it may start more than a second after the last
// commit.
func settledVersion(h *harness, group *telegramtest.Chat) int64 {
	h.TB.Helper()
	v := h.Version(group)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		time.Sleep(time.Second)
		tab, next := h.Table(group)
		if next == v && len(tab.Jobs) == 0 {
			return v
		}
		v = next
	}
	h.TB.Fatalf("the table never settled: its version still changes (%d)", v)
	return v
}

// TestGroupHandAttackExpiredHand: a hand in the group the server no
// longer has (expired, or gone with an app restart) is forgotten at the
// next edit, «and the private hand takes over» — at once, not after the
// quiet minute the person was given while the group's hand was live.
func TestGroupHandAttackExpiredHand(t *testing.T) {
	h := groupHandsHarnessTurn(t, 3*time.Minute)
	h.Srv.KeepParams()
	group, people, _ := playFromGroupOnce(t, h)
	u := people[0]
	if n := h.Srv.ExpireEphemeral(group, u); n == 0 {
		t.Fatal("no hand in the group to expire")
	}
	done := make(chan struct{})
	defer close(done)
	since, calls := othersPlayUntilTurn(t, h, group, people, done)
	var refusedEdit bool
	err := h.Srv.WaitFor(15*time.Second, func() bool {
		for _, c := range h.Srv.CallsSince(calls) {
			if c.Method == "editEphemeralMessageText" && !c.OK {
				refusedEdit = true
			}
			if c.OK && c.ChatID == u.ID() && (c.Method == "sendMessage" || c.Method == "editMessageText") {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Errorf("%v into their turn, after their hand in the group was found gone (edit refused: %v), the private chat heard nothing", time.Since(since).Round(time.Second), refusedEdit)
	}
}

// TestGroupHandAttackServer102: a Bot API 10.2 server knows ephemeral
// messages — the probe (deleteEphemeralMessage) passes — but not 10.3's
// ephemeral_message_parameters, the only way the bot names the receiver:
// it posts the hand for everyone, cards and all, before the bot deletes
// it (a notification has shown it meanwhile). No hand may ever be posted
// for everyone.
func TestGroupHandAttackServer102(t *testing.T) {
	h := newGroupHandsHarness(t, &bottest.Logs{}, telegramtest.WithEphemeral102())
	group, people := fourAtTable(t, h)
	table := myHandTable(t, h, group)
	if _, err := people[1].Press(table, h.T("grouphand.button")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	if n := h.Srv.PostedForEveryone(); n > 0 {
		t.Errorf("a 10.2 server posted %d hands for everyone to see", n)
	}
}

// othersPlayUntilTurn has everyone but people[0] play in private until
// people[0]'s turn comes back (their seat has a deadline), and returns
// when that was seen and how many calls the server had heard by then.
// The others play on until done is closed.
func othersPlayUntilTurn(t *testing.T, h *harness, group *telegramtest.Chat, people []*telegramtest.User, done chan struct{}) (time.Time, int) {
	t.Helper()
	u := people[0]
	for _, p := range people[1:] {
		h.Player(p, done, nil)
	}
	var since time.Time
	var calls int
	err := h.Srv.WaitFor(time.Minute, func() bool {
		tbl, _ := h.Table(group)
		if s := tbl.Seats[tbl.SeatOf(u.ID())]; s.Due.IsZero() {
			return false
		}
		since, calls = time.Now(), len(h.Srv.Calls())
		return true
	})
	if err != nil {
		t.Fatalf("%s's turn did not come back: %v", u.User().FirstName, err)
	}
	return since, calls
}
