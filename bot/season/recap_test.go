package season

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
)

func ids(lines []Line) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Player)
	}
	return out
}

func TestMonthRecap(t *testing.T) {
	results := []store.Result{
		// October: u2 did badly, u1 well.
		game("o1", "g", "2026-10-05T18:00:00Z", "u1:1", "u2:3", "r2:2"),
		game("o2", "g", "2026-10-06T18:00:00Z", "u1:1", "u2:3", "r2:2"),
		game("o3", "g", "2026-10-07T18:00:00Z", "u1:1", "u2:3", "r2:2"),
		// November, game g: the robot wins most; u2 rises.
		game("n1", "g", "2026-11-02T18:00:00Z", "r2:1:90", "u2:2:80", "u1:3:10"),
		game("n2", "g", "2026-11-03T18:00:00Z", "r2:1:95", "u2:2:70", "u1:3:20", "u3:4:5"),
		game("n3", "g", "2026-11-04T18:00:00Z", "u2:1:60", "r2:2:50", "u1:3:99:left"),    // a leaver's score is no best game
		game("n4", "g", "2026-11-05T18:00:00Z", "u3:1:85", "u2:2:80", "u1:3:85:unrated"), // nor the bot's for a person
		game("n5", "g", "2026-11-06T18:00:00Z", "u3:1:85", "r2:2", "u4:3"),               // 85 again, later
		game("n6", "g", "2026-11-07T18:00:00Z", "r2:1:97", "u3:2", "u4:3"),
		// November, game h: nobody placed yet.
		game("h1", "h", "2026-11-09T18:00:00Z", "u5:1:3", "u6:2:1"),
	}
	rc, ok := MonthRecap(results, nov, time.UTC)
	if !ok || rc.Month != nov || len(rc.Games) != 2 || rc.Games[0].Game != "g" || rc.Games[1].Game != "h" {
		t.Fatalf("MonthRecap = %+v, %v; want g (6 games) then h (1)", rc, ok)
	}
	g := rc.Games[0]
	if g.Played != 6 {
		t.Errorf("played %d, want 6", g.Played)
	}
	// Standings: r2 first, then u2 and u3; u1 (four games, all last) 4th.
	if got := ids(g.Standings); len(got) < 4 || got[0] != "r2" {
		t.Errorf("standings %v, want the robot first", got)
	}
	// The podium is people only, placed among themselves.
	if got := ids(g.Podium); len(got) != 3 || got[0] != "u2" || got[1] != "u3" || got[2] != "u1" || g.Podium[0].Place != 1 || g.Podium[2].Place != 3 {
		t.Errorf("podium %v (%+v), want u2, u3, u1 placed 1–3", got, g.Podium)
	}
	if c := g.Champions(); len(c) != 1 || c[0].Player != "u2" {
		t.Errorf("champions %+v, want u2", c)
	}
	if got := ids(g.MostGames); len(got) != 2 || got[0] != "u2" || got[1] != "u3" {
		t.Errorf("most games %v, want u2 and u3 (four each; u1's game for the bot does not count)", got)
	}
	if g.Best == nil || g.Best.Player != "u3" || g.Best.Score != 85 || g.Best.Result != "n4" || g.Best.Place != 1 {
		t.Errorf("best game %+v, want u3's 85 in n4 (the earlier one)", g.Best)
	}
	// u2 went from (0 + 1.5)/6 = 25 in October to their November score.
	u2 := lineOf(g.Standings, "u2")
	if g.Rise == nil || g.Rise.Player != "u2" || g.Rise.From != 25 || g.Rise.By() != u2.Score-25 {
		t.Errorf("rise %+v, want u2 from 25 to %.1f", g.Rise, u2.Score)
	}

	h := rc.Games[1]
	if len(h.Podium) != 0 || h.Champions() != nil || h.Rise != nil {
		t.Errorf("h: podium %+v, rise %+v; want nobody placed", h.Podium, h.Rise)
	}
	if got := ids(h.MostGames); len(got) != 2 {
		t.Errorf("h: most games %v, want both (one each)", got)
	}
	if h.Best == nil || h.Best.Player != "u5" {
		t.Errorf("h: best %+v, want u5's 3", h.Best)
	}
}

func TestMonthRecapNothingPlayed(t *testing.T) {
	results := []store.Result{game("o1", "g", "2026-10-05T18:00:00Z", "u1:1", "u2:2")}
	if rc, ok := MonthRecap(results, nov, time.UTC); ok {
		t.Errorf("a month with no games: %+v", rc)
	}
	if _, ok := MonthRecap(nil, nov, time.UTC); ok {
		t.Error("no results: a recap")
	}
}

// TestChampionIsAPerson: a shared first place among people makes two
// champions; robots above them change nothing.
func TestChampionIsAPerson(t *testing.T) {
	var rs []store.Result
	for i := range 3 {
		rs = append(rs, game(string(rune('a'+i)), "g", "2026-11-10T10:00:00Z", "r5:1", "u1:2", "u2:2", "u3:4"))
	}
	rc, _ := MonthRecap(rs, nov, time.UTC)
	c := rc.Games[0].Champions()
	if len(c) != 2 || c[0].Player != "u1" || c[1].Player != "u2" {
		t.Errorf("champions %+v, want u1 and u2 sharing", c)
	}
	if p := rc.Games[0].Podium; len(p) != 3 || p[2].Player != "u3" || p[2].Place != 3 {
		t.Errorf("podium %+v, want u3 3rd", p)
	}
}
