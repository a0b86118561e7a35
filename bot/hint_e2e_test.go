package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/game"
)

// TestHintInAGroupGame: the lobby offers hints, off; only the creator may
// turn them on. In the game Аня presses «💡 Подсказка» on her hand: the
// same message shows the advice with the advised button marked, the
// group's table names her, and at the end she is not rated while Борис
// is, and her private result says why.
func TestHintInAGroupGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Подсказки", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	off, on := h.T("hints.lobby_off"), h.T("hints.lobby_on")
	if _, ok := lobby.Button(off); !ok {
		t.Fatalf("the lobby does not offer hints, off: %+v", lobby.Keyboard)
	}
	v := h.Version(group)
	h.ExpectAnswer(b, lobby, mustData(t, lobby, off), h.T("lobby.creator_only"))
	if got := h.Version(group); got != v {
		t.Errorf("Борис's press changed the table: version %d → %d", v, got)
	}
	if _, err := a.Press(lobby, off); err != nil {
		t.Fatal(err)
	}
	lobby, err := group.WaitMessage(10*time.Second, hasButton(on))
	if err != nil {
		t.Fatalf("hints did not turn on: %v", err)
	}
	h.MustStartGame(a, lobby)

	hintBtn := h.T("hints.button")
	chat := a.PrivateChat()
	hand, err := chat.WaitMessage(10*time.Second, hasButton(hintBtn))
	if err != nil {
		t.Fatalf("no hint button on Аня's hand: %v", err)
	}
	v = h.Version(group)
	h.ExpectAnswer(b, lobby, mustData(t, hand, hintBtn), h.T("error.not_yours")) // pressed in the group
	if got := h.Version(group); got != v {
		t.Errorf("Борис's press of Аня's hint changed the table: version %d → %d", v, got)
	}
	if ans, err := a.Press(hand, hintBtn); err != nil || ans.Text != h.T("hints.shown") {
		t.Fatalf("hint: %+v, %v", ans, err)
	}
	advised, err := chat.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		_, still := m.Button(hintBtn)
		return m.ID == hand.ID && !still && strings.Contains(m.Text, "💡")
	})
	if err != nil {
		t.Fatalf("the hand does not show the advice: %v", err)
	}
	marked := 0
	for _, bt := range advised.Buttons() {
		if strings.HasPrefix(bt.Text, "💡 ") && strings.HasPrefix(bt.CallbackData, "a:") {
			marked++
		}
	}
	if marked != 1 {
		t.Errorf("%d advised buttons marked, want 1: %+v", marked, advised.Keyboard)
	}
	if _, err := group.WaitMessage(10*time.Second, contains(h.Shown("hints.taken", "Names", "Аня", "Count", 1))); err != nil {
		t.Errorf("the group's table does not say Аня took a hint: %v", err)
	}

	h.MustPlayToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute)
	checkCountedNotRated(t, h, group, a, b, "hints.unrated")
}

// TestHintButtonOnlyWhenOn: a hand shows «💡 Подсказка» only at a table
// with hints on and only while the seat may act; a hint taken shows until
// the next move at the table, then the button is back.
func TestHintButtonOnlyWhenOn(t *testing.T) {
	g := trickchef.Game()
	cat := bottest.Catalog(t)
	l := adapter.NewLoc(cat, "ru")
	b := golden.Views(t, g)
	tab, st := golden.Table(t, g, 3, 0, "", 7, nil)
	hasHint := func(seat int) bool {
		m, err := b.Seat(tab, seat)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range m.Keyboard {
			for _, bt := range row {
				if bt.Text == l.T("hints.button") {
					return true
				}
			}
		}
		return false
	}
	toAct := int(st.ToAct()[0])
	if hasHint(toAct) {
		t.Fatal("a hint button with hints off")
	}
	tab.Hints = true
	if !hasHint(toAct) || hasHint((toAct+1)%3) {
		t.Fatal("with hints on, the button must be on the hand to act, and only there")
	}
	tab.Seats[toAct].Hint = &record.SeatHint{At: len(tab.Log), Action: st.Legal(game.Seat(toAct))[0], Why: "💡 why"}
	m, err := b.Seat(tab, toAct)
	if err != nil {
		t.Fatal(err)
	}
	if hasHint(toAct) || !strings.Contains(m.Text, "💡 why") {
		t.Errorf("a hint taken: the advice must show instead of the button:\n%s", golden.Show(m))
	}
	tab.Log = append(tab.Log, record.Move{Seat: game.Seat(toAct)})
	if !hasHint(toAct) {
		t.Error("after a move the old advice must go and the button come back")
	}
}
