package bot_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// TestPracticeWhilePlayingInAGroup: for each game, Аня plays Трик-н-Шеф
// with Борис in a group and, meanwhile, a practice game of that game with
// robots in her private chat (/newgame <game> there). Both play to the end,
// each of her presses reaching its own table. The practice game is
// recorded apart: the group's history has only the group's game, and
// /stats in private shows the practice game on its own line.
func TestPracticeWhilePlayingInAGroup(t *testing.T) {
	for _, g := range allGames() {
		id := g.ID()
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, time.Minute)
			ctx := context.Background()
			a := h.MustBegin(h.Srv.NewUser("Аня"))
			b := h.MustBegin(h.Srv.NewUser("Борис"))
			group := h.Srv.NewGroup("Группа", a, b)
			lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
			h.MustStartGame(a, lobby)

			chat := a.PrivateChat()
			a.Send(chat, "/newgame "+id)
			start := h.T("lobby.start_button")
			practice, err := chat.WaitMessage(10*time.Second, hasButton(start))
			if err != nil {
				t.Fatalf("no practice lobby: %v", err)
			}
			if _, ok := practice.Button(h.T("lobby.join_button")); ok {
				t.Errorf("a practice lobby offers to join: %+v", practice.Keyboard)
			}
			h.MustStartGame(a, practice)

			mine := strconv.FormatInt(a.ID(), 10)
			groupID := strconv.FormatInt(group.ID(), 10)
			done := make(chan struct{})
			waits := []func() []string{
				h.PlayerAt(a, groupID, done, nil),
				h.PlayerAt(a, mine, done, nil),
				h.Player(b, done, nil),
			}
			again := h.T("again.button")
			_, errGroup := group.WaitMessage(4*time.Minute, hasButton(again))
			_, errPractice := chat.WaitMessage(4*time.Minute, func(m *telegramtest.Message) bool {
				bt, ok := m.Button(again)
				return ok && strings.HasPrefix(bt.CallbackData, "n:"+mine+":")
			})
			close(done)
			for _, w := range waits {
				w()
			}
			if errGroup != nil || errPractice != nil {
				t.Fatalf("group game: %v; practice game: %v", errGroup, errPractice)
			}

			var hist []store.Result
			if err := h.Srv.WaitFor(10*time.Second, func() bool {
				hist, err = h.Redis.History(ctx, group.ID(), 5)
				return err == nil && len(hist) == 1
			}); err != nil {
				t.Fatalf("the group's history: %+v, %v", hist, err)
			}
			if hist[0].Game != "trickchef" {
				t.Errorf("the group's history holds %+v", hist[0])
			}
			if err := h.Srv.WaitFor(10*time.Second, func() bool {
				p, ok, err := h.Redis.Stats(ctx, a.ID(), id, resPlayer(a))
				return err == nil && ok && p.Games == 1
			}); err != nil {
				t.Fatalf("the practice game is not recorded under the private chat: %v", err)
			}
			a.Send(chat, "/stats")
			line, _ := h.Around("practice.stats", "Games")
			if _, err := chat.WaitMessage(10*time.Second, contains(line)); err != nil {
				t.Errorf("/stats in private has no practice line: %v", err)
			}
			h.CheckLimits(group)
		})
	}
}

// TestPracticeFromHelp: «🎓 Потренироваться» under /help opens a practice
// lobby in the private chat with robots seated; its level button sets the
// level of every robot; in the game the table and the hand are one
// message, with «💡 Подсказка» (hints are on in practice); a press from
// another person's chat is refused; /stop there asks and stops the game,
// which is not recorded.
func TestPracticeFromHelp(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	stranger := h.MustBegin(h.Srv.NewUser("Чужой"))
	chat := a.PrivateChat()
	a.Send(chat, "/help")
	practiceBtn := h.T("practice.game_button", "Game", h.T("trickchef.title"))
	help, err := chat.WaitMessage(10*time.Second, hasButton(practiceBtn))
	if err != nil {
		t.Fatalf("no practice button under /help: %v", err)
	}
	h.ExpectAnswer(stranger, stranger.Send(stranger.PrivateChat(), "/help"), mustData(t, help, practiceBtn), h.T("error.bad_button"))
	if ans, err := a.Press(help, practiceBtn); err != nil || ans.Text != h.T("practice.opened") {
		t.Fatalf("practice: %+v, %v", ans, err)
	}
	start := h.T("lobby.start_button")
	lobby, err := chat.WaitMessage(10*time.Second, hasButton(start))
	if err != nil {
		t.Fatalf("no practice lobby: %v", err)
	}
	level := h.T("practice.level_button", "Level", h.T("trickchef.level.novice"))
	if _, err := a.Press(lobby, level); err != nil {
		t.Fatal(err)
	}
	cook := h.T("trickchef.level.cook")
	lobby, err = chat.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID == lobby.ID && strings.Count(m.Text, "· "+cook) == 2
	})
	if err != nil {
		t.Fatalf("the robots did not take the level: %v", err)
	}
	h.MustStartGame(a, lobby)
	hand, err := chat.WaitMessage(10*time.Second, hasButton(h.T("hints.button")))
	if err != nil {
		t.Fatalf("no hint button in practice: %v", err)
	}
	if !strings.Contains(hand.Text, h.Shown("trickchef.players")) || !strings.Contains(hand.Text, "Ваш ход") {
		t.Errorf("the practice message is not the table and the hand:\n%s", hand.Text)
	}

	a.Send(chat, "/stop")
	ask, err := chat.WaitMessage(10*time.Second, hasButton(h.T("stop.yes")))
	if err != nil {
		t.Fatalf("/stop did not ask: %v", err)
	}
	if _, err := a.Press(ask, h.T("stop.yes")); err != nil {
		t.Fatal(err)
	}
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		tab, _ := h.Table(chat)
		return tab != nil && tab.Phase == "idle"
	}); err != nil {
		t.Fatalf("the practice game did not stop: %v", err)
	}
	if _, ok, err := h.Redis.Stats(ctx, a.ID(), "trickchef", resPlayer(a)); err != nil || ok {
		t.Errorf("a stopped practice game was recorded: %v, %v", ok, err)
	}

	// A practice game played to the end, and no group game yet: /stats
	// says there are none in groups, and shows the practice line.
	a.Send(chat, "/newgame sausages")
	lobby, err = chat.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		_, ok := m.Button(start)
		return ok && strings.Contains(m.Text, h.Shown("sausages.title"))
	})
	if err != nil {
		t.Fatalf("no second practice lobby: %v", err)
	}
	h.MustStartGame(a, lobby)
	mine := strconv.FormatInt(a.ID(), 10)
	done := make(chan struct{})
	wait := h.PlayerAt(a, mine, done, nil)
	again := h.T("again.button")
	_, err = chat.WaitMessage(3*time.Minute, func(m *telegramtest.Message) bool {
		bt, ok := m.Button(again)
		return ok && strings.HasPrefix(bt.CallbackData, "n:"+mine+":")
	})
	close(done)
	wait()
	if err != nil {
		t.Fatalf("the practice game did not end: %v", err)
	}
	a.Send(chat, "/stats")
	if _, err := chat.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return strings.Contains(m.Text, h.Shown("practice.stats_no_groups", "Name", "Аня")) && strings.Contains(m.Text, h.Shown("sausages.title"))
	}); err != nil {
		t.Errorf("/stats with only practice games: %v", err)
	}
}
