// Command arena plays seeded games of Трик-н-Шеф between AI levels and
// reports per level: win rate with a 95% confidence interval, average
// score and time per decision.
//
//	go run ./cmd/arena -games 2000 -players shef,cook,cook,cook -seed 1 -playouts 600
//
// Seats rotate every game (game g puts player i in seat (i+g) mod n), so
// with a multiple of n games every player sits in every seat equally
// often. Games run in parallel on all cores; each game's seed is derived
// from -seed and its number, so results do not depend on scheduling (only
// the timings do, and the decisions too if -budget caps the search by
// wall clock).
//
// The last line of output is one JSON object:
//
//	{"games":N,"players":["shef","cook",...],"kinds":["shef","cook"],
//	 "win_rate":{"shef":0.41,"cook":0.19},"win_ci95":{...},"avg_score":{...},
//	 "decision_ms_mean":{...},"decision_ms_p99":{...},"playouts":600,"budget_ms":0}
//
// Every per-kind map is keyed by level. A kind that fills several seats is
// averaged over them, so at equal strength every kind's win rate is 1/n;
// a shared win between k players counts 1/k to each.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(2)
	}
}

// config is the parsed command line.
type config struct {
	games    int
	players  []tc.Level
	seed     uint64
	playouts int
	budget   time.Duration
	workers  int
	progress bool
}

func parse(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var players string
	fs.IntVar(&c.games, "games", 100, "games to play")
	fs.StringVar(&players, "players", "shef,cook,cook,cook", "3 or 4 levels (novice, cook, shef, or baseline: the engine's Baseline), comma-separated")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the first game; game g uses a seed derived from it and g")
	fs.IntVar(&c.playouts, "playouts", 0, "shef playouts per decision (0: the package default)")
	fs.DurationVar(&c.budget, "budget", 0, "wall-clock cap per shef decision (0: none; a cap makes results depend on machine speed)")
	fs.IntVar(&c.workers, "workers", runtime.GOMAXPROCS(0), "games played in parallel")
	fs.BoolVar(&c.progress, "progress", false, "report progress on stderr")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	for _, p := range strings.Split(players, ",") {
		l := tc.Level(strings.TrimSpace(p))
		if l != tc.Novice && l != tc.Cook && l != tc.Shef && l != baseline {
			return c, fmt.Errorf("unknown level %q", p)
		}
		c.players = append(c.players, l)
	}
	if len(c.players) != 3 && len(c.players) != 4 {
		return c, errors.New("need 3 or 4 players")
	}
	if c.games < 1 || c.workers < 1 {
		return c, errors.New("games and workers must be positive")
	}
	return c, nil
}

// baseline names the engine's Baseline heuristic, the yardstick under the
// three levels (Novice is Baseline with slips).
const baseline tc.Level = "baseline"

func decide(l tc.Level, v tc.SeatView, h tc.History, seed uint64, b tc.Budget) game.Action {
	if l == baseline {
		return tc.Baseline(v, seed)
	}
	return tc.Decide(l, v, h, seed, b)
}

// outcome is one game's result per player (index into config.players).
type outcome struct {
	share []float64 // win share: 1/k for each of k winners
	score []int
	times [][]float64 // per player: decision times in ms
}

// gameSeed spreads game numbers over the seed space (splitmix64).
func gameSeed(seed uint64, g int) uint64 {
	z := seed + uint64(g+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func playGame(c *config, g int) (outcome, error) {
	n := len(c.players)
	gs := gameSeed(c.seed, g)
	st, err := tc.New(tc.DefaultConfig(n, 0, gs))
	if err != nil {
		return outcome{}, err
	}
	// Seat s holds player (s - g) mod n: player i sits in seat (i + g) mod n.
	player := func(s game.Seat) int { return ((int(s)-g)%n + n) % n }
	o := outcome{share: make([]float64, n), score: make([]int, n), times: make([][]float64, n)}
	var h tc.History
	b := tc.Budget{Playouts: c.playouts}
	if c.budget > 0 {
		b.Wall, b.Clock = c.budget, time.Now
	}
	for step := uint64(0); !st.Over(); step++ {
		s, _ := st.Current()
		p := player(s)
		v := st.SeatView(s)
		t0 := time.Now()
		a := decide(c.players[p], v, h, gs^(step+1)*0x2545f4914f6cdd1d, b)
		o.times[p] = append(o.times[p], float64(time.Since(t0).Nanoseconds())/1e6)
		if err := st.Apply(s, a); err != nil {
			return o, fmt.Errorf("game %d step %d: %s played %d: %w", g, step, c.players[p], a, err)
		}
		h.Observe(st.PublicView())
	}
	res := st.Result()
	for s, sc := range res.Scores {
		o.score[player(game.Seat(s))] = sc
	}
	for _, w := range res.Winners {
		o.share[player(w)] += 1 / float64(len(res.Winners))
	}
	return o, nil
}

// summary is the JSON last line.
type summary struct {
	Games    int                `json:"games"`
	Players  []tc.Level         `json:"players"`
	Kinds    []tc.Level         `json:"kinds"`
	WinRate  map[string]float64 `json:"win_rate"`
	WinCI95  map[string]float64 `json:"win_ci95"`
	AvgScore map[string]float64 `json:"avg_score"`
	MeanMS   map[string]float64 `json:"decision_ms_mean"`
	P99MS    map[string]float64 `json:"decision_ms_p99"`
	Playouts int                `json:"playouts"`
	BudgetMS float64            `json:"budget_ms"`
	Seconds  float64            `json:"seconds"`
}

func run(args []string, stdout, stderr io.Writer) error {
	c, err := parse(args, stderr)
	if err != nil {
		return err
	}
	start := time.Now()
	outs := make([]outcome, c.games)
	errs := make([]error, c.games)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < c.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				outs[g], errs[g] = playGame(&c, g)
				if c.progress {
					mu.Lock()
					done++
					if done%50 == 0 {
						fmt.Fprintf(stderr, "%d/%d games, %s\n", done, c.games, time.Since(start).Round(time.Second))
					}
					mu.Unlock()
				}
			}
		}()
	}
	for g := 0; g < c.games; g++ {
		next <- g
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	sum := summary{
		Games: c.games, Players: c.players, Playouts: c.playouts,
		BudgetMS: float64(c.budget.Microseconds()) / 1000, Seconds: time.Since(start).Seconds(),
		WinRate: map[string]float64{}, WinCI95: map[string]float64{}, AvgScore: map[string]float64{},
		MeanMS: map[string]float64{}, P99MS: map[string]float64{},
	}
	for _, l := range c.players {
		if !slices.Contains(sum.Kinds, l) {
			sum.Kinds = append(sum.Kinds, l)
		}
	}
	fmt.Fprintf(stdout, "%d games, players %v, shef playouts %d, wall cap %v, %.0fs\n",
		c.games, c.players, c.playouts, c.budget, sum.Seconds)
	fmt.Fprintf(stdout, "%-7s %5s %18s %9s %9s %9s %9s\n", "kind", "seats", "win rate (95% CI)", "avg score", "decisions", "mean ms", "p99 ms")
	for _, k := range sum.Kinds {
		var share, score float64
		var times []float64
		seats := 0
		for i, l := range c.players {
			if l != k {
				continue
			}
			seats++
			for _, o := range outs {
				share += o.share[i]
				score += float64(o.score[i])
				times = append(times, o.times[i]...)
			}
		}
		n := float64(c.games * seats)
		p := share / n
		// Normal approximation; seats of one kind in the same game are
		// counted as independent samples, which slightly understates it.
		ci := 1.96 * math.Sqrt(p*(1-p)/n)
		slices.Sort(times)
		mean := 0.0
		for _, t := range times {
			mean += t
		}
		mean /= float64(max(len(times), 1))
		p99 := 0.0
		if len(times) > 0 {
			p99 = times[min(len(times)-1, int(math.Ceil(0.99*float64(len(times))))-1)]
		}
		key := string(k)
		sum.WinRate[key], sum.WinCI95[key], sum.AvgScore[key] = round4(p), round4(ci), round4(score/n)
		sum.MeanMS[key], sum.P99MS[key] = round4(mean), round4(p99)
		fmt.Fprintf(stdout, "%-7s %5d %8.1f%% ± %5.1f%% %9.2f %9d %9.3f %9.3f\n",
			k, seats, 100*p, 100*ci, score/n, len(times), mean, p99)
	}
	line, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, string(line))
	return nil
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
