package season

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/trickchef/trickchef/store"
)

// The season score. An arena's score (points per game, summed) rewards
// whoever plays most; a rating rewards skill but barely moves in a month
// and starts everyone from the group's history. A month among friends
// should be won by playing well, and a few lucky games should not be
// enough. So:
//
//   - each game's place becomes a place score from 1 (first) to 0 (last),
//     evenly spaced over the table's seats — (n − place)/(n − 1), a shared
//     place the mean of the places it spans — so tables of 3 and of 6
//     count alike, and beating a robot counts as beating a person;
//   - the season score is their mean, shrunk toward the middle: as if
//     everyone had started the month with PriorGames games at 0.5 — a
//     Bayesian average. Three wins in three games score 75, not 100; the
//     same mean over more games scores nearer to it. Shown as 0–100.
//   - MinGames games place a person in the table.
//
// Playing more helps only by showing more of how well one plays: the score
// of someone who plays below the middle sinks toward their mean with every
// game. The score is exact (whole units), so equal records tie exactly.
const (
	MinGames   = 3
	PriorGames = 3
)

// unit is the denominator of place scores: 720720 = lcm(1..16), twice, so
// a place score at a table of up to 16 seats, shared places included, is a
// whole number of units.
const unit = 2 * 720720

// Line is one player's season in one game.
type Line struct {
	// Place is 1 for the best of those placed; 0 until they have MinGames
	// games. Equal score, games and wins share a place.
	Place  int
	Player string // "u<user id>", or "r<level>" for a robot
	Name   string // their latest name
	Robot  bool
	Games  int
	Wins   int // games won (a shared first place included)
	// Score is the season score, 0–100.
	Score float64
	// Need is how many more games place them (0 once placed).
	Need int

	sum int64 // the place scores, in units
}

// Placed reports whether the line has a place in the table.
func (l Line) Placed() bool { return l.Place > 0 }

// cmpScore compares season scores exactly: (sum + PriorGames/2)/(games + PriorGames),
// cross-multiplied.
func (l Line) cmpScore(o Line) int {
	a := (2*l.sum + PriorGames*unit) * int64(o.Games+PriorGames)
	b := (2*o.sum + PriorGames*unit) * int64(l.Games+PriorGames)
	return cmp.Compare(a, b)
}

func (l *Line) setScore() {
	l.Score = 100 * float64(2*l.sum+PriorGames*unit) / float64(2*unit*(l.Games+PriorGames))
	l.Need = max(0, MinGames-l.Games)
}

// Standings are the month's lines for game: those placed first, best
// first, then the others (most games first). Only games that ended in the
// month (in loc) count; a seat the bot played for most of the game
// (Unrated) counts in no season, as in no rating; a person who left counts
// as recorded: last. A forgotten player's seat is skipped.
func Standings(results []store.Result, game string, m Month, loc *time.Location) []Line {
	return standings(monthOf(results, game, m, loc))
}

// Find is player's line in lines, or the line of someone who has not played
// yet (no games, the middle score, MinGames to go): the sender's own line
// is always shown.
func Find(lines []Line, player string) Line {
	if i := slices.IndexFunc(lines, func(l Line) bool { return l.Player == player }); i >= 0 {
		return lines[i]
	}
	l := Line{Player: player, Robot: isRobot(player)}
	l.setScore()
	return l
}

// monthOf are game's results that ended in m, in the order given.
func monthOf(results []store.Result, game string, m Month, loc *time.Location) []store.Result {
	var out []store.Result
	for _, r := range results {
		if r.Game == game && m.Contains(r.Ended, loc) {
			out = append(out, r)
		}
	}
	return out
}

func standings(results []store.Result) []Line {
	byPlayer := map[string]*Line{}
	var order []*Line
	latest := map[string]time.Time{} // the name is the one of the latest game
	for _, r := range results {
		for i, s := range r.Seats {
			if s.Player == "" || s.Unrated {
				continue
			}
			q, ok := placeScore(r.Seats, i)
			if !ok {
				continue
			}
			l := byPlayer[s.Player]
			if l == nil {
				l = &Line{Player: s.Player, Robot: isRobot(s.Player)}
				byPlayer[s.Player] = l
				order = append(order, l)
			}
			if t, seen := latest[s.Player]; !seen || !r.Ended.Before(t) {
				latest[s.Player], l.Name = r.Ended, s.Name
			}
			l.Games++
			l.sum += q
			if s.Place == 1 {
				l.Wins++
			}
		}
	}
	lines := make([]Line, len(order))
	for i, l := range order {
		l.setScore()
		lines[i] = *l
	}
	rank(lines)
	return lines
}

// rank orders lines and places those with MinGames games: season score,
// then games, then wins; the player id orders lines that tie on all three
// (they share the place).
func rank(lines []Line) {
	slices.SortFunc(lines, func(a, b Line) int {
		if pa, pb := a.Games >= MinGames, b.Games >= MinGames; pa != pb {
			if pa {
				return -1
			}
			return 1
		}
		if a.Games < MinGames && a.Games != b.Games {
			return cmp.Compare(b.Games, a.Games) // the unplaced: nearest to a place first
		}
		if c := measure(a, b); c != 0 {
			return c
		}
		return strings.Compare(a.Player, b.Player)
	})
	for i := range lines {
		switch {
		case lines[i].Games < MinGames:
			lines[i].Place = 0
		case i > 0 && lines[i-1].Games >= MinGames && measure(lines[i-1], lines[i]) == 0:
			lines[i].Place = lines[i-1].Place
		default:
			lines[i].Place = i + 1
		}
	}
}

// measure orders two lines by what places them; 0 when they share a place.
func measure(a, b Line) int {
	if c := b.cmpScore(a); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Games, a.Games); c != 0 {
		return c
	}
	return cmp.Compare(b.Wins, a.Wins)
}

// placeScore is seat i's place score in units: (n − p − (k−1)/2)/(n − 1)
// for place p shared by k of n seats. The table's size is the seats
// recorded, or more when the places say so: of two robots of one level at
// a table only the better placed is recorded, so a robot that came last
// leaves a gap only the places show (when it came last, nothing shows it;
// the table then reads one seat short). False for a table of one.
func placeScore(seats []store.ResultSeat, i int) (int64, bool) {
	n, worst := len(seats), 0
	for _, s := range seats {
		worst = max(worst, s.Place)
	}
	k, last := 0, 0
	for _, s := range seats {
		if s.Place == seats[i].Place {
			k++
		}
		if s.Place == worst {
			last++
		}
	}
	n = max(n, worst+last-1)
	if n < 2 {
		return 0, false
	}
	p := seats[i].Place
	q := int64(2*n-2*p-k+1) * unit / int64(2*(n-1))
	return max(q, 0), true
}

func isRobot(player string) bool { return strings.HasPrefix(player, "r") }
