package bot_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// End-to-end tests of the commands and their menus through the fake Bot
// API: state and answers are checked by catalog keys; the look of the
// replies is pinned by testdata/golden/commands.txt.

// send sends text as u into chat and waits for the bot's next message
// there that pred accepts.
func (h *harness) send(u *telegramtest.User, chat *telegramtest.Chat, text string, pred func(*telegramtest.Message) bool) *telegramtest.Message {
	h.TB.Helper()
	sent := u.Send(chat, text)
	m, err := chat.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID > sent.ID && m.FromBot && pred(m)
	})
	if err != nil {
		h.DumpGroup(chat)
		h.TB.Fatalf("%s: no such answer: %v", text, err)
	}
	return m
}

// press presses a button as u and wants the answer text want.
func (h *harness) press(u *telegramtest.User, m *telegramtest.Message, button, want string) {
	h.TB.Helper()
	ans, err := u.Press(m, button)
	if err != nil {
		h.TB.Fatalf("press %q: %v", button, err)
	}
	if ans.Text != want {
		h.TB.Errorf("press %q by %s: answer %q, want %q", button, u.User().FirstName, ans.Text, want)
	}
}

// TestStartClearsTheUnreachableMark: a creator who had not opened the
// chat is marked in the lobby; a plain /start clears the mark and names
// the table that waits.
func TestStartClearsTheUnreachableMark(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.Srv.NewUser("Аня")
	group := h.Srv.NewGroup("Ждём", a)
	h.send(a, group, "/newgame trickchef", hasButton(h.T("lobby.join_button")))
	if tab, _ := h.Table(group); len(tab.Seats) != 1 || !tab.Seats[0].Unreachable {
		t.Fatalf("the creator who never opened the chat: %+v", tab.Seats)
	}
	h.send(a, a.PrivateChat(), "/start", contains(h.Shown("start.joined", "Title", "Ждём")))
	if tab, _ := h.Table(group); tab.Seats[0].Unreachable {
		t.Errorf("/start left the mark: %+v", tab.Seats)
	}
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		_, ok := m.Button(h.T("lobby.join_button"))
		return ok && !strings.Contains(m.Text, h.Shown("lobby.unreachable_mark"))
	}); err != nil {
		t.Errorf("the lobby still shows the mark: %v", err)
	}
	// A second /start finds the same table and changes nothing.
	v := h.Version(group)
	h.send(a, a.PrivateChat(), "/start", contains(h.Shown("start.joined", "Title", "Ждём")))
	if got := h.Version(group); got != v {
		t.Errorf("a second /start changed the table: version %d → %d", v, got)
	}
}

// TestNewGameWhileALobbyIsOpen: /newgame <another game> says what is open
// and offers to join or (the creator) to switch; the lobby is not posted
// again. Robots keep their tier in the new game.
func TestNewGameWhileALobbyIsOpen(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Два стола", a, b)
	join := h.T("lobby.join_button")
	lobby := h.send(a, group, "/newgame trickchef", hasButton(join))
	if _, err := a.Press(lobby, h.T("lobby.level_button", "Level", h.T("trickchef.level.novice"))); err != nil {
		t.Fatal(err)
	}
	h.press(a, lobby, h.T("lobby.ai_button"), "")
	before, _ := h.Table(group)
	sausages := h.T("sausages.title")
	reply := h.send(b, group, "/newgame сосиски", contains(h.Shown("newgame.lobby_open", "Game", h.T("trickchef.title"))))
	if !strings.Contains(reply.Text, h.Shown("newgame.switch_hint", "Game", sausages)) {
		t.Errorf("no offer to switch: %q", reply.Text)
	}
	if after, _ := h.Table(group); after.GameID != before.GameID || after.GameNo != before.GameNo || len(after.Seats) != len(before.Seats) {
		t.Errorf("/newgame by another changed the lobby: %+v", after)
	}
	switchButton := h.T("newgame.switch_button", "Game", sausages)
	h.press(b, reply, switchButton, h.T("lobby.creator_only"))
	h.press(b, reply, join, h.T("lobby.joined"))
	h.press(b, reply, join, h.T("lobby.already_seated"))
	h.press(a, reply, switchButton, h.T("lobby.game_set", "Game", sausages))
	tab, _ := h.Table(group)
	if tab.GameID != "sausages" || tab.GameNo != before.GameNo || len(tab.Seats) != 3 {
		t.Fatalf("after the switch: kind %q, game %d, seats %+v", tab.GameID, tab.GameNo, tab.Seats)
	}
	if tab.Seats[1].AI != "sly" {
		t.Errorf("the robot of the second tier is %q in Сосиски, want sly", tab.Seats[1].AI)
	}
	h.press(a, reply, switchButton, h.T("lobby.game_set", "Game", sausages))
	if _, err := group.WaitMessage(10*time.Second, contains(h.Shown("lobby.title", "Game", sausages))); err != nil {
		t.Fatalf("the lobby did not turn into Сосиски: %v", err)
	}
	lobbies := 0
	for _, m := range group.Messages() {
		if strings.Contains(m.Text, h.Shown("lobby.hint")) {
			lobbies++
		}
	}
	if lobbies != 1 {
		t.Errorf("%d lobby messages in the group, want the one", lobbies)
	}
}

// TestCancelledLobbyLink: the join link of a cancelled lobby says no
// lobby is open, even to someone who sat there.
func TestCancelledLobbyLink(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Отмена", a, b)
	lobby := h.send(a, group, "/newgame trickchef", hasButton(h.T("lobby.join_button")))
	link := joinLink(t, h, lobby)
	h.press(b, lobby, h.T("lobby.join_button"), h.T("lobby.joined"))
	h.press(a, lobby, h.T("lobby.cancel_button"), "")
	v := h.Version(group)
	sent := b.Start(link)
	if _, err := b.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID > sent.ID && m.Text == h.Shown("start.no_lobby")
	}); err != nil {
		t.Fatalf("the cancelled lobby's link: %v", err)
	}
	if got := h.Version(group); got != v {
		t.Errorf("the link changed the closed table: version %d → %d", v, got)
	}
}

// joinLink is the /start payload of the lobby's «open the chat» link, as
// a person following it sends it.
func joinLink(t *testing.T, h *harness, lobby *telegramtest.Message) string {
	t.Helper()
	b, ok := lobby.Button(h.T("lobby.open_chat_button"))
	if !ok {
		t.Fatalf("no %q link in the lobby: %+v", h.T("lobby.open_chat_button"), lobby.Keyboard)
	}
	_, payload, ok := strings.Cut(b.URL, "?start=")
	if !ok {
		t.Fatalf("the link %q sends no /start payload", b.URL)
	}
	return payload
}

// TestJoinLinkNeedsTheGroup: a lobby's join link names no chat, and only
// the group's members take a seat with it. A stranger holding the link,
// a made-up link and the old form (the chat's id) all get the one answer
// that tells nothing, not even the group's title, and change nothing; a
// member who follows it sits down.
func TestJoinLinkNeedsTheGroup(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	stranger := h.MustBegin(h.Srv.NewUser("Чужой"))
	group := h.Srv.NewGroup("Тайный клуб", a, b)
	lobby := h.send(a, group, "/newgame trickchef", hasButton(h.T("lobby.join_button")))
	link := joinLink(t, h, lobby)
	gid := strconv.FormatInt(group.ID(), 10)
	if strings.Contains(link, strings.TrimPrefix(gid, "-")) || len(link) != 23 {
		t.Fatalf("the join link %q names the chat %s", link, gid)
	}
	v := h.Version(group)
	answer := func(u *telegramtest.User, payload string) string {
		t.Helper()
		sent := u.Start(payload)
		m, err := u.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool { return m.ID > sent.ID })
		if err != nil {
			t.Fatalf("/start %s: %v", payload, err)
		}
		return m.Text
	}
	bad := h.Shown("start.bad_link")
	for _, payload := range []string{link, "j" + gid, "j" + strings.Repeat("A", 22), link[:len(link)-1] + "x"} {
		if got := answer(stranger, payload); got != bad {
			t.Errorf("a stranger's /start %s: %q, want %q", payload, got, bad)
		}
		if got := answer(stranger, payload); strings.Contains(got, "Тайный клуб") {
			t.Errorf("a stranger learnt the group's title: %q", got)
		}
	}
	if got := h.Version(group); got != v {
		t.Errorf("a stranger's link changed the table: version %d → %d", v, got)
	}
	if got := answer(b, link); got != h.Shown("start.joined", "Title", "Тайный клуб") {
		t.Errorf("a member's /start with the link: %q", got)
	}
	if got := answer(b, link); got != h.Shown("lobby.already_seated") {
		t.Errorf("the same link again: %q", got)
	}
}

// TestLangChoice: /lang offers the languages; only an admin or the
// table's creator changes the group's; garbage and forged presses are
// refused and change nothing.
func TestLangChoice(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	owner := h.MustBegin(h.Srv.NewUser("Хозяйка"))
	creator := h.MustBegin(h.Srv.NewUser("Аня"))
	member := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Языки", owner, creator, member)
	other := h.Srv.NewGroup("Другая", owner, member)
	cat := bottest.Catalog(t)
	choice := h.send(member, group, "/lang", hasButton(cat.T("ru", "lang.name")))
	en, ok := choice.Button(cat.T("en", "lang.name"))
	if !ok {
		t.Fatalf("no English in %+v", choice.Keyboard)
	}
	v := h.Version(group)
	// No table was ever opened here: only the admins may.
	h.press(member, choice, en.Text, h.T("lang.not_allowed_admin"))
	h.send(member, group, "/lang en", contains(h.Shown("lang.not_allowed_admin")))
	tid := strconv.FormatInt(group.ID(), 10)
	h.ExpectAnswer(owner, choice, "g:"+tid+":0:de", h.T("error.bad_button"))
	h.ExpectAnswer(owner, choice, "g:"+tid+":0:EN", h.T("error.bad_button"))
	h.ExpectAnswer(owner, choice, "g:"+strconv.FormatInt(other.ID(), 10)+":0:en", h.T("error.bad_button"))
	if tab, _ := h.Table(group); tab.Lang != "ru" {
		t.Fatalf("refused presses changed the language to %q", tab.Lang)
	}
	if got := h.Version(group); got != v+1 { // the /lang en reply only
		t.Errorf("refused presses changed the table: version %d → %d", v, got)
	}
	if _, err := h.Redis.Load(context.Background(), strconv.FormatInt(other.ID(), 10)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a press forged for another group made it a table: %v", err)
	}

	// The group's owner (an admin) may.
	ans, err := owner.Press(choice, en.Text)
	if err != nil || ans.Text != cat.T("en", "lang.set") {
		t.Fatalf("the owner's press: %+v, %v", ans, err)
	}
	if tab, _ := h.Table(group); tab.Lang != "en" {
		t.Fatalf("language %q after the owner's press", tab.Lang)
	}
	// The table's creator may too.
	h.send(creator, group, "/newgame trickchef", hasButton(cat.T("en", "lobby.join_button")))
	h.send(creator, group, "/lang русский", contains(h.Shown("lang.set")))
	if tab, _ := h.Table(group); tab.Lang != "ru" {
		t.Errorf("language %q after the creator's /lang русский", tab.Lang)
	}
}

// TestHelpAndPickers: /help in a group starts a game and shows rules with
// its buttons; in private it offers rules and adding the bot to a group;
// /rules and an unknown /newgame word offer buttons.
func TestHelpAndPickers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Справка", a, b)
	chef, sausages := h.T("chef.title"), h.T("sausages.title")
	play := func(game string) string { return h.T("games.play_button", "Game", game) }

	help := h.send(a, group, "/help", hasButton(play(chef)))
	if n, want := len(help.Keyboard), len(allGames()); n != want {
		t.Errorf("/help in a group has %d rows of games, want %d", n, want)
	}
	h.press(b, help, play(chef), h.T("lobby.joined"))
	tab, _ := h.Table(group)
	if tab.Phase != record.PhaseLobby || tab.GameID != "chef" || tab.Creator != b.ID() {
		t.Fatalf("after ▶️ %s: %+v", chef, tab)
	}
	v := h.Version(group)
	h.press(a, help, play(sausages), h.T("newgame.lobby_open_toast", "Game", chef))
	if got := h.Version(group); got != v {
		t.Errorf("a second ▶️ changed the table: version %d → %d", v, got)
	}
	h.ExpectAnswer(a, help, "o:"+strconv.FormatInt(group.ID(), 10)+":0:nosuchgame", h.T("error.bad_button"))
	// 📖 opens the rules of its game in private.
	h.expectRulesLink(a, help.Keyboard[1][1], "sausages")

	// An unknown word: the games as buttons.
	other := h.Srv.NewGroup("Другая", a, b)
	picker := h.send(a, other, "/newgame домино", hasButton(play(sausages)))
	h.press(a, picker, play(sausages), h.T("lobby.joined"))
	if tab, _ := h.Table(other); tab.GameID != "sausages" {
		t.Errorf("the picker opened %q", tab.GameID)
	}

	// In private: rules buttons and a link that adds the bot to a group.
	private := h.send(a, a.PrivateChat(), "/help", hasButton(h.T("help.add_button")))
	add, _ := private.Button(h.T("help.add_button"))
	if want := fmt.Sprintf("https://t.me/%s?startgroup=1", h.Srv.Bot().Username); add.URL != want {
		t.Errorf("add to a group: %q, want %q", add.URL, want)
	}
	practice := 0
	for _, b := range private.Buttons() {
		if !strings.HasPrefix(b.CallbackData, "o:") {
			continue
		}
		// The only games it opens are practice tables in this very chat,
		// each button naming its game.
		game := b.CallbackData[strings.LastIndex(b.CallbackData, ":")+1:]
		if !strings.HasPrefix(b.CallbackData, "o:"+strconv.FormatInt(a.ID(), 10)+":") || b.Text != h.T("practice.game_button", "Game", h.T(game+".title")) {
			t.Errorf("private /help offers to start a game elsewhere: %+v", b)
		}
		practice++
	}
	if practice != len(allGames()) {
		t.Errorf("private /help offers %d practice tables, want one a game", practice)
	}
	rules := h.send(a, a.PrivateChat(), "/rules", hasButton(h.T("games.rules_button", "Game", chef)))
	if n, want := len(rules.Keyboard), len(allGames()); n != want {
		t.Errorf("/rules offers %d games, want %d", n, want)
	}
}

// TestLobbyLinksToItsRules: the lobby's rules button opens the private
// chat with the game's rules.
func TestLobbyLinksToItsRules(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Правила", a)
	lobby := h.send(a, group, "/newgame chef", hasButton(h.T("lobby.join_button")))
	link, ok := lobby.Button(h.T("lobby.rules_button"))
	if !ok {
		t.Fatalf("the lobby has no rules button: %+v", lobby.Keyboard)
	}
	h.expectRulesLink(a, link, "chef")
}

// expectRulesLink follows a button's link into u's private chat, as
// Telegram does, and wants the first page of the game's rules there.
func (h *harness) expectRulesLink(u *telegramtest.User, link telegramtest.Button, game string) {
	h.TB.Helper()
	prefix := fmt.Sprintf("https://t.me/%s?start=", h.Srv.Bot().Username)
	if !strings.HasPrefix(link.URL, prefix) {
		h.TB.Fatalf("the rules button %+v does not open the private chat", link)
	}
	firstLine, _, _ := strings.Cut(h.Shown(game+".rules", "Turn", "", "Left", "", "Turns", "", "Night", "", "GroupHand", ""), "\n")
	sent := u.Start(strings.TrimPrefix(link.URL, prefix))
	if _, err := u.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID > sent.ID && strings.HasPrefix(m.Text, firstLine)
	}); err != nil {
		h.TB.Errorf("%s: no rules of %s in private: %v", link.URL, game, err)
	}
}

// TestHints: a command addressed to the bot that it does not know, and
// plain text in private, get a short hint; another bot's command does not.
func TestHints(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Подсказки", a)
	unknown := h.Shown("command.unknown")
	h.send(a, group, "/foo@"+h.Srv.Bot().Username, func(m *telegramtest.Message) bool { return m.Text == unknown })
	sent := a.Send(group, "/foo@otherbot")
	a.Send(group, "/foo")
	h.send(a, group, "/table", contains(h.Shown("table.none")))
	for _, m := range group.Messages() {
		if m.ID > sent.ID && m.Text == unknown {
			t.Errorf("answered another bot's command or an unaddressed one: %q", m.Text)
		}
	}
	h.send(a, a.PrivateChat(), "привет", contains(h.Shown("command.hint_private")))
}

// TestAnonymousAdmin: an administrator writing in the group's name
// («remain anonymous») is nobody the bot could seat: their /newgame opens
// a lobby with no one at it, and the first to join runs it (only they may
// start it); their /stop is an admin's, and any administrator (pressing as
// themselves) may confirm it, a plain member not; their /lang sets the
// language. The placeholder account never appears at the table.
func TestAnonymousAdmin(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	owner := h.MustBegin(h.Srv.NewUser("Хозяйка"))
	admin := h.MustBegin(h.Srv.NewUser("Админ"))
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Аноним", owner, admin, a, b)
	group.MakeAdmin(admin)

	owner.SendAnonymously(group, "/newgame trickchef")
	lobby, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.join_button")))
	if err != nil {
		t.Fatal(err)
	}
	if tab, _ := h.Table(group); tab.Phase != record.PhaseLobby || len(tab.Seats) != 0 || tab.Creator != 0 {
		t.Fatalf("the anonymous /newgame: phase %v, seats %+v, creator %d", tab.Phase, tab.Seats, tab.Creator)
	}
	if strings.Contains(lobby.Text, telegramtest.GroupAnonymousBot.FirstName) {
		t.Errorf("the placeholder account sits at the table:\n%s", lobby.Text)
	}
	h.press(a, lobby, h.T("lobby.join_button"), h.T("lobby.joined"))
	h.press(b, lobby, h.T("lobby.join_button"), h.T("lobby.joined"))
	h.press(admin, lobby, h.T("lobby.join_button"), h.T("lobby.joined"))
	if tab, _ := h.Table(group); tab.Creator != a.ID() {
		t.Fatalf("the first to join did not become the creator: %d", tab.Creator)
	}
	h.press(b, lobby, h.T("lobby.start_button"), h.T("lobby.creator_only"))
	h.MustStartGame(a, lobby)

	ask := func() *telegramtest.Message {
		t.Helper()
		sent := owner.SendAnonymously(group, "/stop")
		q, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool { return m.ID > sent.ID && hasButton(h.T("stop.yes"))(m) })
		if err != nil {
			t.Fatalf("the anonymous /stop: %v", err)
		}
		return q
	}
	q := ask()
	v := h.Version(group)
	h.press(b, q, h.T("stop.yes"), h.T("stop.admins_only"))
	if got := h.Version(group); got != v {
		t.Errorf("a member's «yes» changed the table: version %d → %d", v, got)
	}
	h.press(admin, q, h.T("stop.yes"), h.T("stop.done"))
	if tab, _ := h.Table(group); tab.Phase != record.PhaseIdle {
		t.Fatalf("an administrator's «yes» did not stop the game: phase %v", tab.Phase)
	}

	// /stats has no person to show: the group's list instead.
	sent := owner.SendAnonymously(group, "/stats")
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID > sent.ID && strings.HasPrefix(m.Text, h.Shown("top.title", "Game", h.T("trickchef.title")))
	}); err != nil {
		t.Fatalf("the anonymous /stats: %v", err)
	}

	sent = owner.SendAnonymously(group, "/lang en")
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID > sent.ID && m.Text == bottest.Catalog(t).T("en", "lang.set")
	}); err != nil {
		t.Fatalf("the anonymous /lang: %v", err)
	}
}
