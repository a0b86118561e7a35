package sausages_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/sausages"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestSausagesGameOfFour plays Сосиски with four people to the winner.
func TestSausagesGameOfFour(t *testing.T) {
	t.Parallel()
	h := bottest.NewTest(t, []adapter.Game{sausages.Game()}, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Сосисочная", people...)
	lobby, err := h.LobbyFor("sausages", group, people[0], people[1:], 0)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(people[0], lobby)
	final := h.MustPlayToEnd(group, people, 3*time.Minute)
	if one, _ := h.Around("result.winner", "Name"); !strings.Contains(final.Text, one) {
		t.Errorf("final message: %q", final.Text)
	}
	h.CheckLimits(group)
}
