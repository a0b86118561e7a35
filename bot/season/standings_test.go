package season

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
)

var nov = Month{2026, time.November}

// game builds a result: seats "player:place[:score][:left|:unrated]".
func game(id, g, ended string, seats ...string) store.Result {
	r := store.Result{ID: id, Game: g, Chat: -1, Ended: utc(ended)}
	for _, s := range seats {
		f := strings.Split(s, ":")
		seat := store.ResultSeat{Player: f[0], Name: strings.ToUpper(f[0])}
		seat.Place, _ = strconv.Atoi(f[1])
		for _, x := range f[2:] {
			switch x {
			case "left":
				seat.Left = true
			case "unrated":
				seat.Unrated = true
			default:
				seat.Score, _ = strconv.Atoi(x)
			}
		}
		r.Seats = append(r.Seats, seat)
	}
	return r
}

func TestPlaceScore(t *testing.T) {
	tests := []struct {
		places []int
		want   []float64
	}{
		{[]int{1, 2, 3, 4}, []float64{1, 2. / 3, 1. / 3, 0}},
		{[]int{2, 1, 3}, []float64{.5, 1, 0}},
		{[]int{1, 2}, []float64{1, 0}},
		{[]int{1, 2, 2, 4}, []float64{1, .5, .5, 0}},
		{[]int{1, 1, 3}, []float64{.75, .75, 0}},
		{[]int{1, 1}, []float64{.5, .5}},
		{[]int{1, 2, 4}, []float64{1, 2. / 3, 0}},                 // a robot of a level seated twice: the 3rd not recorded
		{[]int{1, 2, 3, 3}, []float64{1, 2. / 3, 1. / 6, 1. / 6}}, // two who left share the last place
	}
	for _, tc := range tests {
		seats := make([]store.ResultSeat, len(tc.places))
		for i, p := range tc.places {
			seats[i] = store.ResultSeat{Player: fmt.Sprint("u", i), Place: p}
		}
		for i := range seats {
			q, ok := placeScore(seats, i)
			if got := float64(q) / unit; !ok || got-tc.want[i] > 1e-12 || tc.want[i]-got > 1e-12 {
				t.Errorf("places %v: seat %d scores %v, want %v", tc.places, i, got, tc.want[i])
			}
		}
	}
	if _, ok := placeScore([]store.ResultSeat{{Player: "u1", Place: 1}}, 0); ok {
		t.Error("a table of one has a place score")
	}
}

func lineOf(lines []Line, player string) Line {
	for _, l := range lines {
		if l.Player == player {
			return l
		}
	}
	return Line{}
}

func TestStandings(t *testing.T) {
	msk := time.FixedZone("MSK", 3*3600)
	results := []store.Result{
		game("1", "g", "2026-11-02T18:00:00Z", "u1:1", "u2:2", "r2:3", "u3:4"),
		game("2", "g", "2026-11-09T18:00:00Z", "u1:1", "u2:2", "u3:3"),
		game("3", "g", "2026-11-16T18:00:00Z", "u1:1", "u3:2", "u2:3", "r2:4"),
		game("4", "g", "2026-11-23T18:00:00Z", "u2:1", "u4:2", "u5:3:unrated"),
		game("5", "g", "2026-11-24T18:00:00Z", "u4:1", "u2:2", "r2:3", "u6:4:left"),
		game("6", "g", "2026-11-25T18:00:00Z", "u2:1", "r2:2", ":3"), // a forgotten player
		game("other game", "h", "2026-11-25T18:00:00Z", "u1:2", "u7:1"),
		game("October", "g", "2026-10-31T20:59:59Z", "u1:1", "u7:2"),        // 23:59:59 in Moscow
		game("December", "g", "2026-11-30T21:00:00Z", "u1:1", "u7:2"),       // 00:00 on 1 December in Moscow
		game("late in Moscow", "g", "2026-11-30T20:59:59Z", "u4:1", "u2:2"), // 23:59:59 on 30 November
	}
	lines := Standings(results, "g", nov, msk)
	var got []string
	for _, l := range lines {
		got = append(got, fmt.Sprintf("%d %s %d/%d %.1f need %d", l.Place, l.Player, l.Games, l.Wins, l.Score, l.Need))
	}
	want := []string{
		"1 u1 3/3 75.0 need 0", // 1, 1, 1 → (3 + 1.5)/(3 + 3)
		"2 u4 3/2 66.7 need 0", // ½ (2nd of 3: u5's seat counts, not u5's game), 1, 1 (23:59:59 in Moscow)
		"3 u2 7/2 56.7 need 0", // ⅔, ½, ⅓, 1, ⅔, 1 (a forgotten player's seat counts), 0
		"4 r2 4/0 38.1 need 0", // robots are placed
		"5 u3 3/0 36.1 need 0",
		"0 u6 1/0 37.5 need 2", // left: last
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("standings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if l := lineOf(lines, "r2"); !l.Robot || l.Name != "R2" {
		t.Errorf("r2: %+v, want a robot", l)
	}
	// The sender's own line, placed or not.
	if l := Find(lines, "u6"); l.Games != 1 || l.Need != 2 || l.Placed() {
		t.Errorf("Find(u6) = %+v", l)
	}
	if l := Find(lines, "u5"); l.Games != 0 || l.Need != MinGames || l.Score != 50 || l.Placed() || l.Robot {
		t.Errorf("Find(u5), who played only for the bot = %+v, want no games, 50, %d to go", l, MinGames)
	}
}

func TestStandingsTiesAndNames(t *testing.T) {
	results := []store.Result{
		game("1", "g", "2026-11-02T18:00:00Z", "u2:1", "u1:2"),
		game("2", "g", "2026-11-03T18:00:00Z", "u1:1", "u2:2"),
		game("3", "g", "2026-11-04T18:00:00Z", "u2:1", "u1:1", "u3:3"),
		game("4", "g", "2026-11-05T18:00:00Z", "u1:1", "u2:1", "u3:3"),
	}
	results[3].Seats[0].Name = "Аня" // renamed in the latest game, listed first
	results[0].Seats[1].Name = "Anna"
	lines := Standings(results, "g", nov, time.UTC)
	if len(lines) != 3 || lines[0].Player != "u1" || lines[1].Player != "u2" || lines[0].Place != 1 || lines[1].Place != 1 || lines[2].Place != 0 {
		t.Errorf("lines %+v, want u1 and u2 sharing 1st (in id order), u3 not placed", lines)
	}
	if lines[0].Name != "Аня" {
		t.Errorf("u1's name %q, want the latest game's", lines[0].Name)
	}

	// Equal scores: more games first. a: 1, 0, ½ → (1.5 + 1.5)/6; b: 1, 0,
	// 1, 0, ½ → (2.5 + 1.5)/8: both 50.
	var rs []store.Result
	for i, p := range []string{"ua:1", "ua:2", "ua:1", "ub:1", "ub:2", "ub:1", "ub:2", "ub:1"} {
		other := "r1:2"
		switch {
		case p == "ua:2" || p == "ub:2":
			other = "r1:1"
		case i == 2 || i == 7:
			other = "r1:1" // shared first
		}
		rs = append(rs, game(fmt.Sprint(i), "g", "2026-11-10T10:00:00Z", p, other))
	}
	lines = Standings(rs, "g", nov, time.UTC)
	a, b := lineOf(lines, "ua"), lineOf(lines, "ub")
	if a.Score != 50 || b.Score != 50 || a.Place != b.Place+1 {
		t.Errorf("a %+v, b %+v; want both 50, b (5 games) placed just before a (3)", a, b)
	}
}
