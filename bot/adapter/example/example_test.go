package example_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/adapter/example"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/internal/highcard"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestHighCardPlaysToTheEnd plays the example game, written with bot's
// exported API only, through the fake Bot API: two people open the
// private chat, one opens the lobby in the group, the other joins, they
// play every card from their private chats, and the group gets each round
// and the final result; the stored game replays from its seed.
func TestHighCardPlaysToTheEnd(t *testing.T) {
	h := bottest.NewTest(t, []adapter.Game{example.Game()}, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Старшая", a, b)
	lobby, err := h.LobbyFor("highcard", group, a, []*telegramtest.User{b}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lobby.Text, h.Shown("highcard.title")) {
		t.Errorf("the lobby does not name the game:\n%s", lobby.Text)
	}
	h.MustStartGame(a, lobby)
	final := h.MustPlayToEnd(group, []*telegramtest.User{a, b}, time.Minute)
	if !h.Won()(final) {
		t.Errorf("final message: %q", final.Text)
	}
	// Each round is announced once: «Аня берёт раунд: 5 против 2».
	announced := map[string]bool{}
	for _, name := range []string{"Аня", "Борис"} {
		for win := 2; win <= highcard.Cards; win++ {
			for lose := 1; lose < win; lose++ {
				announced[h.Shown("highcard.round_won", "Name", name, "Winning", win, "Losing", lose)] = true
			}
		}
	}
	rounds := 0
	for _, m := range group.Messages() {
		if announced[m.Text] {
			rounds++
		}
	}
	if rounds != highcard.Rounds {
		t.Errorf("%d round results in the group, want %d", rounds, highcard.Rounds)
	}
	tab := h.CheckReplay(group)
	if len(tab.Log) != highcard.Cards {
		t.Errorf("%d moves logged, want %d: every card played", len(tab.Log), highcard.Cards)
	}
	h.CheckLimits(group)
}
