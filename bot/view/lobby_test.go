package view

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
)

func containsLine(text, line string) bool { return slices.Contains(strings.Split(text, "\n"), line) }

// lobbyOf is a lobby of game g with the creator (user 1) seated and
// robots robots.
func lobbyOf(g adapter.Game, robots int) *record.Table {
	t := &record.Table{ID: "-100123", ChatID: -100123, Title: "Друзья", Lang: "ru", Phase: record.PhaseLobby, GameNo: 3, GameID: g.ID(), Creator: 1,
		Seats: []record.Seat{{UserID: 1, Name: "Оля"}}}
	for i := 0; i < robots; i++ {
		t.Seats = append(t.Seats, record.Seat{Name: "Робот", AI: adapter.Levels(g)[0]})
	}
	return t
}

// TestLobbyWhileChoosing: a lobby whose game is still to be chosen lists
// who sits there and offers «join». (That /newgame naming no game then
// says the word is unknown and changes nothing is the tables' half of
// this test: TestLobbyWhileChoosing there.)
func TestLobbyWhileChoosing(t *testing.T) {
	r := testRenderer(t, func() time.Time { return testClock })
	tab := &record.Table{ID: "-100123", ChatID: -100123, Title: "Друзья", Lang: "ru", Phase: record.PhaseLobby, GameNo: 2, Creator: 1,
		Seats: []record.Seat{{UserID: 1, Name: "Оля"}, {UserID: 2, Name: "Серёжа"}}}
	m := r.Group(tab)
	if !hasButtonData(m, callback.Data{Op: callback.Lobby, Table: tab.ID, GameNo: tab.GameNo, Args: []int{callback.LobbyJoin}}.String()) {
		t.Errorf("the game picker offers no «join»: %+v", m.Keyboard)
	}
	l := r.Loc("ru")
	for i, s := range tab.Seats {
		if !containsLine(m.Text, lobbySeatLine(l, tab, nil, i, s)) {
			t.Errorf("the game picker does not list %s: %q", s.Name, m.Text)
		}
	}
}

// TestLobbyOffersOnlyWorkingButtons: a full table offers neither «join»
// nor «add a robot», a table without robots no «remove a robot».
func TestLobbyOffersOnlyWorkingButtons(t *testing.T) {
	r := testRenderer(t, func() time.Time { return testClock })
	g := testGame(t, "trickchef")
	_, hi := g.SeatRange()
	btn := func(tab *record.Table, op int) bool {
		return hasButtonData(r.Group(tab), callback.Data{Op: callback.Lobby, Table: tab.ID, GameNo: tab.GameNo, Args: []int{op}}.String())
	}
	empty := lobbyOf(g, 0)
	if !btn(empty, callback.LobbyJoin) || !btn(empty, callback.LobbyAddAI) || btn(empty, callback.LobbyKick) {
		t.Errorf("a lobby of one person: join %v, add %v, remove %v", btn(empty, callback.LobbyJoin), btn(empty, callback.LobbyAddAI), btn(empty, callback.LobbyKick))
	}
	full := lobbyOf(g, hi-1)
	if btn(full, callback.LobbyJoin) || btn(full, callback.LobbyAddAI) || !btn(full, callback.LobbyKick) || !btn(full, callback.LobbyLeave) {
		t.Errorf("a full lobby: join %v, add %v, remove %v, leave %v", btn(full, callback.LobbyJoin), btn(full, callback.LobbyAddAI), btn(full, callback.LobbyKick), btn(full, callback.LobbyLeave))
	}
}

// TestLobbyChampion: last month's champion of the lobby's game carries 🏆
// by their name until the month after ends; a champion of another game,
// or after that, does not.
func TestLobbyChampion(t *testing.T) {
	now := testClock
	r := testRenderer(t, func() time.Time { return now })
	g := testGame(t, "trickchef")
	tab := lobbyOf(g, 1)
	tab.Seats = append(tab.Seats, record.Seat{UserID: 2, Name: "Серёжа"})
	tab.Season = &record.Season{Month: "2026-11", Until: now.Add(time.Hour),
		Champions: map[string][]int64{"trickchef": {1}, "sausages": {2}}}
	l := r.Loc("ru")
	m := r.Group(tab)
	if !containsLine(m.Text, lobbySeatLine(l, tab, g, 0, tab.Seats[0])+" 🏆") {
		t.Errorf("the champion has no 🏆:\n%s", m.Text)
	}
	if !containsLine(m.Text, lobbySeatLine(l, tab, g, 2, tab.Seats[2])) {
		t.Errorf("another game's champion carries 🏆 here:\n%s", m.Text)
	}
	now = now.Add(2 * time.Hour)
	if m := r.Group(tab); strings.Contains(m.Text, "🏆") {
		t.Errorf("🏆 after the month after ended:\n%s", m.Text)
	}
}
