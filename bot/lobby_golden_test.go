package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
)

// TestGoldenLobby pins the lobby: the game choice, a seated lobby with
// robots and options, a full one and a practice one.
func TestGoldenLobby(t *testing.T) {
	cat := bottest.Catalog(t)
	b := golden.Views(t, allGames()...)
	tab := &record.Table{ID: "-100123", ChatID: -100123, Title: "Друзья", Phase: record.PhaseLobby, GameNo: 3, Creator: 1, Secret: strings.Repeat("5a17", 8),
		Seats: []record.Seat{{UserID: 1, Name: "Оля"}, {UserID: 2, Name: "Серёжа", Unreachable: true}}}
	var sb strings.Builder
	for _, lang := range cat.Langs() {
		tab.Lang = lang
		tab.GameID = ""
		fmt.Fprintf(&sb, "════ %s: choose\n%s\n", lang, golden.Show(b.Group(tab)))
		for _, g := range allGames() {
			levels := g.(adapter.RobotGame).Levels()
			tab.GameID = g.ID()
			tab.Seats = append(tab.Seats[:2], record.Seat{Name: "Робот 1", AI: levels[len(levels)-1]})
			fmt.Fprintf(&sb, "════ %s: %s\n%s\n", lang, g.ID(), golden.Show(b.Group(tab)))
		}
		// A full table asks nobody to join; a practice lobby offers only
		// the robot buttons that can work.
		full := *tab
		full.GameID, full.Seats = "trickchef", append(tab.Seats[:2:2], record.Seat{Name: "Робот 1", AI: "shef"}, record.Seat{Name: "Робот 2", AI: "shef"})
		fmt.Fprintf(&sb, "════ %s: trickchef, full\n%s\n", lang, golden.Show(b.Group(&full)))
		practice := &record.Table{ID: "5", ChatID: 5, Title: "Тренировка", Lang: lang, Phase: record.PhaseLobby, GameNo: 1, Creator: 5, GameID: "trickchef", Hints: true,
			Seats: []record.Seat{{UserID: 5, Name: "Оля"}, {Name: "Робот 1", AI: "novice"}, {Name: "Робот 2", AI: "novice"}}}
		fmt.Fprintf(&sb, "════ %s: practice, trickchef\n%s\n", lang, golden.Show(b.Group(practice)))
	}
	golden.Check(t, "lobby", sb.String())
}
