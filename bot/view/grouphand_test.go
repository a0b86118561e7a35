package view

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/locales"
)

// TestMyHandButton: «🖐 Мои карты» is under a running quick game's table in
// a group, in every game, while the server knows ephemeral messages; not
// under a lobby, a finished game, a long game or a practice table, nor on
// a server that does not know them. The hand it shows is the private one
// without the «Стол» button, which Telegram allows in private chats only.
func TestMyHandButton(t *testing.T) {
	on := true
	r := New(Config{Username: "trickchefbot", TurnTimeout: time.Minute, DefaultLang: locales.Default,
		WebAppURL: "https://example.org/app", GroupHands: func() bool { return on }},
		testGames(), testCatalog(t), func() time.Time { return testClock }, zerolog.Nop())
	for _, g := range testGames() {
		tab := playingTable(t, g)
		data := callback.Data{Op: callback.MyHand, Table: tab.ID, GameNo: 1}.String()
		if !hasButtonData(r.Group(tab), data) {
			t.Errorf("%s: no «🖐 Мои карты» under the running table", g.ID())
		}
		hand, err := r.HandInGroup().GroupSeat(tab, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range hand.Keyboard {
			for _, bt := range row {
				if bt.WebApp != "" {
					t.Errorf("%s: the hand in the group carries a Mini App button %q", g.ID(), bt.Text)
				}
			}
		}
		for name, change := range map[string]func(*record.Table){
			"a finished game": func(t *record.Table) { t.Phase = record.PhaseIdle },
			"a long game":     func(t *record.Table) { t.TurnTime = 24 * time.Hour },
			"a practice table": func(t *record.Table) {
				t.ChatID, t.ID = 1, "1"
			},
			"a table of robots": func(t *record.Table) {
				for i := range t.Seats {
					t.Seats[i].UserID, t.Seats[i].AI = 0, "pro"
				}
			},
		} {
			if name == "a long game" && !HasTurnTime(g) {
				continue // a real-time game has no time for a move, so no long game
			}
			other := *tab
			other.Seats = append([]record.Seat(nil), tab.Seats...)
			change(&other)
			if r.HandInGroup().GroupHands(&other) {
				t.Errorf("%s: %s offers the hand in the group", g.ID(), name)
			}
		}
		on = false
		if hasButtonData(r.Group(tab), data) {
			t.Errorf("%s: «🖐 Мои карты» offered on a server that does not know ephemeral messages", g.ID())
		}
		on = true
	}
}
