package play

import (
	"strconv"
	"testing"
	"time"

	"github.com/trickchef/trickchef/cmd/games"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/results"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// testResults is the results role over no store: what a result must be
// to be recorded (Valid).
func testResults(t testing.TB) *results.Results {
	t.Helper()
	games := view.Games(games.All())
	return results.New(results.Params{Games: games, Translator: golden.Catalog(t), Log: zerolog.Nop(), Now: time.Now})
}

// TestResultOfLeaverAndAutopilot: a person who left is recorded last,
// marked, with score 0, under their own id; those who stayed are ranked
// among themselves; a person the bot made most moves for is unrated, one
// it made half of them for is rated.
func TestResultOfLeaverAndAutopilot(t *testing.T) {
	g := trickchef.Game()
	tab, st := golden.Table(t, g, 4, 0, "", 21, nil)
	golden.PlayRandom(t, g, tab, st, 100000, 3)
	if !st.Over() {
		t.Fatal("the game did not end")
	}
	// Seat 0 left (a robot finished for them); seat 1 was away for most of
	// their moves, seat 2 for exactly half.
	tab.Seats[0] = record.Seat{Name: "Робот 1", AI: "novice", Leaver: &record.Leaver{UserID: 1, Name: golden.Names[0]}}
	// (The log is what counts, not the engine's moves.)
	tab.Log = []record.Move{{Seat: 1, Auto: true}, {Seat: 2, Auto: true}, {Seat: 3}, {Seat: 1}, {Seat: 2}, {Seat: 3}, {Seat: 1, Auto: true},
		{Seat: 0}, {Seat: 0, Auto: true}, {Seat: 0, Auto: true}, {Seat: game.System, Auto: true}}
	r := ResultOf(tab, g, st, golden.Clock)
	if len(r.Seats) != 4 || !testResults(t).Valid(r) {
		t.Fatalf("seats %+v", r.Seats)
	}
	left := r.Seats[0]
	if left.Player != record.PersonPlayer(1) || left.Name != golden.Names[0] || !left.Left || left.Place != 4 || left.Score != 0 || left.Unrated {
		t.Errorf("the leaver: %+v", left)
	}
	if !r.Seats[1].Unrated || r.Seats[2].Unrated || r.Seats[3].Unrated || r.Seats[1].Left {
		t.Errorf("unrated marks: %+v", r.Seats)
	}
	// The others keep their order, counted among the three.
	placeOf := map[game.Seat]int{}
	for _, s := range adapter.Standings(st.Result()) {
		placeOf[s.Seat] = s.Place
	}
	for i := 1; i < 4; i++ {
		want := 1
		for j := 1; j < 4; j++ {
			if placeOf[game.Seat(j)] < placeOf[game.Seat(i)] {
				want++
			}
		}
		if r.Seats[i].Place != want || r.Seats[i].Place > 3 {
			t.Errorf("seat %d: place %d, want %d (engine places %v)", i, r.Seats[i].Place, want, placeOf)
		}
	}
}

// TestResultOfATable checks what a finished table records: ids, places
// from the standings, robots per level (one seat per level), options.
func TestResultOfATable(t *testing.T) {
	g := trickchef.Game()
	tab, st := golden.Table(t, g, 3, 2, "novice", 13, map[string]int{"removed": 2})
	golden.PlayRandom(t, g, tab, st, 100000, 2)
	tab.GameNo, tab.Started = 9, golden.Clock
	r := ResultOf(tab, g, st, golden.Clock.Add(time.Hour))
	if r.ID != tab.ID+":9:"+strconv.FormatUint(tab.Seed, 16) || r.Game != g.ID() || r.Chat != tab.ChatID || !r.Started.Equal(golden.Clock) {
		t.Errorf("result header %+v", r)
	}
	if r.Options != OptionsText(tab, g) || r.Options == "" {
		t.Errorf("options %q", r.Options)
	}
	all := adapter.Standings(st.Result())
	placeOf := map[game.Seat]int{}
	for _, s := range all {
		placeOf[s.Seat] = s.Place
	}
	if len(r.Seats) != 2 {
		t.Fatalf("seats %+v: want the person and one robot level", r.Seats)
	}
	for i := 0; i < 1; i++ {
		if r.Seats[i].Player != record.PersonPlayer(int64(i+1)) || r.Seats[i].Name != golden.Names[i] || r.Seats[i].Place != placeOf[game.Seat(i)] {
			t.Errorf("seat %d: %+v", i, r.Seats[i])
		}
	}
	robot := r.Seats[1]
	if robot.Player != "rnovice" || robot.Place != min(placeOf[1], placeOf[2]) {
		t.Errorf("robot seat %+v, places %d and %d", robot, placeOf[1], placeOf[2])
	}
	if !testResults(t).Valid(r) {
		t.Error("the result is not valid")
	}
}
