package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/cmd/games"
)

// runOut runs aibench and returns its output.
func runOut(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(args, &out, &errOut); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, errOut.String())
	}
	return out.String()
}

// lastJSON reads the output's last line into v.
func lastJSON(t *testing.T, out string, v any) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), v); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
}

// refused checks that aibench refuses args.
func refused(t *testing.T, args ...string) {
	t.Helper()
	if err := run(args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Errorf("%v accepted", args)
	}
}

// The arena plays what cmd/arena played: for the same flags, the same
// win rates and scores (the values are cmd/arena's, measured before it
// was replaced; Чехарда's games are the bot's now: its dealer comes from
// the seed and a robot that would wait for ever plays, as in the bot;
// the two runs with a novice were pinned again when the Меню шефа novice
// became Cook with slips and the Трик-н-Шеф novice's slips any legal
// action).
func TestArenaAsCmdArena(t *testing.T) {
	for _, c := range []struct {
		args      string
		win, mean map[string]float64
	}{
		{"-game trickchef -games 8 -players top,prevtop,prevtop,prevtop -seed 1 -playouts 20",
			map[string]float64{"prevtop": 0.25, "top": 0.25}, map[string]float64{"prevtop": 27.625, "top": 28.875}},
		{"-game trickchef -games 6 -players shef,baseline,novice -seed 3 -playouts 20",
			map[string]float64{"baseline": 0.3333, "novice": 0, "shef": 0.6667}, map[string]float64{"baseline": 32.6667, "novice": 22.5, "shef": 34.3333}},
		{"-game sausages -games 60 -players top,bottom,random -seed 1",
			map[string]float64{"bottom": 0.0667, "random": 0.4, "top": 0.5333}, map[string]float64{"bottom": 0.1667, "random": 1.1167, "top": 1.05}},
		{"-game chef -games 8 -players top,middle,bottom,middle -seed 1 -playouts 100",
			map[string]float64{"bottom": 0, "middle": 0.375, "top": 0.25}, map[string]float64{"bottom": 3.25, "middle": 5.5625, "top": 4.875}},
	} {
		var s arenaSummary
		lastJSON(t, runOut(t, append([]string{"arena"}, strings.Fields(c.args)...)...), &s)
		if !reflect.DeepEqual(s.WinRate, c.win) || !reflect.DeepEqual(s.AvgScore, c.mean) {
			t.Errorf("%s: win rates %v, scores %v; cmd/arena had %v, %v", c.args, s.WinRate, s.AvgScore, c.win, c.mean)
		}
	}
}

// Every game the bot offers plays in the arena: the JSON line has one
// entry per kind, win rates adding up to one game's worth of wins, the
// same results with one and three workers; real time counts its races.
// Player lists one seat too short or long, or with an unknown kind, are
// refused.
func TestArenaEveryGame(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.ID(), func(t *testing.T) {
			lo, hi := g.SeatRange()
			n := min(max(lo, 3), hi)
			players := strings.Join(append([]string{"top", "bottom"}, slices.Repeat([]string{"middle"}, n-2)...), ",")
			args := []string{"arena", "-game", g.ID(), "-games", strconv.Itoa(2 * n), "-players", players, "-seed", "5", "-playouts", "10"}
			var one, three arenaSummary
			lastJSON(t, runOut(t, append(args, "-workers", "1")...), &one)
			lastJSON(t, runOut(t, append(args, "-workers", "3")...), &three)
			if !reflect.DeepEqual(one.WinRate, three.WinRate) || !reflect.DeepEqual(one.AvgScore, three.AvgScore) {
				t.Fatalf("results differ with 1 and 3 workers: %v, %v", one, three)
			}
			total := one.WinRate["top"] + one.WinRate["bottom"] + float64(n-2)*one.WinRate["middle"]
			if one.Games != 2*n || len(one.WinRate) != 3 || math.Abs(total-1) > 0.001 {
				t.Fatalf("summary %+v (win rates add up to %v)", one, total)
			}
			if _, realTime := g.(adapter.ClockGame); realTime != (len(one.Races) > 0) {
				t.Fatalf("races %v", one.Races)
			}
			for _, k := range []int{lo - 1, hi + 1} {
				refused(t, "arena", "-game", g.ID(), "-players", strings.Join(slices.Repeat([]string{"top"}, k), ","))
			}
			refused(t, "arena", "-game", g.ID(), "-players", strings.Join(append(slices.Repeat([]string{"top"}, lo-1), "nobody"), ","))
		})
	}
}

// Paired seeds: with one level in every seat, the games of a deal (the
// seats rotated) are the same game, move for move; the next deal, or the
// next game unpaired, is another.
func TestArenaPaired(t *testing.T) {
	for _, g := range games.All() {
		lo, hi := g.SeatRange()
		n := min(max(lo, 3), hi)
		o, err := parseFlags("arena", []string{"-game", g.ID(), "-players", strings.Join(slices.Repeat([]string{"middle"}, n), ","), "-games", strconv.Itoa(2*n - 1)}, &bytes.Buffer{})
		if err != nil {
			t.Fatal(err)
		}
		b, games, err := newBench(o, arenaPlayers)
		if err != nil {
			t.Fatal(err)
		}
		if games != 2*n {
			t.Fatalf("%s: %d games, want %d (whole deals)", g.ID(), games, 2*n)
		}
		traces := make([]uint64, games)
		for gi := range traces {
			p, err := b.play(gi)
			if err != nil {
				t.Fatal(err)
			}
			traces[gi] = p.trace
		}
		for gi := 1; gi < n; gi++ {
			if traces[gi] != traces[0] || traces[n+gi] != traces[n] {
				t.Fatalf("%s: rotations of one deal differ: %x", g.ID(), traces)
			}
		}
		if traces[0] == traces[n] {
			t.Fatalf("%s: deals 0 and 1 are the same game", g.ID())
		}
		b.paired = false
		p0, err0 := b.play(0)
		p1, err1 := b.play(1)
		if err0 != nil || err1 != nil || p0.trace == p1.trace {
			t.Fatalf("%s: unpaired games 0 and 1: the same game, or %v %v", g.ID(), err0, err1)
		}
	}
}

// Kinds: every game's levels and top, middle, bottom (distinct levels),
// random; Трик-н-Шеф's yardsticks through its adapter, refused elsewhere.
func TestKinds(t *testing.T) {
	for _, g := range games.All() {
		k := kinds(g)
		if k["top"].level == k["middle"].level || k["middle"].level == k["bottom"].level || !k[randomKind].random {
			t.Errorf("%s: kinds %v", g.ID(), k)
		}
		_, yard := k["prevtop"]
		if yard != (g.ID() == "trickchef") {
			t.Errorf("%s: prevtop offered: %v", g.ID(), yard)
		}
	}
	tc, _ := gameByID("trickchef")
	k := kinds(tc)
	if k["prevtop"].level != "prevshef" || k["baseline"].level != "" || k["baseline"].name != "baseline" {
		t.Errorf("trickchef's yardsticks: %v", k)
	}
}

// Review: the last line's first keys are the game, the games, the levels
// easiest first and their accuracy in that order, each in 0–100, with
// the decisions and the grades per level; a game that is not reviewed is
// refused.
func TestReview(t *testing.T) {
	// The games the bot offers, as they are: the last reviewed one in menu
	// order is measured, and one that is not reviewed, if any, refused.
	var reviewed, other adapter.Game
	for _, g := range games.All() {
		if adapter.Reviewable(g) {
			reviewed = g
		} else if other == nil {
			other = g
		}
	}
	if reviewed == nil {
		t.Skip("no game the bot offers is reviewed")
	}
	id := reviewed.ID()
	out := runOut(t, "review", "-game", id, "-games", "3", "-seed", "2", "-playouts", "40")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	levels, _ := json.Marshal(adapter.Levels(reviewed))
	if !strings.HasPrefix(lines[len(lines)-1], `{"game":"`+id+`","games":3,"levels":`+string(levels)+`,"accuracy":[`) {
		t.Fatalf("last line %s", lines[len(lines)-1])
	}
	var s reviewSummary
	lastJSON(t, out, &s)
	top := len(adapter.Levels(reviewed)) - 1
	if len(s.Accuracy) != top+1 || len(s.Grades) != top+1 || s.Decisions[0] == 0 || s.CPU.P99 <= 0 {
		t.Fatalf("summary %+v", s)
	}
	for _, a := range s.Accuracy {
		if a < 0 || a > 100 {
			t.Fatalf("accuracy %v: summary %+v", a, s)
		}
	}
	if other != nil {
		refused(t, "review", "-game", other.ID(), "-games", "1")
	}
	refused(t, "review", "-game", id, "-players", "top,nobody")
}

// Hint: one JSON line per game asked for.
func TestHint(t *testing.T) {
	var h hintLine
	lastJSON(t, runOut(t, "hint", "-game", "sausages", "-positions", "5"), &h)
	if h.Game != "sausages" || h.Hints == 0 || h.Budget != "200ms" {
		t.Fatalf("%+v", h)
	}
	refused(t, "hint", "-game", "chess")
}

// Deal: the commitment and the first deal from a reveal, every shuffle
// with the moves; anything but a reveal is refused.
func TestDeal(t *testing.T) {
	r := deal.New("trickchef", 3, nil, 42, 7)
	out := runOut(t, "deal", "-reveal", r, "-lang", "en")
	if !strings.Contains(out, "🔒 "+deal.Commitment(r)) || !strings.Contains(out, "Round 1, the deal:") || !strings.Contains(out, "Seat 3: ") {
		t.Fatalf("deal printed\n%s", out)
	}
	refused(t, "deal")
	refused(t, "deal", "-reveal", "trickchef:3")
	refused(t, "deal", "-reveal", r, "-log", "0:x")
	refused(t, "deal", "-reveal", deal.New("chess", 2, nil, 1, 1))
}

// Flags: a subcommand is required, unknown ones and bad values refused.
func TestFlags(t *testing.T) {
	refused(t)
	refused(t, "play")
	refused(t, "arena", "-games", "0")
	refused(t, "arena", "-workers", "0")
	refused(t, "arena", "-game", "chess")
	refused(t, "arena", "extra")
	if o, err := parseFlags("arena", nil, &bytes.Buffer{}); err != nil || o.game != "" || !o.paired {
		t.Fatalf("defaults: %+v, %v", o, err)
	}
}

// meanCI95 over deals against a hand computation.
func TestMeanCI95(t *testing.T) {
	// Per-deal shares 1/4, 3/4, 2/4, 2/4 over 4 games: mean 0.5, sample
	// variance (1/16+1/16)/3 = 1/24, standard error sqrt(1/24/4).
	m, ci := meanCI95([]float64{1, 3, 2, 2}, 4)
	if math.Abs(m-0.5) > 1e-12 || math.Abs(ci-1.96*math.Sqrt(1.0/96)) > 1e-12 {
		t.Fatalf("mean %v ± %v", m, ci)
	}
}

// Help: aibench -h and aibench <subcommand> -h answer on stdout and are
// no failure, as botbench's.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"help"}, {"arena", "-h"}} {
		var out, errOut bytes.Buffer
		if err := run(args, &out, &errOut); !errors.Is(err, flag.ErrHelp) || out.Len() == 0 || errOut.Len() != 0 {
			t.Fatalf("%q: %v, stdout %q, stderr %q", args, err, out.String(), errOut.String())
		}
	}
}
