package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
)

// The arena: seeded games between robot kinds, reported per kind as the
// win rate with a 95% confidence interval, the average score and the
// time per decision.
//
// Paired seeds (-paired, the default): games are played in deals of n
// games, n the number of players. A deal is one seed; each of its games
// rotates the seats by one (game r of a deal puts player i in seat
// (i+r) mod n), so every kind sits in every seat on the same cards and the
// luck of the deal cancels out. -games counts games and is rounded up to
// whole deals. The 95% confidence interval is computed over deals: a
// deal's value for a kind is its mean win share over the deal's games and
// the kind's seats, and the interval is 1.96 standard errors of the mean
// of those values. With -paired=false every game has its own seed and the
// seats still rotate every game; the interval is then over games.
//
// Games run in parallel (-workers); each game's seed is derived from -seed
// and its deal number, so results do not depend on scheduling (only the
// timings do, and the decisions too if -budget caps the search by wall
// clock). A real-time game (adapter.ClockGame) is played as the bot's
// timers play it (see race) and reports its races.
//
// The last line is one JSON object:
//
//	{"games":N,"deals":D,"paired":true,"players":["top","middle",...],"kinds":["top","middle"],
//	 "levels":{"top":"shef","middle":"cook"},
//	 "win_rate":{...},"win_ci95":{...},"avg_score":{...},
//	 "decision_ms_mean":{...},"decision_ms_p99":{...},"playouts":0,"budget_ms":0}
//
// with "game":"<id>" for every game but trickchef (as cmd/arena wrote it)
// and "races" for real time. Every per-kind map is keyed by kind as
// given; a kind in several seats is averaged over them, so at equal
// strength every kind's win rate is 1/n; a shared win between k players
// counts 1/k to each.

// arenaSummary is the JSON last line.
type arenaSummary struct {
	Games    int                `json:"games"`
	Deals    int                `json:"deals"`
	Paired   bool               `json:"paired"`
	Game     string             `json:"game,omitempty"` // absent for trickchef, as cmd/arena wrote it
	Players  []string           `json:"players"`
	Kinds    []string           `json:"kinds"`
	Levels   map[string]string  `json:"levels"` // kind as given → level played
	WinRate  map[string]float64 `json:"win_rate"`
	WinCI95  map[string]float64 `json:"win_ci95"`
	AvgScore map[string]float64 `json:"avg_score"`
	MeanMS   map[string]float64 `json:"decision_ms_mean"`
	P99MS    map[string]float64 `json:"decision_ms_p99"`
	Races    map[string]int     `json:"races,omitempty"`
	Playouts int                `json:"playouts"`
	BudgetMS float64            `json:"budget_ms"`
	Seconds  float64            `json:"seconds"`
}

// newBench reads the flags arena and review share.
func newBench(o *options, defaultPlayers func(g adapter.Game) string) (*bench, int, error) {
	id := o.game
	if id == "" {
		id = "trickchef"
	}
	g, err := gameByID(id)
	if err != nil {
		return nil, 0, err
	}
	list := o.players
	if list == "" {
		list = defaultPlayers(g)
	}
	players, err := parsePlayers(g, list)
	if err != nil {
		return nil, 0, err
	}
	b := &bench{g: g, players: players, seed: o.seed, paired: o.paired, playouts: o.playouts, budget: o.budget}
	games := o.games
	if n := b.perDeal(); games%n != 0 {
		games += n - games%n
	}
	return b, games, nil
}

// arenaPlayers is the arena's default: the top level against the middle
// one in every other seat (as many seats as the game allows, up to four).
func arenaPlayers(g adapter.Game) string {
	lo, hi := g.SeatRange()
	n := min(max(lo, 4), hi)
	return "top" + strings.Repeat(",middle", n-1)
}

// playAll plays games games on workers workers; each worker calls after
// for its games in its own goroutine (locked to its thread by before).
func playAll(b *bench, games, workers int, progress io.Writer, before func(), after func(gi int, p *played) error) error {
	errs := make([]error, games)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done, start := 0, time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if before != nil {
				before()
			}
			for gi := range next {
				p, err := b.play(gi)
				if err == nil {
					err = after(gi, p)
				}
				errs[gi] = err
				if progress != nil {
					mu.Lock()
					if done++; done%50 == 0 {
						fmt.Fprintf(progress, "%d/%d games, %s\n", done, games, time.Since(start).Round(time.Second))
					}
					mu.Unlock()
				}
			}
		}()
	}
	for gi := range games {
		next <- gi
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

func runArena(o *options, stdout, stderr io.Writer) error {
	b, games, err := newBench(o, arenaPlayers)
	if err != nil {
		return err
	}
	start := time.Now()
	n := len(b.players)
	share := make([][]float64, games) // per game, per player: the win share
	score := make([][]int, games)
	times := make([][][]float64, games)
	races := map[string]int{}
	var mu sync.Mutex
	var progress io.Writer
	if o.progress {
		progress = stderr
	}
	err = playAll(b, games, o.workers, progress, nil, func(gi int, p *played) error {
		r := p.st.Result()
		share[gi], score[gi], times[gi] = make([]float64, n), make([]int, n), p.times
		for i, s := range p.seatOf {
			score[gi][i] = r.Scores[s]
			for _, w := range r.Winners {
				if int(w) == s {
					share[gi][i] += 1 / float64(len(r.Winners))
				}
			}
		}
		mu.Lock()
		for k, v := range p.races {
			races[k] += v
		}
		mu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	sum := arenaSummary{
		Games: games, Deals: games / b.perDeal(), Paired: b.paired, Playouts: b.playouts,
		Levels: map[string]string{}, BudgetMS: float64(b.budget.Microseconds()) / 1000,
		WinRate: map[string]float64{}, WinCI95: map[string]float64{}, AvgScore: map[string]float64{},
		MeanMS: map[string]float64{}, P99MS: map[string]float64{}, Seconds: time.Since(start).Seconds(),
	}
	var levels []string
	for _, p := range b.players {
		sum.Players = append(sum.Players, p.kind)
		levels = append(levels, p.name)
		if !slices.Contains(sum.Kinds, p.kind) {
			sum.Kinds = append(sum.Kinds, p.kind)
		}
		sum.Levels[p.kind] = p.name
	}
	if b.g.ID() != "trickchef" {
		sum.Game = b.g.ID()
	}
	pairing := "unpaired seeds"
	if b.paired {
		pairing = fmt.Sprintf("paired seeds: %d deals × %d seat rotations", sum.Deals, b.perDeal())
	}
	fmt.Fprintf(stdout, "%d games (%s), players %v = levels %v, game %s, playouts %d, wall cap %v, %.0fs\n",
		games, pairing, sum.Players, levels, b.g.ID(), b.playouts, b.budget, sum.Seconds)
	fmt.Fprintf(stdout, "%-8s %5s %18s %9s %9s %9s %9s\n", "kind", "seats", "win rate (95% CI)", "score", "decisions", "mean ms", "p99 ms")
	for _, k := range sum.Kinds {
		var total float64
		var ts []float64
		seats := 0
		deal := make([]float64, sum.Deals) // the kind's win share per deal
		for i, p := range b.players {
			if p.kind != k {
				continue
			}
			seats++
			for gi := range games {
				deal[gi/b.perDeal()] += share[gi][i]
				total += float64(score[gi][i])
				ts = append(ts, times[gi][i]...)
			}
		}
		w, ci := meanCI95(deal, float64(b.perDeal()*seats))
		mean, p99 := meanP99(ts)
		avg := total / float64(games*seats)
		sum.WinRate[k], sum.WinCI95[k], sum.AvgScore[k] = round4(w), round4(ci), round4(avg)
		sum.MeanMS[k], sum.P99MS[k] = round4(mean), round4(p99)
		fmt.Fprintf(stdout, "%-8s %5d %8.1f%% ± %5.1f%% %9.2f %9d %9.3f %9.3f\n", k, seats, 100*w, 100*ci, avg, len(ts), mean, p99)
	}
	if len(races) > 0 {
		sum.Races = races
		printRaces(stdout, races)
	}
	line, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, string(line))
	return nil
}

// printRaces prints, for each level and each rival (another level, or the
// platform's pause), how often it came first when both wanted to act.
func printRaces(w io.Writer, races map[string]int) {
	fmt.Fprintln(w, "races (both wanted to act; first to act wins):")
	for _, k := range slices.Sorted(maps.Keys(races)) {
		a, b, _ := strings.Cut(k, ">")
		won, lost := races[k], races[b+">"+a]
		fmt.Fprintf(w, "  %s first against %s: %d of %d (%.1f%%)\n", a, b, won, won+lost, 100*float64(won)/float64(won+lost))
	}
}

// meanCI95 is the mean of xs/per and the half-width of its 95% confidence
// interval (normal approximation, 1.96 standard errors of the mean; the
// samples are independent).
func meanCI95(xs []float64, per float64) (mean, ci float64) {
	k := float64(len(xs))
	for _, x := range xs {
		mean += x / per
	}
	mean /= k
	if len(xs) < 2 {
		return mean, 0 // unknown; JSON has no NaN
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x/per - mean) * (x/per - mean)
	}
	return mean, 1.96 * math.Sqrt(ss/(k-1)/k)
}

// meanP99 is the mean and the 99th percentile of xs (0 for none).
func meanP99(xs []float64) (mean, p99 float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	for _, x := range xs {
		mean += x
	}
	return mean / float64(len(xs)), xs[min(len(xs)-1, int(math.Ceil(0.99*float64(len(xs))))-1)]
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
