package tables

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
)

// TestGoldenLong pins the texts of long games in every language (go test
// ./bot/tables -run Golden -update; read the diff as a player on a phone
// would): the lobby at 24 hours a move with the group's zone and night,
// the zones to choose from, the second table's lobby, a long game's group
// table and hand (a deadline today, and one past a night) in each game
// that takes turns, the reminder, the group told that I play for someone,
// /stop's question with two games on, and the rules' paragraph on time.
// The clock is golden.Clock: Monday, 15:00 in Moscow.
func TestGoldenLong(t *testing.T) {
	tb := goldenTables(t)
	// The games that take turns (a game whose buttons stay live is played
	// at once, never long), in menu order: the first opens table 1 and is
	// the one reminded, the last is at the other table.
	var turns []adapter.Game
	for _, g := range testGames() {
		if !adapter.LiveButtons(g) {
			turns = append(turns, g)
		}
	}
	first, last := turns[0], turns[len(turns)-1]
	var sb strings.Builder
	for _, lang := range tb.views.Langs() {
		l := tb.views.Loc(lang)
		lobby := lobbyOf(first, 1)
		lobby.Lang, lobby.TurnTime = lang, 24*time.Hour
		fmt.Fprintf(&sb, "════ %s: a lobby at 24 hours a move\n%s\n", lang, golden.Show(tb.views.Group(lobby)))
		lobby.ZonePick = true
		fmt.Fprintf(&sb, "════ %s: its zones\n%s\n", lang, golden.Show(tb.views.Group(lobby)))
		second := lobbyOf(last, 1)
		second.ID, second.Lang = record.TableID(second.ChatID, 0, 2), lang
		fmt.Fprintf(&sb, "════ %s: table 2's lobby\n%s\n", lang, golden.Show(tb.views.Group(second)))

		for _, g := range turns {
			id := g.ID()
			for _, tc := range []struct {
				name string
				turn time.Duration
			}{{"an hour a move, due today", time.Hour}, {"12 hours a move, due past the night", 12 * time.Hour}} {
				tab, st := golden.Table(t, g, 3, 1, adapter.Levels(g)[0], 9, nil)
				tab.Lang, tab.TurnTime, tab.Started = lang, tc.turn, golden.Clock
				tab.StopTimers()
				tb.moves.Schedule(tab, g, st, true)
				fmt.Fprintf(&sb, "════ %s: %s, %s: group\n%s\n", lang, id, tc.name, golden.Show(tb.views.Group(tab)))
				seat := int(st.ToAct()[0])
				m, err := tb.views.Seat(tab, seat)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&sb, "──── %s: %s, %s: the hand of %s\n%s\n", lang, id, tc.name, tab.Seats[seat].Name, golden.Show(m))
				if id == first.ID() && tc.turn == 12*time.Hour {
					fmt.Fprintf(&sb, "──── %s: the reminder (due %v)\n%s\n", lang, tab.Seats[seat].RemindAt().In(tab.Location()).Format("Mon 15:04"), golden.Show(tb.views.Reminder(tab, seat)))
					fmt.Fprintf(&sb, "──── %s: the group told that I play for %s\n%s\n", lang, tab.Seats[seat].Name, golden.Show(tb.views.AutoNotice(tab, seat)))
					other, _ := golden.Table(t, last, 2, 1, "novice", 3, nil)
					other.ID, other.Lang, other.TurnTime = record.TableID(other.ChatID, 0, 3), lang, 20*time.Second
					fmt.Fprintf(&sb, "──── %s: /stop with games on at tables 1 and 3\n%s\n", lang, golden.Show(tb.views.StopChoice(l, tab, other)))
				}
			}
		}
		rules := view.RulesText(l, first, 24*time.Hour, true)
		for _, p := range strings.Split(rules, "\n") {
			if strings.Contains(p, "⏳") {
				fmt.Fprintf(&sb, "════ %s: the rules at 24 hours a move, on time\n%s\n", lang, p)
			}
		}
	}
	golden.Check(t, "long", sb.String())
}
