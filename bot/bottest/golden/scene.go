package golden

import (
	"encoding/json"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// SceneJSON is a web table scene as indented JSON, as the golden files of
// scenes show it.
func SceneJSON(t testing.TB, sc adapter.Scene) string {
	t.Helper()
	data, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// CheckStoppedScene stops the table's game (as /stop does) and checks that
// every viewer's scene of game g says so and offers nothing: no turn, no
// prompt, no choice, no card to press.
func CheckStoppedScene(t testing.TB, g adapter.Game, l adapter.Loc, tab *record.Table, st game.State) {
	t.Helper()
	wg, ok := g.(adapter.WebGame)
	if !ok {
		t.Fatalf("%s draws no web table scene", g.ID())
	}
	tab.Phase = record.PhaseIdle
	tab.Event = &record.Event{Key: "event.stopped", Seat: 0} // the player at seat 0 stopped it
	want := adapter.PlainText(l.T("event.stopped", "Name", adapter.SeatName(adapter.View(tab), 0)))
	for seat := adapter.Spectator; seat < len(tab.Seats); seat++ {
		sc := wg.Scene(l, adapter.View(tab), st, seat)
		if sc.Status != want || len(sc.Choices) > 0 || sc.Prompt != "" {
			t.Fatalf("seat %d: a stopped game's scene does not say so, or offers something:\n%s", seat, SceneJSON(t, sc))
		}
		for _, s := range sc.Seats {
			if s.Turn {
				t.Fatalf("seat %d: a turn in a stopped game:\n%s", seat, SceneJSON(t, sc))
			}
		}
		var cards []adapter.Card
		cards = append(cards, sc.Hand...)
		for _, p := range sc.Center {
			cards = append(cards, p.Cards...)
		}
		for _, s := range sc.Seats {
			cards = append(cards, s.Cards...)
		}
		for _, c := range cards {
			if c.Act != "" {
				t.Fatalf("seat %d: a card to press in a stopped game:\n%s", seat, SceneJSON(t, sc))
			}
		}
	}
}
