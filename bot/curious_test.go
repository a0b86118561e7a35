package bot_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
)

// TestEveryPressAnsweredWhileOneFloods plays two groups at once with
// people who press whatever they see — hands, the lobby, «I'm back», rules
// pages, /stop questions, old messages — and send commands in the groups
// and in private, at human pace, while one of them floods at twenty
// presses a second. Every press of every person is answered within
// Telegram's spinner time; the flood is told it is too fast, and nobody
// else ever is; the bot never draws a 429.
func TestEveryPressAnsweredWhileOneFloods(t *testing.T) {
	t.Parallel()
	h := newFloodHarness(t, 2*time.Second)
	people := make([]*telegramtest.User, 5)
	for i, name := range []string{"Аня", "Борис", "Вера", "Глеб", "Даша"} {
		people[i] = h.MustBegin(h.Srv.NewUser(name))
	}
	flooder := people[0] // sits at both tables
	g1 := h.Srv.NewGroup("Первый стол", people[0], people[1], people[2])
	g2 := h.Srv.NewGroup("Второй стол", people[0], people[3], people[4])
	h.MustStartGame(people[0], h.MustLobby(g1, people[0], people[1:3], 0))
	lobby2, err := h.LobbyFor("chef", g2, people[0], []*telegramtest.User{people[3], people[4]}, 0)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(people[0], lobby2)

	groupCmds := []string{"/rules", "/table", "/stats", "/top", "/history", "/help", "/stop", "/rules chef"}
	privateCmds := []string{"/rules", "/help", "/stats", "/start", "/rules trickchef"}
	commands := map[int64][]string{g1.ID(): groupCmds, g2.ID(): groupCmds}
	for _, u := range people {
		commands[u.ID()] = privateCmds
	}
	chatsOf := func(u *telegramtest.User) []*telegramtest.Chat {
		chats := []*telegramtest.Chat{u.PrivateChat()}
		for g, members := range map[*telegramtest.Chat][]*telegramtest.User{g1: people[:3], g2: {people[0], people[3], people[4]}} {
			if slices.Contains(members, u) {
				chats = append(chats, g)
			}
		}
		return chats
	}
	done := make(chan struct{})
	var results []func() bottest.CuriousStats
	for i, u := range people {
		pace := bottest.Pace(200*time.Millisecond, 800*time.Millisecond, uint64(i+1))
		if u == flooder {
			// Several times the allowed rate even when a loaded machine
			// stretches every wait: a try now and then finds no button, or
			// sends a command instead, so the presses come slower than this.
			pace = func() time.Duration { return 15 * time.Millisecond }
		}
		results = append(results, bottest.Curious(u, chatsOf(u), commands, done, pace, rand.New(rand.NewPCG(uint64(i), 7))))
	}
	time.Sleep(12 * time.Second)
	close(done)

	tooFast := h.T("error.too_fast")
	for i, res := range results {
		st := res()
		name := people[i].User().FirstName
		t.Logf("%s: %d presses, %d commands, %d unanswered, answers %v", name, st.Presses, st.Commands, len(st.Unanswered), st.Answers)
		if len(st.Unanswered) > 0 {
			t.Errorf("%s: %d of %d presses never answered, e.g. %s", name, len(st.Unanswered), st.Presses, strings.Join(st.Unanswered[:min(5, len(st.Unanswered))], " "))
		}
		switch {
		case people[i] == flooder && st.Answers[tooFast] == 0:
			t.Errorf("%s pressed %d times in 12 s (%.1f a second) and was never told to slow down", name, st.Presses, float64(st.Presses)/12)
		case people[i] != flooder && st.Answers[tooFast] > 0:
			t.Errorf("%s, pressing at human pace, was told %d times to slow down", name, st.Answers[tooFast])
		}
		if people[i] != flooder && st.Presses < 3 {
			t.Errorf("%s pressed only %d times: the test saw too few buttons", name, st.Presses)
		}
	}
	if n := h.Srv.TooManyRequestsCount(); n > 0 {
		t.Errorf("the bot drew %d answers 429 from Telegram", n)
	}
}

// TestStartAndNewGameAtOnce: a person opens the private chat (/start) and
// the group's /newgame at the same moment; the two chats are applied in
// parallel, so each handler may miss the other's write. Whatever the
// order, the lobby ends up knowing the bot can write to them.
func TestStartAndNewGameAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	mark := h.Shown("lobby.unreachable_mark")
	var groups []*telegramtest.Chat
	for i := range 12 {
		u := h.Srv.NewUser("Аня " + strings.Repeat("!", i+1))
		g := h.Srv.NewGroup("Стол "+strings.Repeat("!", i+1), u)
		u.Start("")
		u.Send(g, "/newgame trickchef")
		groups = append(groups, g)
	}
	for i, g := range groups {
		err := h.Srv.WaitFor(10*time.Second, func() bool {
			m := g.Find(func(m *telegramtest.Message) bool { return m.FromBot && len(m.Buttons()) > 0 })
			return m != nil && !strings.Contains(g.Message(m.ID).Text, mark)
		})
		if err != nil {
			t.Errorf("lobby %d still says the creator's chat is not open after their /start", i+1)
		}
	}
}
