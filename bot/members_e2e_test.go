package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
)

// Who belongs at a table: only a member of its group sits down, runs a
// lobby or reopens a game there, and a press counts only from the chat its
// button was shown in. Someone who leaves the group loses their seat (and
// their cached membership) as soon as Telegram says so. These tests check
// answers by catalog key and state in the store, through the fake Bot API.

// named reports whether any message of chat names who.
func named(chat *telegramtest.Chat, who string) bool {
	for _, m := range chat.Messages() {
		if m.FromBot && strings.Contains(m.Text, who) {
			return true
		}
	}
	return false
}

// TestStrangerCannotSitAtAnotherGroupsTable: a member of group B (and a
// viewer of A who is no member of it) pressing A's «Присоединиться» is
// refused with a toast and never named in A's lobby; the same button's data
// sent from a private chat or from group B is refused even for A's own
// member; a seat's button sent from the group is refused for its own
// person. A's game starts and plays to its end for its members; after it,
// «🔁 Сыграть ещё» pressed by the stranger opens nothing, nor does its data
// sent from the private chat of a member who did not play.
func TestStrangerCannotSitAtAnotherGroupsTable(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	w := h.MustBegin(h.Srv.NewUser("Вадим")) // in A, watches
	c := h.MustBegin(h.Srv.NewUser("Чужак")) // in B only
	groupA := h.Srv.NewGroup("Свои", a, b, w)
	groupB := h.Srv.NewGroup("Чужие", c)
	join, again := h.T("lobby.join_button"), h.T("again.button")

	lobby := h.MustLobby(groupA, a, nil, 1)
	joinData := func() string {
		bt, ok := lobby.Button(join)
		if !ok {
			t.Fatal("the lobby has no join button")
		}
		return bt.CallbackData
	}()
	v0 := h.Version(groupA)
	h.press(c, lobby, join, h.T("error.not_member"))
	// Forged: the same data from a private chat and from group B, by the
	// stranger and by A's own member.
	c.Send(groupB, "/newgame@"+h.Srv.Bot().Username+" trickchef")
	lobbyB, err := groupB.WaitMessage(10*time.Second, hasButton(join))
	if err != nil {
		t.Fatal(err)
	}
	greeting := b.PrivateChat().Last()
	h.ExpectAnswer(b, greeting, joinData, h.T("error.elsewhere"))
	h.ExpectAnswer(c, c.PrivateChat().Last(), joinData, h.T("error.elsewhere"))
	h.ExpectAnswer(c, lobbyB, joinData, h.T("error.elsewhere"))
	if tab, v := h.Table(groupA); v != v0 || tab.SeatOf(c.ID()) >= 0 || tab.SeatOf(b.ID()) >= 0 || len(tab.Seats) != 2 {
		t.Fatalf("refused presses changed A's table: version %d → %d, seats %+v", v0, v, tab.Seats)
	}
	h.press(b, lobby, join, h.T("lobby.joined"))
	h.MustStartGame(a, lobby)
	if cur := groupA.Message(lobby.ID); cur == nil || strings.Contains(cur.Text, "Чужак") {
		t.Fatalf("A's table names the stranger:\n%v", cur)
	}

	// A seat's button from the group, by its own person.
	var owner *telegramtest.User
	var bt telegramtest.Button
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		for _, u := range []*telegramtest.User{a, b} {
			if _, x, ok := bottest.Playable(u); ok {
				owner, bt = u, x
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatalf("nobody got a hand to play: %v", err)
	}
	v1 := h.Version(groupA)
	h.ExpectAnswer(owner, groupA.Message(lobby.ID), bt.CallbackData, h.T("error.elsewhere"))
	if v := h.Version(groupA); v != v1 {
		t.Fatalf("a seat's button pressed in the group changed the table: version %d → %d", v1, v)
	}

	final := h.MustPlayToEnd(groupA, []*telegramtest.User{a, b}, 3*time.Minute)
	h.CheckReplay(groupA)
	idle, v2 := h.Table(groupA)
	h.press(c, final, again, h.T("error.not_member"))
	againData, _ := final.Button(again)
	h.ExpectAnswer(w, w.PrivateChat().Last(), againData.CallbackData, h.T("error.elsewhere"))
	if tab, v := h.Table(groupA); v != v2 || tab.Phase != record.PhaseIdle || tab.GameNo != idle.GameNo {
		t.Fatalf("refused «play again» presses changed the table: version %d → %d, phase %v", v2, v, tab.Phase)
	}
	h.press(a, final, again, h.T("again.opened"))
	if tab, _ := h.Table(groupA); tab.Phase != record.PhaseLobby || tab.SeatOf(c.ID()) >= 0 || tab.Creator != a.ID() {
		t.Fatalf("after play again: phase %v, creator %d, seats %+v", tab.Phase, tab.Creator, tab.Seats)
	}
	if named(groupA, "Чужак") {
		t.Error("a message of group A names the stranger")
	}
}

// TestStrangerFirstInAnAnonymousLobby: a lobby an anonymous administrator
// opened has no creator; a stranger pressing «Присоединиться» first is
// refused and does not become its creator; the first member does.
func TestStrangerFirstInAnAnonymousLobby(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	owner := h.MustBegin(h.Srv.NewUser("Хозяйка"))
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	c := h.MustBegin(h.Srv.NewUser("Чужак"))
	group := h.Srv.NewGroup("Аноним", owner, a)

	owner.SendAnonymously(group, "/newgame trickchef")
	lobby, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.join_button")))
	if err != nil {
		t.Fatal(err)
	}
	v0 := h.Version(group)
	h.press(c, lobby, h.T("lobby.join_button"), h.T("error.not_member"))
	h.press(c, lobby, h.T("lobby.ai_button"), h.T("error.not_member"))
	if tab, v := h.Table(group); v != v0 || tab.Creator != 0 || len(tab.Seats) != 0 {
		t.Fatalf("the stranger's presses: version %d → %d, creator %d, seats %+v", v0, v, tab.Creator, tab.Seats)
	}
	h.press(a, lobby, h.T("lobby.join_button"), h.T("lobby.joined"))
	if tab, _ := h.Table(group); tab.Creator != a.ID() || len(tab.Seats) != 1 {
		t.Fatalf("the first member did not become the creator: creator %d, seats %+v", tab.Creator, tab.Seats)
	}
	if named(group, "Чужак") {
		t.Error("the lobby names the stranger")
	}
}

// TestLeftTheGroupLeftTheLobby: someone seated in a lobby who leaves the
// group (the bot, a plain member, sees the left_chat_member message) is
// out of the lobby at once, and their cached «member» is gone with it: a
// press right after is refused, where the cache alone would have let it
// through for a while.
func TestLeftTheGroupLeftTheLobby(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	m := h.MustBegin(h.Srv.NewUser("Маша"))
	group := h.Srv.NewGroup("Уходящие", a, m)
	lobby := h.MustLobby(group, a, []*telegramtest.User{m}, 0) // Маша is asked about, and cached
	m.Leave(group)
	if err := h.Srv.WaitFor(10*time.Second, func() bool { tab, _ := h.Table(group); return tab.SeatOf(m.ID()) < 0 }); err != nil {
		t.Fatalf("Маша left the group and still sits in its lobby: %v", err)
	}
	h.press(m, lobby, h.T("lobby.join_button"), h.T("error.not_member"))
	if tab, _ := h.Table(group); tab.Phase != record.PhaseLobby || tab.Creator != a.ID() || len(tab.Seats) != 1 {
		t.Fatalf("the lobby after Маша left: %+v", tab)
	}
}

// TestRemovedFromTheGroupLeavesTheGame: a player removed from a group
// where the bot is an administrator (a supergroup that shows no joined/left
// messages: the chat_member update alone tells) leaves its running game as
// with «Выйти из игры»: a robot takes the seat, the group is told, and the
// game plays on to its end for the others; «🔁 Сыграть ещё» is then
// refused to the one who left.
func TestRemovedFromTheGroupLeavesTheGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Строгие", a, b)
	group.HideMemberMessages()
	group.MakeBotAdmin()
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)
	group.RemoveMember(b)
	var seat int
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		tab, _ := h.Table(group)
		for i, s := range tab.Seats {
			if s.Leaver != nil && s.Leaver.UserID == b.ID() {
				seat = i
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatalf("Борис was removed from the group and still plays: %v", err)
	}
	tab, _ := h.Table(group)
	s := tab.Seats[seat]
	announce := h.Shown("leave.announce", "Name", "Борис", "Robot", s.Name, "Level", h.T("trickchef.level."+s.AI))
	if _, err := group.WaitMessage(10*time.Second, contains(announce)); err != nil {
		t.Fatalf("the group was not told: %v", err)
	}
	final := h.MustPlayToEnd(group, []*telegramtest.User{a}, 3*time.Minute)
	h.press(b, final, h.T("again.button"), h.T("error.not_member"))
}
