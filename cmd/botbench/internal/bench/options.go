package bench

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/cmd/internal/measure"
)

// Options are botbench's flags: one set, each with one meaning in every
// scenario that reads it. A scenario names the ones it reads and may give
// them defaults of its own (Scenario.Flags, Scenario.Defaults).
type Options struct {
	Game   string        // -game: a game id, or "all"
	Redis  string        // -redis
	Tables []int         // -tables: table counts, one measurement each
	People int           // -people: simulated people at each table
	Robots int           // -robots: robots at each table
	Pace   time.Duration // -pace: the time a move takes a person
	Moves  int           // -moves: stop each table after this many moves (0: at the game's end)
	Seed   uint64        // -seed: of the people's choices and thinking times
	// For is a run's length (-for), the one name every scenario reads it
	// by: load, press and long run this long; pace, web and practice end
	// with their games and give up after it.
	For         time.Duration
	TurnTimeout time.Duration // -turn-timeout: the bot's TURN_TIMEOUT
	AIDelay     time.Duration // -ai-delay: the bot's AI_DELAY
	Clients     int           // -clients: concurrent update senders
	// SystemPace is "full" or "game" (-system-pace): when the system's
	// own moves (a deal, the next round) come at full load.
	SystemPace    string
	GamesPerTable int     // -games-per-table: whole games in a row at every table
	Pages         bool    // -pages: people play through their open «Стол» pages
	Hands         string  // -hands: "private" or "group", where people play from
	Conns         int     // -conns: open event streams per table
	Flood         int     // -flood: requests of one initData's flood
	FloodRate     float64 // -flood-rate: presses a second of one flooding person
	Reviews       int     // -reviews: reviews of Трик-н-Шеф queued when the load starts
	ReviewShare   float64 // -review-share: the part of a core a review worker uses (bot.Config.ReviewShare)
	Rounds        int     // -rounds: rounds of a cup
	CPUProfile    string  // -cpuprofile: read by Main, for every scenario

	given map[string]bool
}

// define declares every flag on fs with its own default, once.
func (o *Options) define(fs *flag.FlagSet) {
	fs.StringVar(&o.Game, "game", "all", `game to play: a game id, or "all" for every game the bot offers, in turn`)
	fs.StringVar(&o.Redis, "redis", measure.EnvOr("REDIS_URL", "redis://127.0.0.1:6379/0"),
		"Redis to use (`URL`; redis-cluster://h1:p1,h2:p2 for a Cluster); the keys, under a fresh prefix, are removed at the end")
	fs.Var((*counts)(&o.Tables), "tables", "table `counts`, comma-separated: one measurement for each, one after another")
	fs.IntVar(&o.People, "people", 4, "simulated people at each table (cup: in the cup)")
	fs.IntVar(&o.Robots, "robots", 0, "robots at each table")
	fs.DurationVar(&o.Pace, "pace", 2*time.Second,
		"the time a move takes a person: their mean thinking time, each move taking 0.5–1.5 times it (web: exactly, between two moves of a table; 0: tables/30 s, at least 0.5 s)")
	fs.IntVar(&o.Moves, "moves", 0, "stop each table after this many applied moves (0: play every game to its end)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the people's choices and thinking times: the same seed, the same games")
	fs.DurationVar(&o.For, "for", time.Minute,
		"a run's length (for each table count): load, press and long run this long; pace, web and practice end with their games and give up after it")
	fs.DurationVar(&o.TurnTimeout, "turn-timeout", bot.DefaultConfig().TurnTimeout, "the bot's turn timeout (TURN_TIMEOUT)")
	fs.DurationVar(&o.AIDelay, "ai-delay", bot.DefaultConfig().AIDelay, "the robots' pause before a move (AI_DELAY)")
	fs.IntVar(&o.Clients, "clients", 8, "concurrent update senders")
	fs.StringVar(&o.SystemPace, "system-pace", "full",
		`when the system moves (a deal, the next round): "full": as soon as only the system may act, its timer brought forward; "game": after the game's own pauses`)
	fs.IntVar(&o.GamesPerTable, "games-per-table", 0,
		"storage check instead of throughput: play this many whole games in a row at every table and measure Redis after game 1, 5, 10, 20, …")
	fs.BoolVar(&o.Pages, "pages", false, "every person keeps the table's «Стол» page open and visible and plays through it, not the chat's buttons")
	fs.StringVar(&o.Hands, "hands", "private",
		`where people play from: "private": their hands in their private chats; "group": they press «Мои карты» under the group's table once and play from the hands shown to them in the group`)
	fs.IntVar(&o.Conns, "conns", 4, "open event streams per table (each one a player's page, players in turn)")
	fs.IntVar(&o.Flood, "flood", 0,
		"one person's flood instead of the live updates: N event-stream attempts and N state reads from one initData, then a stop with the streams open")
	fs.Float64Var(&o.FloodRate, "flood-rate", 20, "presses a second of one flooding person (the last at the first table; 0: nobody floods)")
	fs.IntVar(&o.Reviews, "reviews", 0, "reviews («🔍 Разбор») of whole Трик-н-Шеф games queued for the bot's pool as the load starts, each up to about a second of a core")
	fs.Float64Var(&o.ReviewShare, "review-share", 0.25, "the part of a core a review worker uses while it reviews (1: unpaced)")
	fs.IntVar(&o.Rounds, "rounds", 3, "rounds of a cup (/cup <game> <rounds>: 1–10)")
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write a CPU profile of the whole run to this `file` (go tool pprof reads it)")
}

// Given reports whether the flag was on the command line (not its default).
func (o Options) Given(name string) bool { return o.given[name] }

// Games are the games -game names: one, or every game the bot offers
// (cmd/games) for "all".
func (o Options) Games() ([]adapter.Game, error) {
	if o.Game == "all" {
		return games.All(), nil
	}
	g, err := o.OneGame()
	if err != nil {
		return nil, err
	}
	return []adapter.Game{g}, nil
}

// OneGame is the game -game names, for a scenario that plays one.
func (o Options) OneGame() (adapter.Game, error) {
	if o.Game == "all" {
		return nil, Usagef("-game: this scenario plays one game (%s), not all", strings.Join(gameIDs(), ", "))
	}
	g, err := FindGame(o.Game)
	if err != nil {
		return nil, Usagef("-game: %v", err)
	}
	return g, nil
}

// FindGame returns the game the bot offers under id.
func FindGame(id string) (adapter.Game, error) {
	for _, g := range games.All() {
		if g.ID() == id {
			return g, nil
		}
	}
	return nil, fmt.Errorf("unknown game %q (have %s)", id, strings.Join(gameIDs(), ", "))
}

func gameIDs() []string {
	var ids []string
	for _, g := range games.All() {
		ids = append(ids, g.ID())
	}
	return ids
}

// OneCount is the only table count of -tables, for a scenario that
// measures one.
func (o Options) OneCount() (int, error) {
	if len(o.Tables) != 1 {
		return 0, Usagef("-tables: this scenario measures one table count, not %d", len(o.Tables))
	}
	return o.Tables[0], nil
}

// counts is the flag.Value of -tables; "" is no count.
type counts []int

func (c *counts) String() string {
	if c == nil {
		return ""
	}
	s := make([]string, len(*c))
	for i, n := range *c {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ",")
}

func (c *counts) Set(v string) error {
	if v == "" {
		*c = nil
		return nil
	}
	ns, err := measure.ParseCounts(v)
	if err != nil {
		return err
	}
	*c = ns
	return nil
}
