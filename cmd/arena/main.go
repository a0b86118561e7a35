// Command arena plays seeded games between AI levels and reports per
// level: win rate with a 95% confidence interval, average score and time
// per decision. -game picks the game: trickchef (Трик-н-Шеф, the default),
// sausages (Сосиски), chef (Меню шефа) or chekharda (Чехарда; real time is
// simulated with each level's reaction times).
//
//	go run ./cmd/arena -games 2000 -players shef,cook,cook,cook -seed 1 -playouts 600
//	go run ./cmd/arena -game sausages -games 2000 -players sly,novice,novice,novice -seed 1
//	go run ./cmd/arena -game chef -games 2000 -players cook,novice,novice,novice -seed 1
//	go run ./cmd/arena -game chekharda -games 2000 -players shef,cook,cook,cook -seed 1
//	go run ./cmd/arena -game sausages -games 2000 -players top,middle,middle,middle -seed 1
//
// Player kinds: for trickchef novice, cook, shef and baseline (the
// engine's Baseline), 3 or 4 of them; for sausages novice (Baseline), sly
// (Sly), sharp (Sharp) and random (a uniformly random legal action,
// seeded), 3 to 6 of them. -playouts and -budget concern the searching levels (trickchef's shef and
// prevshef, chef's shef). For sausages
// the average score is the average number of successes a player had at
// the end of the game (2 for a winner by successes).
//
// Every game also accepts the kinds top, middle and bottom for the levels
// players see in the lobby (hardest, middle, easiest), so a measurement
// does not depend on level names; trickchef also has prevtop, the previous
// top level (prevshef: today's «Шеф» kept beside a new one). The JSON line keeps the
// kinds as given and maps them to the levels played in "levels".
//
// Paired seeds (-paired, the default): games are played in deals of n
// games, n the number of players. A deal is one seed; each of its games
// rotates the seats by one (game r of a deal puts player i in seat
// (i+r) mod n), so every kind sits in every seat on the same cards and the
// luck of the deal cancels out. -games counts games and is rounded up to
// whole deals (the first output line says how many). The 95% confidence
// interval is computed over deals: a deal's value for a kind is its mean
// win share over the deal's games and the kind's seats, and the interval
// is 1.96 standard errors of the mean of those values, so the correlated
// games of one deal (and the seats of one kind in one game) are not
// counted as independent samples. With -paired=false every game has its
// own seed and the seats still rotate every game; the interval is then
// over games.
//
// Games run in parallel on all cores; each game's seed is derived from
// -seed and its deal number, so results do not depend on scheduling (only
// the timings do, and the decisions too if -budget caps the search by
// wall clock).
//
// The last line of output is one JSON object:
//
//	{"games":N,"deals":D,"paired":true,"players":["shef","cook",...],"kinds":["shef","cook"],
//	 "levels":{"shef":"shef","cook":"cook"},
//	 "win_rate":{"shef":0.41,"cook":0.19},"win_ci95":{...},"avg_score":{...},
//	 "decision_ms_mean":{...},"decision_ms_p99":{...},"playouts":600,"budget_ms":0}
//
// with "game":"<id>" added for the other games (trickchef's line has no
// "game" key) and, for chekharda, "races" (see chekharda.go). Every
// per-kind map is keyed by kind as given. A kind that fills several seats
// is averaged over them, so at equal strength every kind's win rate is
// 1/n; a shared win between k players counts 1/k to each.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trickchef/trickchef/game"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(2)
	}
}

// config is the parsed command line.
type config struct {
	game     contest
	games    int
	players  []string // kinds as given (aliases kept)
	levels   []string // the level each player plays (aliases resolved)
	paired   bool
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
	var name, players string
	fs.StringVar(&name, "game", "trickchef", "game to play: trickchef, sausages, chef or chekharda")
	fs.IntVar(&c.games, "games", 100, "games to play")
	fs.StringVar(&players, "players", "", "player kinds, comma-separated (default shef,cook,cook,cook for trickchef, sly,novice,novice,novice for sausages);\n"+
		"trickchef: 3 or 4 of novice, cook, shef, prevshef (the first shef), baseline (the engine's Baseline); sausages: 3 to 6 of novice, sly, sharp, random;\n"+
		"every game: top, middle, bottom (the lobby's hardest, middle, easiest level); trickchef: prevtop")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the run; deal d uses a seed derived from it and d")
	fs.BoolVar(&c.paired, "paired", true, "paired seeds: every deal is played once per rotation of the seats (-games rounded up to whole deals)")
	fs.IntVar(&c.playouts, "playouts", 0, "trickchef and chef: playouts per decision of the searching levels (0: the package default)")
	fs.DurationVar(&c.budget, "budget", 0, "trickchef and chef: wall-clock cap per searching decision (0: none; a cap makes results depend on machine speed)")
	fs.IntVar(&c.workers, "workers", runtime.GOMAXPROCS(0), "games played in parallel")
	fs.BoolVar(&c.progress, "progress", false, "report progress on stderr")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	c.game = contests[name]
	if c.game == nil {
		return c, fmt.Errorf("unknown game %q (trickchef, sausages, chef or chekharda)", name)
	}
	if players == "" {
		players = c.game.defaultPlayers()
	}
	aliases := c.game.aliases()
	for _, p := range strings.Split(players, ",") {
		p = strings.TrimSpace(p)
		l, alias := aliases[p]
		if !alias {
			l = p
		}
		if !slices.Contains(c.game.kinds(), l) {
			if alias {
				return c, fmt.Errorf("%s: %s stands for level %q, which this build's %s engine does not offer", name, p, l, name)
			}
			return c, fmt.Errorf("unknown %s level %q (want one of %s, or %s)", name, p,
				strings.Join(c.game.kinds(), ", "), strings.Join(slices.Sorted(maps.Keys(aliases)), ", "))
		}
		c.players = append(c.players, p)
		c.levels = append(c.levels, l)
	}
	if lo, hi := c.game.seats(); len(c.players) < lo || len(c.players) > hi {
		return c, fmt.Errorf("%s needs %d to %d players", name, lo, hi)
	}
	if c.games < 1 || c.workers < 1 {
		return c, errors.New("games and workers must be positive")
	}
	if n := c.perDeal(); c.games%n != 0 {
		c.games += n - c.games%n
	}
	return c, nil
}

// perDeal is the number of games played on one seed.
func (c *config) perDeal() int {
	if c.paired {
		return len(c.players)
	}
	return 1
}

// contest is a game the arena can run (see games.go).
type contest interface {
	name() string
	kinds() []string // accepted player kinds
	// aliases maps top, middle, bottom (and prevtop where there is one)
	// to kinds; a kind missing from kinds() is refused when asked for.
	aliases() map[string]string
	defaultPlayers() string // -players when not given
	seats() (lo, hi int)    // accepted number of players
	scoreLabel() string     // what avg_score averages, as a column header
	about(c *config) string // settings for the first output line
	newTable(c *config, players int, seed uint64) (table, error)
}

// table is one game in progress.
type table interface {
	// toAct lists the seats to act now; the arena applies one action for
	// each, in this order, then asks again. Empty once the game is over.
	toAct() []game.Seat
	// decide returns level's action for seat s and the time the AI took
	// (building the seat's view not included).
	decide(level string, s game.Seat, seed uint64) (game.Action, time.Duration)
	apply(s game.Seat, a game.Action) error
	// result is the score per seat and the winners, once over.
	result() (scores []int, winners []game.Seat)
}

// racer is a table that counts races between levels (real-time games):
// "a>b" is a race that level a won against level b.
type racer interface {
	races() map[string]int
}

// contests are the games by -game name.
var contests = map[string]contest{
	"trickchef": trickchefGame{},
	"sausages":  sausagesGame{},
	"chef":      chefGame{},
	"chekharda": chekhardaGame{},
}

// outcome is one game's result per player (index into config.players).
type outcome struct {
	share []float64 // win share: 1/k for each of k winners
	score []int
	times [][]float64 // per player: decision times in ms
	trace uint64      // hash of the seats and actions in order, and the result by seat
	races map[string]int
}

// gameSeed spreads game numbers over the seed space (splitmix64).
func gameSeed(seed uint64, g int) uint64 {
	z := seed + uint64(g+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// playGame plays game g: deal g/perDeal, seats rotated by g (so unpaired
// runs still rotate the seats every game).
func playGame(c *config, g int) (outcome, error) {
	n := len(c.players)
	gs := gameSeed(c.seed, g/c.perDeal())
	t, err := c.game.newTable(c, n, gs)
	if err != nil {
		return outcome{}, err
	}
	// Seat s holds player (s - g) mod n: player i sits in seat (i + g) mod n.
	player := func(s game.Seat) int { return ((int(s)-g)%n + n) % n }
	o := outcome{share: make([]float64, n), score: make([]int, n), times: make([][]float64, n)}
	h := fnv.New64a()
	step := uint64(0)
	for to := t.toAct(); len(to) > 0; to = t.toAct() {
		for _, s := range to {
			p := player(s)
			// The decision seed depends on the deal and the step only, so
			// equal levels in a rotated deal decide alike.
			a, d := t.decide(c.levels[p], s, gs^(step+1)*0x2545f4914f6cdd1d)
			o.times[p] = append(o.times[p], float64(d.Nanoseconds())/1e6)
			if err := t.apply(s, a); err != nil {
				return o, fmt.Errorf("game %d step %d: %s played %d: %w", g, step, c.players[p], a, err)
			}
			fmt.Fprintf(h, "%d:%d,", s, a)
			step++
		}
	}
	scores, winners := t.result()
	fmt.Fprintf(h, "=%v%v", scores, winners)
	o.trace = h.Sum64()
	if r, ok := t.(racer); ok {
		o.races = r.races()
	}
	for s, sc := range scores {
		o.score[player(game.Seat(s))] = sc
	}
	for _, w := range winners {
		o.share[player(w)] += 1 / float64(len(winners))
	}
	return o, nil
}

// summary is the JSON last line.
type summary struct {
	Games    int                `json:"games"`
	Deals    int                `json:"deals"`
	Paired   bool               `json:"paired"`
	Game     string             `json:"game,omitempty"` // absent for trickchef, as before -game
	Players  []string           `json:"players"`
	Kinds    []string           `json:"kinds"`
	Levels   map[string]string  `json:"levels"` // kind as given → level played
	WinRate  map[string]float64 `json:"win_rate"`
	WinCI95  map[string]float64 `json:"win_ci95"`
	AvgScore map[string]float64 `json:"avg_score"`
	MeanMS   map[string]float64 `json:"decision_ms_mean"`
	P99MS    map[string]float64 `json:"decision_ms_p99"`
	Races    map[string]int     `json:"races,omitempty"` // real time: "a>b" races level a won against b
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
		Games: c.games, Deals: c.games / c.perDeal(), Paired: c.paired, Players: c.players, Playouts: c.playouts,
		Levels:   map[string]string{},
		BudgetMS: float64(c.budget.Microseconds()) / 1000, Seconds: time.Since(start).Seconds(),
		WinRate: map[string]float64{}, WinCI95: map[string]float64{}, AvgScore: map[string]float64{},
		MeanMS: map[string]float64{}, P99MS: map[string]float64{},
	}
	for i, l := range c.players {
		if !slices.Contains(sum.Kinds, l) {
			sum.Kinds = append(sum.Kinds, l)
		}
		sum.Levels[l] = c.levels[i]
	}
	if c.game.name() != "trickchef" {
		sum.Game = c.game.name()
	}
	pairing := "unpaired seeds"
	if c.paired {
		pairing = fmt.Sprintf("paired seeds: %d deals × %d seat rotations", sum.Deals, c.perDeal())
	}
	fmt.Fprintf(stdout, "%d games (%s), players %v = levels %v, %s, %.0fs\n",
		c.games, pairing, c.players, c.levels, c.game.about(&c), sum.Seconds)
	fmt.Fprintf(stdout, "%-7s %5s %18s %9s %9s %9s %9s\n", "kind", "seats", "win rate (95% CI)", c.game.scoreLabel(), "decisions", "mean ms", "p99 ms")
	for _, k := range sum.Kinds {
		var score float64
		var times []float64
		seats := 0
		deal := make([]float64, sum.Deals) // the kind's win share per deal
		for i, l := range c.players {
			if l != k {
				continue
			}
			seats++
			for g, o := range outs {
				deal[g/c.perDeal()] += o.share[i]
				score += float64(o.score[i])
				times = append(times, o.times[i]...)
			}
		}
		n := float64(c.games * seats)
		p, ci := meanCI95(deal, float64(c.perDeal()*seats))
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
		key := k
		sum.WinRate[key], sum.WinCI95[key], sum.AvgScore[key] = round4(p), round4(ci), round4(score/n)
		sum.MeanMS[key], sum.P99MS[key] = round4(mean), round4(p99)
		fmt.Fprintf(stdout, "%-7s %5d %8.1f%% ± %5.1f%% %9.2f %9d %9.3f %9.3f\n",
			k, seats, 100*p, 100*ci, score/n, len(times), mean, p99)
	}
	for _, o := range outs {
		for k, n := range o.races {
			if sum.Races == nil {
				sum.Races = map[string]int{}
			}
			sum.Races[k] += n
		}
	}
	printRaces(stdout, sum.Races)
	line, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, string(line))
	return nil
}

// printRaces prints, for each level and each rival (another level, or the
// quiet pause), how often it came first when both wanted to act.
func printRaces(w io.Writer, races map[string]int) {
	if len(races) == 0 {
		return
	}
	fmt.Fprintln(w, "races (both wanted to act; first to act wins):")
	for _, k := range slices.Sorted(maps.Keys(races)) {
		a, b, _ := strings.Cut(k, ">")
		won, lost := races[k], races[b+">"+a]
		fmt.Fprintf(w, "  %s first against %s: %d of %d (%.1f%%)\n", a, b, won, won+lost, 100*float64(won)/float64(won+lost))
	}
}

// meanCI95 is the mean of xs/per and the half-width of its 95% confidence
// interval (normal approximation, 1.96 standard errors of the mean; the
// samples are the deals, independent of each other).
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

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
