package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// arenaCase is what a few short games of one contest must show.
type arenaCase struct {
	players  []string // -players lists, each run (cover the seat counts)
	games    int
	flags    []string // more flags
	seats    [2]int   // the accepted player counts: one less or more is refused
	foreign  string   // a kind of another game, refused
	jsonGame string   // the "game" key of the JSON line
	// score bounds every kind's avg_score; the best average reaches at
	// least best (what a finished game implies).
	score [2]float64
	best  float64
}

// arenaCases are the expectations per game in contests.
func arenaCases() map[string]arenaCase {
	return map[string]arenaCase{
		"trickchef": { // the score is the game total
			players: []string{"shef,cook,novice,cook", "shef,cook,novice"}, games: 4, flags: []string{"-playouts", "8"},
			seats: [2]int{3, 4}, foreign: "sly", score: [2]float64{math.Inf(-1), math.Inf(1)},
		},
		"sausages": { // one winner per game; the score is the number of successes
			players: []string{"sly,novice,random,novice,sharp", "top,middle,bottom", "sly,sly,novice,novice,random,random"}, games: 10,
			seats: [2]int{3, 6}, foreign: "cook", jsonGame: "sausages", score: [2]float64{0, 2},
		},
		"chef": { // shared wins at closing time; the score is colours, 7 at most
			players: []string{"cook,novice", "shef,cook,novice,cook,novice"}, games: 6,
			seats: [2]int{2, 8}, foreign: "sly", jsonGame: "chef", score: [2]float64{0, 7},
		},
		"chekharda": { // the score is the game total: someone gets near the target (77)
			players: []string{"shef,cook,novice,cook", "top,bottom", "cook,cook,shef,novice,novice,shef"}, games: 10,
			seats: [2]int{2, 6}, foreign: "sly", jsonGame: "chekharda", score: [2]float64{0, math.Inf(1)}, best: 30,
		},
	}
}

// summaryLine is the JSON line's part the tests read.
type summaryLine struct {
	Games    int                `json:"games"`
	Deals    int                `json:"deals"`
	Paired   bool               `json:"paired"`
	Game     string             `json:"game"`
	Players  []string           `json:"players"`
	WinRate  map[string]float64 `json:"win_rate"`
	AvgScore map[string]float64 `json:"avg_score"`
	P99      map[string]float64 `json:"decision_ms_p99"`
	Races    map[string]int     `json:"races"`
}

// TestArenaSmoke plays a few games of every contest with each player list
// of its case: the last line is the JSON summary, naming the game (except
// trickchef), with one entry per kind, win rates that add up to one game's
// worth of wins when weighted by seats (a shared win counts 1/k to each),
// and average scores in the game's range. The same seed gives the same
// games whatever the parallelism. Player lists with one seat too few or
// too many, or a kind of another game, are refused.
func TestArenaSmoke(t *testing.T) {
	cases := arenaCases()
	for name := range contests {
		c, ok := cases[name]
		if !ok {
			t.Errorf("contest %q has no smoke case", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, players := range c.players {
				args := append([]string{"-game", name, "-games", strconv.Itoa(c.games), "-players", players, "-seed", "3"}, c.flags...)
				one := runArena(t, append(args, "-workers", "1"))
				c.check(t, players, one)
				if three := runArena(t, append(args, "-workers", "3")); sameScores(t, one) != sameScores(t, three) {
					t.Fatalf("%v: results differ with 1 and 3 workers:\n%s\n%s", args, one, three)
				}
			}
			kind := strings.Split(c.players[0], ",")[0]
			for _, n := range []int{c.seats[0] - 1, c.seats[1] + 1} {
				c.refused(t, name, slices.Repeat([]string{kind}, n))
			}
			c.refused(t, name, append(slices.Repeat([]string{kind}, c.seats[0]-1), c.foreign))
		})
	}
}

// runArena runs the arena and returns its output.
func runArena(t *testing.T, args []string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(args, &out, &errOut); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, errOut.String())
	}
	return out.String()
}

// check reads the JSON summary of a run with the given players.
func (c arenaCase) check(t *testing.T, players, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var s summaryLine
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	kinds := map[string]int{}
	for _, p := range strings.Split(players, ",") {
		kinds[p]++
	}
	n := len(strings.Split(players, ","))
	deals := (c.games + n - 1) / n // paired by default: whole deals of n games
	if s.Games != deals*n || s.Deals != deals || !s.Paired || s.Game != c.jsonGame || strings.Join(s.Players, ",") != players || len(s.WinRate) != len(kinds) || len(s.AvgScore) != len(kinds) || len(s.P99) != len(kinds) {
		t.Fatalf("%s: summary %+v", players, s)
	}
	total, best := 0.0, math.Inf(-1)
	for k, n := range kinds {
		total += float64(n) * s.WinRate[k]
		x := s.AvgScore[k]
		if x < c.score[0] || x > c.score[1] {
			t.Fatalf("%s: %s averages a score of %v, outside %v", players, k, x, c.score)
		}
		best = max(best, x)
	}
	if total < 0.999 || total > 1.001 {
		t.Fatalf("%s: win rates %v add up to %v", players, s.WinRate, total)
	}
	// Real time counts races: robots acting before the quiet pause at least.
	if (c.jsonGame == "chekharda") != (len(s.Races) > 0) {
		t.Fatalf("%s: races %v", players, s.Races)
	}
	if best < c.best {
		t.Fatalf("%s: average scores %v: nobody reaches %v", players, s.AvgScore, c.best)
	}
	t.Log(lines[len(lines)-1])
}

// refused checks that the player list is not accepted for the game.
func (c arenaCase) refused(t *testing.T, name string, players []string) {
	t.Helper()
	args := []string{"-game", name, "-players", strings.Join(players, ",")}
	if err := run(args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Errorf("%v accepted", args)
	}
}

// sameScores is the part of the JSON line that must not depend on
// scheduling.
func sameScores(t *testing.T, s string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(s), "\n")
	var x struct {
		WinRate  map[string]float64 `json:"win_rate"`
		AvgScore map[string]float64 `json:"avg_score"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &x); err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(x)
	return string(j)
}

// TestArenaFlags checks the default game and the refusal of bad flags
// (per-game player lists: TestArenaSmoke).
func TestArenaFlags(t *testing.T) {
	if c, err := parse(nil, io.Discard); err != nil || c.game.name() != "trickchef" {
		t.Fatalf("default game: %v", err)
	}
	for _, args := range [][]string{
		{"-players", "shef,cook,chef"},
		{"-games", "0"},
		{"-workers", "0"},
		{"-game", "chess"},
		{"-players", "top,middle,nobody"},
	} {
		if err := run(args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Fatalf("%v accepted", args)
		}
	}
}

// TestArenaPaired checks paired seeding in every contest: with one level in
// every seat, the n games of a deal (the seats rotated) are the same game,
// action for action, while the next deal, or the next game without
// pairing, is another one.
func TestArenaPaired(t *testing.T) {
	for name, c := range contests {
		t.Run(name, func(t *testing.T) {
			lo, hi := c.seats()
			n := min(max(lo, 3), hi)
			players := strings.Join(slices.Repeat([]string{"middle"}, n), ",")
			cfg, err := parse([]string{"-game", name, "-players", players, "-games", strconv.Itoa(2*n - 1)}, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.games != 2*n || !cfg.paired {
				t.Fatalf("%d games, paired %v: want %d, rounded up to whole deals", cfg.games, cfg.paired, 2*n)
			}
			traces := make([]uint64, 2*n)
			for g := range traces {
				o, err := playGame(&cfg, g)
				if err != nil {
					t.Fatal(err)
				}
				traces[g] = o.trace
			}
			for g := 1; g < n; g++ {
				if traces[g] != traces[0] || traces[n+g] != traces[n] {
					t.Fatalf("rotations of one deal differ: %x", traces)
				}
			}
			if traces[0] == traces[n] {
				t.Fatalf("deals 0 and 1 are the same game: %x", traces)
			}
			cfg.paired = false
			o0, err0 := playGame(&cfg, 0)
			o1, err1 := playGame(&cfg, 1)
			if err0 != nil || err1 != nil || o0.trace == o1.trace {
				t.Fatalf("unpaired games 0 and 1: same game or errors %v %v", err0, err1)
			}
		})
	}
}

// TestArenaAliases checks that top, middle and bottom name levels of the
// game in every contest, distinct ones, and that an alias for a level the
// engine does not offer is refused rather than played as another level.
func TestArenaAliases(t *testing.T) {
	for name, c := range contests {
		a := c.aliases()
		if a["top"] == "" || a["middle"] == "" || a["bottom"] == "" || a["top"] == a["middle"] || a["middle"] == a["bottom"] {
			t.Errorf("%s: aliases %v", name, a)
		}
		lo, _ := c.seats()
		for alias, level := range a {
			players := strings.Join(slices.Repeat([]string{alias}, lo), ",")
			cfg, err := parse([]string{"-game", name, "-players", players}, io.Discard)
			switch {
			case slices.Contains(c.kinds(), level) && (err != nil || cfg.levels[0] != level):
				t.Errorf("%s: %s: levels %v, error %v; want %s", name, alias, cfg.levels, err, level)
			case !slices.Contains(c.kinds(), level) && err == nil:
				t.Errorf("%s: %s stands for %s, which the arena does not offer, yet was accepted", name, alias, level)
			}
		}
	}
}

// TestMeanCI95 checks the interval over deals against a hand computation.
func TestMeanCI95(t *testing.T) {
	// Per-deal shares 1/4, 3/4, 2/4, 2/4 over 4 games: mean 0.5, sample
	// variance (1/16+1/16)/3 = 1/24, standard error sqrt(1/24/4).
	m, ci := meanCI95([]float64{1, 3, 2, 2}, 4)
	if math.Abs(m-0.5) > 1e-12 || math.Abs(ci-1.96*math.Sqrt(1.0/96)) > 1e-12 {
		t.Fatalf("mean %v ± %v", m, ci)
	}
}
