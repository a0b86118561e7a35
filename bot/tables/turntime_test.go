package tables

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
)

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

// TestLobbyTurnTime: the creator cycles the time for a move through the
// lobby's choices (from the bot's default), anyone else is refused and
// nothing changes; a game with its own clocks offers no such button. The
// time reaches the people's timers, and the rules name it. (That a lobby
// offers only the buttons that work is view's:
// TestLobbyOffersOnlyWorkingButtons there.)
func TestLobbyTurnTime(t *testing.T) {
	tb := newTables(t, nil, clockAt(golden.Clock))
	ctx := context.Background()
	g := testGame(t, "trickchef")
	tab := lobbyOf(g, 0)
	press := func(user int64) error {
		return tb.lobby.OnLobby(ctx, tab, &txn.Change{}, callback.Data{Op: callback.Lobby, Table: tab.ID, GameNo: tab.GameNo, Args: []int{callback.LobbyTurn}}, &models.User{ID: user}, false)
	}
	// The bot's time for a move is its views' (the tables' Config says the
	// same).
	if got := tb.views.TurnTime(tab); got != tb.views.DefaultTurnTime() || got != time.Minute {
		t.Fatalf("a new table's time %v, want the bot's %v", got, tb.views.DefaultTurnTime())
	}
	if key, _ := refusal.Key(press(2)); key != "lobby.creator_only" || tab.TurnTime != 0 {
		t.Errorf("someone else's press: %q, time %v", key, tab.TurnTime)
	}
	var seen []time.Duration
	for range view.TurnChoices() {
		if err := press(1); err != nil {
			t.Fatal(err)
		}
		seen = append(seen, tab.TurnTime)
	}
	// From the default minute: 3 min, the long times, then round to 20 s
	// and 1 min.
	if want := []time.Duration{3 * time.Minute, time.Hour, 12 * time.Hour, 24 * time.Hour, 20 * time.Second, time.Minute}; !slices.Equal(seen, want) {
		t.Errorf("the presses gave %v, want %v", seen, want)
	}
	label := tb.views.Loc("ru").T("lobby.turn_button", "Time", view.TurnTimeText(tb.views.Loc("ru"), time.Minute))
	if m := tb.views.Group(tab); !hasButtonText(m, label) {
		t.Errorf("the lobby lacks %q: %+v", label, m.Keyboard)
	}
	ck := testGame(t, "chekharda")
	clocked := lobbyOf(ck, 0)
	if m := tb.views.Group(clocked); hasButtonData(m, callback.Data{Op: callback.Lobby, Table: clocked.ID, GameNo: clocked.GameNo, Args: []int{callback.LobbyTurn}}.String()) {
		t.Errorf("a game with its own clocks offers a time for a move")
	}

	// A game at 20 s a move: a person's timer, the deadline and the rules.
	tab.TurnTime = 20 * time.Second
	play, st := golden.Table(t, g, 3, 0, "", 9, nil)
	play.TurnTime = tab.TurnTime
	play.StopTimers()
	tb.moves.Schedule(play, g, st, false)
	seat := st.ToAct()[0]
	if due := play.Seats[seat].Due; !due.Equal(tb.now().Add(20 * time.Second)) {
		t.Errorf("the timer runs to %v, want 20 s from %v", due, tb.now())
	}
	l := tb.views.Loc("ru")
	if got, want := adapter.DeadlineText(l, tb.views.AdapterView(play), seat), " "+adapter.DeadlineLeft(l, 20*time.Second); got != want {
		t.Errorf("the deadline says %q, want %q", got, want)
	}
	rules := view.RulesText(l, g, play.TurnTime, true)
	if !strings.Contains(rules, view.TurnTimeText(l, 20*time.Second)) || !strings.Contains(rules, adapter.DeadlineLeft(l, 20*time.Second)) {
		t.Errorf("the rules do not name 20 s")
	}
	if strings.Contains(view.RulesText(l, g, time.Minute, true), view.TurnTimeText(l, 20*time.Second)+")") {
		t.Errorf("the rules at a minute name 20 s as the time")
	}
}
