// Command aibench measures the robots, driving them only through the games'
// adapters (adapter.RobotGame, HintGame, ReviewGame, DealGame, ClockGame,
// MemoryGame, YardstickGame) and the list the bot offers
// (cmd/games): it has no code of any one game. Subcommands share
// one set of flags:
//
//	aibench arena  -game G -games N -players KIND,... -seed S [-paired] [-workers W] [-playouts P] [-budget D]
//	aibench hint   [-game G] -positions N [-budget D]
//	aibench review -game G -games N -seed S [-players KIND,...] [-playouts P] [-workers W]
//	aibench deal   -reveal R [-log FILE] [-lang ru|en]
//
// arena plays seeded games between robot levels and reports per kind the
// win rate with a 95% confidence interval, the average score and the time
// per decision (docs/ai.md «The arena»). hint times hints at seeded
// positions of random play. review plays seeded games of the levels
// against each other and reviews every seat as «🔍 Разбор» would, and
// reports the mean accuracy per level and the CPU a review costs. deal
// prints the deals a reveal gives (with the game's moves, every later
// shuffle too).
//
// A player KIND is one of the game's robot levels (adapter.RobotGame's
// Levels), top, middle or bottom (its last, middle and first), a name of
// a yardstick level the adapter keeps (adapter.YardstickGame: Трик-н-Шеф's
// prevtop and baseline), or random (a uniformly random legal move, seeded).
// The last line of arena, hint (one per game) and review is JSON.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/cmd/games"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return // asked for help: it went to stdout
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "aibench:", err)
		os.Exit(2)
	}
}

// options are the flags every subcommand shares (each reads those it
// needs).
type options struct {
	game      string
	games     int
	players   string
	seed      uint64
	paired    bool
	workers   int
	playouts  int
	budget    time.Duration
	positions int
	reveal    string
	log       string
	lang      string
	progress  bool
	set       map[string]bool // the flags given
}

// subcommands by name.
var subcommands = map[string]func(o *options, stdout, stderr io.Writer) error{
	"arena":  runArena,
	"hint":   runHint,
	"review": runReview,
	"deal":   runDeal,
}

const usage = "usage: aibench arena|hint|review|deal [flags] (go doc ./cmd/aibench)"

// overview is aibench -h, as botbench -h: what it measures, its
// subcommands, and where each one's flags are told.
const overview = `aibench measures the robots through the games' adapters, over every game
the bot offers. The last line of arena, hint (one per game) and review is JSON.

usage: go run ./cmd/aibench <subcommand> [flags]

subcommands:
  arena   seeded games between robot levels: win rate with a 95% interval, score, time per decision
  hint    times hints at seeded positions of random play
  review  reviews seeded games of the levels as «🔍 Разбор» would: mean accuracy per level, CPU a review costs
  deal    prints the deals a reveal gives (-reveal, -log)

go run ./cmd/aibench <subcommand> -h lists the flags; a flag means the same
in every subcommand that reads it (go doc ./cmd/aibench tells more).
`

// run runs aibench's command line; flag.ErrHelp when help was asked for
// (and printed to stdout).
func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, overview)
		return errors.New("a subcommand is required")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, overview)
		return flag.ErrHelp
	}
	sub, ok := subcommands[args[0]]
	if !ok {
		return fmt.Errorf("unknown subcommand %q; %s", args[0], usage)
	}
	out := stderr
	if slices.ContainsFunc(args[1:], func(a string) bool { return a == "-h" || a == "-help" || a == "--help" }) {
		out = stdout // asked for: the flags are the answer
	}
	o, err := parseFlags(args[0], args[1:], out)
	if err != nil {
		return err
	}
	return sub(o, stdout, stderr)
}

func parseFlags(name string, args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("aibench "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	fs.StringVar(&o.game, "game", "", "game id (arena and review: default trickchef; hint: every game)")
	fs.IntVar(&o.games, "games", 100, "arena, review: games to play")
	fs.StringVar(&o.players, "players", "", "arena, review: player kinds, comma-separated (arena: default top,middle,middle,middle or as many as the game seats; review: every level once)")
	fs.Uint64Var(&o.seed, "seed", 1, "arena, review: seed of the run; deal d uses a seed derived from it and d")
	fs.BoolVar(&o.paired, "paired", true, "arena, review: every deal is played once per rotation of the seats (-games rounded up to whole deals)")
	fs.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "arena, review: games played in parallel")
	fs.IntVar(&o.playouts, "playouts", 0, "arena, review: a searching robot's budget as a count (0: each level's default)")
	fs.DurationVar(&o.budget, "budget", 0, "arena: wall-clock cap per searching decision (0: none; a cap makes results depend on machine speed); hint: the robots' time per decision (default 200ms, AI_BUDGET's)")
	fs.IntVar(&o.positions, "positions", 400, "hint: positions per game")
	fs.StringVar(&o.reveal, "reveal", "", "deal: the reveal the table showed after 🔓")
	fs.StringVar(&o.log, "log", "", `deal: the game's file (<game>-<n>.json, sent to the players after the game): every round, the seats by name; for a v1 reveal also the moves as the table record keeps them ("0:13 2:12!")`)
	fs.StringVar(&o.lang, "lang", "ru", "deal: the language of the deal's words (ru, en)")
	fs.BoolVar(&o.progress, "progress", false, "arena, review: report progress on stderr")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	if o.games < 1 || o.workers < 1 || o.positions < 1 || o.playouts < 0 || o.budget < 0 {
		return nil, errors.New("games, workers and positions must be positive, playouts and budget not negative")
	}
	return o, nil
}

// gameByID is the bot's game of that id.
func gameByID(id string) (adapter.Game, error) {
	var ids []string
	for _, g := range games.All() {
		if g.ID() == id {
			return g, nil
		}
		ids = append(ids, g.ID())
	}
	return nil, fmt.Errorf("unknown game %q (%s)", id, strings.Join(ids, ", "))
}
