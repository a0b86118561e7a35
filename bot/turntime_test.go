package bot

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
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
// time reaches the people's timers, and the rules name it.
func TestLobbyTurnTime(t *testing.T) {
	b, _ := resultsBot(t, nil)
	ctx := context.Background()
	g := testGame(t, "trickchef")
	tab := lobbyOf(g, 0)
	press := func(user int64) error {
		return b.onLobby(ctx, tab, &change{}, callback.Data{Op: 'l', Table: tab.ID, GameNo: tab.GameNo, Args: []int{lobbyTurn}}, &models.User{ID: user}, false)
	}
	if got := b.turnTime(tab); got != b.cfg.TurnTimeout {
		t.Fatalf("a new table's time %v, want the bot's %v", got, b.cfg.TurnTimeout)
	}
	if key, _ := RefusalKey(press(2)); key != "lobby.creator_only" || tab.TurnTime != 0 {
		t.Errorf("someone else's press: %q, time %v", key, tab.TurnTime)
	}
	var seen []time.Duration
	for range turnChoices {
		if err := press(1); err != nil {
			t.Fatal(err)
		}
		seen = append(seen, tab.TurnTime)
	}
	// From the default minute: 3 min, then round to 20 s and 1 min.
	if want := []time.Duration{3 * time.Minute, 20 * time.Second, time.Minute}; !slices.Equal(seen, want) {
		t.Errorf("the presses gave %v, want %v", seen, want)
	}
	label := b.loc("ru").T("lobby.turn_button", "Time", TurnTimeText(b.loc("ru"), time.Minute))
	if m := b.GroupMessage(tab); !hasButtonText(m, label) {
		t.Errorf("the lobby lacks %q: %+v", label, m.Keyboard)
	}
	ck := testGame(t, "chekharda")
	clocked := lobbyOf(ck, 0)
	if m := b.GroupMessage(clocked); hasButtonData(m, callback.Data{Op: 'l', Table: clocked.ID, GameNo: clocked.GameNo, Args: []int{lobbyTurn}}.String()) {
		t.Errorf("a game with its own clocks offers a time for a move")
	}

	// A game at 20 s a move: a person's timer, the deadline and the rules.
	tab.TurnTime = 20 * time.Second
	play, st := fixtures.Table(t, g, 3, 0, "", 9, nil)
	play.TurnTime = tab.TurnTime
	play.StopTimers()
	b.setClock(func() time.Time { return fixtures.Clock })
	b.schedule(play, g, st, false)
	seat := st.ToAct()[0]
	if due := play.Seats[seat].Due; !due.Equal(b.now().Add(20 * time.Second)) {
		t.Errorf("the timer runs to %v, want 20 s from %v", due, b.now())
	}
	l := b.loc("ru")
	if got, want := adapter.DeadlineText(l, b.adapterView(play), seat), " "+adapter.DeadlineLeft(l, 20*time.Second); got != want {
		t.Errorf("the deadline says %q, want %q", got, want)
	}
	rules := rulesText(l, g, play.TurnTime)
	if !strings.Contains(rules, TurnTimeText(l, 20*time.Second)) || !strings.Contains(rules, adapter.DeadlineLeft(l, 20*time.Second)) {
		t.Errorf("the rules do not name 20 s")
	}
	if strings.Contains(rulesText(l, g, time.Minute), TurnTimeText(l, 20*time.Second)+")") {
		t.Errorf("the rules at a minute name 20 s as the time")
	}
}

// TestLobbyOffersOnlyWorkingButtons: a full table offers neither «join»
// nor «add a robot», a table without robots no «remove a robot».
func TestLobbyOffersOnlyWorkingButtons(t *testing.T) {
	b, _ := resultsBot(t, nil)
	g := testGame(t, "trickchef")
	_, hi := g.SeatRange()
	btn := func(tab *record.Table, op int) bool {
		return hasButtonData(b.GroupMessage(tab), callback.Data{Op: 'l', Table: tab.ID, GameNo: tab.GameNo, Args: []int{op}}.String())
	}
	empty := lobbyOf(g, 0)
	if !btn(empty, lobbyJoin) || !btn(empty, lobbyAddAI) || btn(empty, lobbyKick) {
		t.Errorf("a lobby of one person: join %v, add %v, remove %v", btn(empty, lobbyJoin), btn(empty, lobbyAddAI), btn(empty, lobbyKick))
	}
	full := lobbyOf(g, hi-1)
	if btn(full, lobbyJoin) || btn(full, lobbyAddAI) || !btn(full, lobbyKick) || !btn(full, lobbyLeave) {
		t.Errorf("a full lobby: join %v, add %v, remove %v, leave %v", btn(full, lobbyJoin), btn(full, lobbyAddAI), btn(full, lobbyKick), btn(full, lobbyLeave))
	}
}

func hasButtonText(m adapter.Message, text string) bool {
	for _, row := range m.Keyboard {
		for _, bt := range row {
			if bt.Text == text {
				return true
			}
		}
	}
	return false
}

func hasButtonData(m adapter.Message, data string) bool {
	for _, row := range m.Keyboard {
		for _, bt := range row {
			if bt.Data == data {
				return true
			}
		}
	}
	return false
}
