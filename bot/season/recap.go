package season

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/trickchef/trickchef/store"
)

// Recap is a month summed up, one entry per game played in it.
type Recap struct {
	Month Month
	Games []GameRecap // most played first, then by game id
}

// GameRecap is one game's month.
type GameRecap struct {
	Game   string
	Played int // games of it that ended in the month
	// Standings are the month's lines, robots included.
	Standings []Line
	// Podium are the people placed first to third, placed among people
	// only (Place renumbered): robots are placed in the standings but are
	// never champions, so the best placed person is. Shared places may
	// put more than three on it, or nobody when no person has MinGames
	// games.
	Podium []Line
	// MostGames are the people who played the most games of it (all who
	// share the most).
	MostGames []Line
	// Best is the month's best single game, nil when no person finished
	// one.
	Best *Best
	// Rise is the biggest rise, nil when no placed person rose.
	Rise *Rise
}

// Champions are the podium's first place: one person, or several sharing
// it; none when nobody was placed.
func (g GameRecap) Champions() []Line {
	var out []Line
	for _, l := range g.Podium {
		if l.Place == 1 {
			out = append(out, l)
		}
	}
	return out
}

// Best is the best single game: the highest score a person made in one
// game that month, played to its end by themselves (not Left, not
// Unrated). The earliest such game wins a tie. Scores of one game are
// comparable (it is /stats' «best score»); tables of different sizes score
// alike enough in the games we have.
type Best struct {
	Player, Name string
	Score        int
	Place        int    // their place in that game
	Result       string // the result's id
	Ended        time.Time
}

// Rise is the biggest rise: the placed person whose season score rose the
// most from the month before (from 50, the middle, when they played none
// of it then, so a newcomer's good month counts too).
type Rise struct {
	Line         // their line this month
	From float64 // their season score the month before
}

// By is how much they rose.
func (r Rise) By() float64 { return r.Score - r.From }

// MonthRecap sums up month m (in loc) from results, which must hold the
// month before too (for the rises). False when nothing was played in m:
// such a month has no recap.
func MonthRecap(results []store.Result, m Month, loc *time.Location) (Recap, bool) {
	played := map[string][]store.Result{}
	before := map[string][]store.Result{}
	for _, r := range results {
		switch Of(r.Ended, loc) {
		case m:
			played[r.Game] = append(played[r.Game], r)
		case m.Prev():
			before[r.Game] = append(before[r.Game], r)
		}
	}
	if len(played) == 0 {
		return Recap{}, false
	}
	rc := Recap{Month: m}
	for game, rs := range played {
		g := GameRecap{Game: game, Played: len(rs), Standings: standings(rs)}
		g.Podium = podium(g.Standings)
		g.MostGames = mostGames(g.Standings)
		g.Best = best(rs)
		g.Rise = rise(g.Standings, standings(before[game]))
		rc.Games = append(rc.Games, g)
	}
	slices.SortFunc(rc.Games, func(a, b GameRecap) int {
		if c := cmp.Compare(b.Played, a.Played); c != 0 {
			return c
		}
		return strings.Compare(a.Game, b.Game)
	})
	return rc, true
}

// podium places the placed people among themselves and keeps places 1–3.
func podium(lines []Line) []Line {
	var people []Line
	for _, l := range lines {
		if !l.Robot && l.Placed() {
			people = append(people, l)
		}
	}
	var out []Line
	for i := range people {
		if i > 0 && measure(people[i-1], people[i]) == 0 {
			people[i].Place = people[i-1].Place
		} else {
			people[i].Place = i + 1
		}
		if people[i].Place > 3 {
			break
		}
		out = append(out, people[i])
	}
	return out
}

func mostGames(lines []Line) []Line {
	most := 0
	for _, l := range lines {
		if !l.Robot {
			most = max(most, l.Games)
		}
	}
	var out []Line
	for _, l := range lines {
		if !l.Robot && l.Games == most && most > 0 {
			out = append(out, l)
		}
	}
	return out
}

func best(results []store.Result) *Best {
	var b *Best
	for _, r := range results {
		for _, s := range r.Seats {
			if s.Player == "" || isRobot(s.Player) || s.Left || s.Unrated {
				continue
			}
			better := b == nil || s.Score > b.Score ||
				s.Score == b.Score && (r.Ended.Before(b.Ended) || r.Ended.Equal(b.Ended) && r.ID < b.Result)
			if better {
				b = &Best{Player: s.Player, Name: s.Name, Score: s.Score, Place: s.Place, Result: r.ID, Ended: r.Ended}
			}
		}
	}
	return b
}

func rise(now, before []Line) *Rise {
	var r *Rise
	for _, l := range now { // best first: on an equal rise the better placed
		if l.Robot || !l.Placed() {
			continue
		}
		from := Find(before, l.Player).Score
		if l.Score > from && (r == nil || l.Score-from > r.By()) {
			r = &Rise{Line: l, From: from}
		}
	}
	return r
}
