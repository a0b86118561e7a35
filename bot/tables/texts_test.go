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
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
)

// TestTimeoutNamesEveryoneDue: people whose time runs out in one change
// are all named by the table, not only the last of them. The timers fire
// as the tables' clock fires them: one change of the stored table.
func TestTimeoutNamesEveryoneDue(t *testing.T) {
	st := testBolt(t)
	tb := newTables(t, st, clockAt(golden.Clock))
	ctx := context.Background()
	g := testGame(t, "sausages") // setup: everyone places a card at once
	tab, gs := golden.Table(t, g, 3, 0, "", 5, nil)
	acting := gs.ToAct()
	if len(acting) != 3 {
		t.Fatalf("%d seats act at the start, want all 3", len(acting))
	}
	for i := range tab.Seats {
		tab.Seats[i].Due = golden.Clock.Add(-time.Second)
	}
	data, err := tab.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Commit(ctx, tab.ID, store.Change{Data: data}); err != nil {
		t.Fatal(err)
	}
	if err := tb.clock.Fire(ctx, tab.ID); err != nil {
		t.Fatal(err)
	}
	if tab, _, err = tb.tx.Load(ctx, tab.ID); err != nil {
		t.Fatal(err)
	}
	e := tab.Event
	if e == nil || e.Key != "event.timeout" {
		t.Fatalf("event %+v", e)
	}
	named := append([]int{e.Seat}, e.Also...)
	slices.Sort(named)
	if !slices.Equal(named, []int{0, 1, 2}) {
		t.Errorf("the table names seats %v, want all three", named)
	}
	l := tb.views.Loc("ru")
	if got, want := adapter.EventLine(l, adapter.View(tab)), l.T("event.timeout", "Name", adapter.SeatNames(adapter.View(tab), []game.Seat{game.Seat(e.Seat), game.Seat(e.Also[0]), game.Seat(e.Also[1])})); got != want {
		t.Errorf("event line %q, want %q", got, want)
	}
}

// TestFinishedTableDropsTheTimeout: a timeout notice stays while the game
// goes on and is gone from the finished table.
func TestFinishedTableDropsTheTimeout(t *testing.T) {
	tb := newTables(t, nil, nil)
	g := testGame(t, "trickchef")
	tab, st := golden.Table(t, g, 3, 0, "", 8, nil)
	for !st.Over() {
		tab.Event = &record.Event{Key: "event.timeout", Seat: 1}
		seat := st.ToAct()[0]
		if err := tb.moves.Apply(tab, &txn.Change{}, g, st, seat, st.Legal(seat)[0], true); err != nil {
			t.Fatal(err)
		}
		if !st.Over() && tab.Event == nil {
			t.Fatal("a move mid-game dropped the timeout notice")
		}
	}
	if tab.Event != nil || tab.Phase != record.PhaseIdle {
		t.Errorf("the finished table: event %+v, phase %s", tab.Event, tab.Phase)
	}
}

// TestStopNamesWhoStopped: the stopped table names who stopped the game,
// a seated player by their seat, an admin without one by name.
func TestStopNamesWhoStopped(t *testing.T) {
	tb := newTables(t, nil, nil)
	g := testGame(t, "trickchef")
	for _, who := range []models.User{{ID: 2, FirstName: "Серёжа"}, {ID: 99, FirstName: "Админ"}} {
		tab, _ := golden.Table(t, g, 3, 0, "", 8, nil)
		tab.StopAsked = who.ID
		if err := tb.lobby.OnStop(tab, &txn.Change{}, callback.Data{Op: callback.Stop, Table: tab.ID, GameNo: tab.GameNo, Args: []int{1}}, &who, false); err != nil {
			t.Fatal(err)
		}
		l := tb.views.Loc("ru")
		want := l.T("event.stopped", "Name", "Админ")
		if who.ID == 2 {
			want = l.T("event.stopped", "Name", adapter.SeatName(adapter.View(tab), 1))
		}
		if got := tb.views.Group(tab).Text; !containsLine(got, want) {
			t.Errorf("stopped by %s: the table says %q, want a line %q", who.FirstName, got, want)
		}
	}
}

// TestSmallTexts: /lang's refusal names only who may change the language,
// the /start greeting offers practice and to add the bot to a group,
// /forgetme in a group links to the private chat.
func TestSmallTexts(t *testing.T) {
	tb := newTables(t, nil, nil)
	if lobby.LangRefusal(&record.Table{}) != "lang.not_allowed_admin" || lobby.LangRefusal(&record.Table{Creator: 5}) != "lang.not_allowed" {
		t.Error("the /lang refusal names a creator where there is none, or not where there is one")
	}
	g := tb.menus.Greeting(tb.views.Loc("ru"), "5")
	if add := g.Keyboard[len(g.Keyboard)-1]; len(add) != 1 || add[0].URL != "https://t.me/"+tb.views.Username()+"?startgroup=1" {
		t.Errorf("greeting keyboard %+v", g.Keyboard)
	}
	if !hasButtonData(g, callback.Data{Op: callback.Open, Table: "5", Word: "trickchef"}.String()) {
		t.Errorf("the greeting offers no practice: %+v", g.Keyboard)
	}
	tab := &record.Table{ID: "-100123", ChatID: -100123, Lang: "ru"}
	ch := &txn.Change{}
	forget := tb.standing.GroupCommand(t.Context(), txn.Request{Name: "forgetme", Msg: &models.Message{From: &models.User{ID: 1}}})
	if err := forget(tab, ch); err != nil {
		t.Fatal(err)
	}
	if len(ch.Outbox) != 1 || len(ch.Outbox[0].Keyboard) != 1 || ch.Outbox[0].Keyboard[0][0].URL != "https://t.me/"+tb.views.Username() {
		t.Errorf("/forgetme in a group: %+v", ch.Outbox)
	}
}

// TestLobbyWhileChoosing: /newgame naming no game while a lobby whose
// game is still to be chosen is open says the word is unknown and changes
// nothing. (That such a lobby lists who sits there and offers «join» is
// view's: TestLobbyWhileChoosing there.)
func TestLobbyWhileChoosing(t *testing.T) {
	tb := newTables(t, nil, nil)
	tab := &record.Table{ID: "-100123", ChatID: -100123, Title: "Друзья", Lang: "ru", Phase: record.PhaseLobby, GameNo: 2, Creator: 1,
		Seats: []record.Seat{{UserID: 1, Name: "Оля"}, {UserID: 2, Name: "Серёжа"}}}
	l := tb.views.Loc("ru")
	ch := &txn.Change{}
	msg := &models.Message{From: &models.User{ID: 2, FirstName: "Серёжа"}, Chat: models.Chat{ID: tab.ChatID}}
	if err := tb.lobby.NewGame(t.Context(), tab, ch, msg, []string{"покер"}); err != nil {
		t.Fatal(err)
	}
	if len(ch.Outbox) != 1 || !strings.HasPrefix(ch.Outbox[0].Text, l.T("newgame.unknown_word", "Word", "покер")+"\n") {
		t.Errorf("/newgame покер while a lobby is open: %+v", ch.Outbox)
	}
	if tab.Phase != record.PhaseLobby || tab.GameID != "" || len(tab.Seats) != 2 || tab.GameNo != 2 {
		t.Errorf("the lobby changed: %+v", tab)
	}
}
