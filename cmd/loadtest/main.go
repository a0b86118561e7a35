// Command loadtest measures how many updates one bot process applies per
// second against a real Redis, and what each table costs there. Telegram is
// replaced by an in-process stand-in that answers at once, so the numbers
// are the bot's own (Redis round trips, engine, rendering).
//
// Throughput (the delivery worker runs with the production rate limits):
//
//	go run ./cmd/loadtest -tables 10,100,1000,10000 -duration 10s
//
// For every game the bot offers in turn (or the one given with -game), and
// every table count, it opens a game at each table as people do
// (/newgame <game>, «join», «start»), then presses random legal moves from
// -clients senders and prints the moves applied per second, the apply
// latency and Redis memory per table; the last line is JSON with every
// result. It fails (exit 1) when a table is not in play after setup or when
// the load applied no move.
//
// -pace full (the default) measures the bot rather than a game's clock. The
// senders press whenever anything is legal, so a real-time game (Чехарда)
// waits only for its system moves: the next round after a pause for reading
// the results (8 s), and the few deals the bot's worker makes when it gets
// to the table (when a deal leaves nobody able to act; a person's move that
// does so is followed by the deal in the same change). At full pace, as soon as
// only the system may act at a table, the driver brings the system's timer
// forward to now and puts the table first in the worker's line, and the
// bot's worker makes that move through its ordinary path; only the wait is
// skipped. -pace game keeps the bot's timers in real time. The output says
// which pace ran, and how often a sender found a table waiting for the
// system.
//
// Storage over time:
//
//	go run ./cmd/loadtest -tables 1000 -games-per-table 20
//
// Every table plays that many games in a row, each to its end; Redis is
// measured per table after game 1, 5, 10, every 10th and the last, by kind
// of key. A table's state must stay flat: the check fails (exit 1) when it
// grew more than 20% from the first game to the last. Logs that grow with
// traffic up to a bound of their own (applied update ids, kept 24 h) and
// rate-limit windows (gone within seconds) are reported apart.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/cmd/internal/games"
	"github.com/trickchef/trickchef/cmd/internal/measure"
)

func main() {
	counts := flag.String("tables", "10,100,1000", "table counts to measure, comma-separated")
	duration := flag.Duration("duration", 10*time.Second, "load time per table count")
	clients := flag.Int("clients", 8, "concurrent update senders (the storage check plays every table at once)")
	people := flag.Int("people", 3, "people at each table")
	gameID := flag.String("game", "all", `game to play: a game id, or "all" for every game the bot offers in turn`)
	paceName := flag.String("pace", "full", `"full": system moves (deals, next rounds) as soon as only the system may act; "game": after the game's own pauses`)
	perTable := flag.Int("games-per-table", 0, "storage check: play this many games in a row at every table and measure Redis after game 1, 5, 10, 20, …")
	redisURL := flag.String("redis", measure.EnvOr("REDIS_URL", "redis://127.0.0.1:6379/0"), "Redis to use")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file (go tool pprof reads it)")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fail(2, err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(2, err)
		}
		defer pprof.StopCPUProfile()
	}
	ns, err := measure.ParseCounts(*counts)
	if err != nil {
		fail(2, err)
	}
	gs, err := pickGames(*gameID)
	if err != nil {
		fail(2, err)
	}
	p, ok := parsePace(*paceName)
	if !ok {
		fail(2, fmt.Errorf(`-pace must be "full" or "game", not %q`, *paceName))
	}
	if *clients < 1 {
		fail(2, fmt.Errorf("-clients must be at least 1"))
	}
	cfg := loadConfig{Duration: *duration, Clients: *clients, People: *people, Pace: p, RedisURL: *redisURL}
	fmt.Println("pace:", cfg.Pace)
	// Interrupted, a measurement stops and still deletes its keys.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *perTable > 0 {
		var reports []storageReport
		flat := true
		for _, g := range gs {
			for _, n := range ns {
				fmt.Printf("%s, %d tables × %d games, %d people each:\n", g.ID(), n, *perTable, cfg.People)
				rep, err := storage(ctx, g, n, *perTable, cfg, os.Stdout)
				if err != nil {
					fail(1, err) // the checkpoints so far are printed
				}
				printVerdict(rep)
				flat = flat && rep.Flat
				reports = append(reports, rep)
			}
		}
		out, _ := json.Marshal(map[string]any{"clients": cfg.Clients, "people": cfg.People, "pace": cfg.Pace.name(), "storage": reports})
		fmt.Println(string(out))
		if !flat {
			fail(1, fmt.Errorf("a table's state grows with the games it played (more than %.0f%%)", maxGrowth*100))
		}
		return
	}

	var results []result
	for _, g := range gs {
		for _, n := range ns {
			r, err := throughput(ctx, g, n, cfg)
			if err != nil {
				printResults(cfg, results) // what was measured stays usable
				fail(1, err)
			}
			fmt.Printf("%-10s %6d tables: %7.0f updates/s, apply p50 %.2f ms, p99 %.2f ms, Redis %d bytes/table (keys %d) (setup %.1f s, %d games opened during the load, %d waits for the system, %d of its timers brought forward)\n",
				r.Game, r.Tables, r.UpdatesPerSec, r.P50ms, r.P99ms, r.BytesPerTable, r.KeyBytesPerTable, r.SetupSeconds, r.Games, r.Waits, r.Hurried)
			results = append(results, r)
		}
	}
	printResults(cfg, results)
}

func printResults(cfg loadConfig, results []result) {
	out, _ := json.Marshal(map[string]any{"clients": cfg.Clients, "people": cfg.People, "pace": cfg.Pace.name(), "duration_s": cfg.Duration.Seconds(), "results": results})
	fmt.Println(string(out))
}

// printVerdict tells whether a table's state stayed flat, and how the
// bounded logs grew per game.
func printVerdict(rep storageReport) {
	first, last := rep.Checkpoints[0], rep.Checkpoints[len(rep.Checkpoints)-1]
	verdict := "flat"
	if !rep.Flat {
		verdict = fmt.Sprintf("GROWS (limit +%.0f%%)", maxGrowth*100)
	}
	fmt.Printf("  state per table: %d bytes after game %d, %d after game %d (%+.1f%%): %s\n",
		first.State, first.Games, last.State, last.Games, rep.Growth*100, verdict)
	if !rep.Flat {
		for _, k := range grown(first, last) {
			fmt.Printf("    %s: %d → %d bytes per table\n", k, first.Kinds[k], last.Kinds[k])
		}
	}
	var kinds []string
	for k := range last.Kinds {
		if class, _ := classify(k); class == classLog {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	games := float64(last.Games - first.Games)
	for _, k := range kinds {
		_, bound := classify(k)
		line := fmt.Sprintf("  %s (%s): %d → %d bytes per table", k, bound, first.Kinds[k], last.Kinds[k])
		if games > 0 {
			line += fmt.Sprintf(", %+.0f a game", float64(last.Kinds[k]-first.Kinds[k])/games)
		}
		if k == "table:upd" && last.UpdateIDs > 0 {
			line += fmt.Sprintf("; %.0f ids, %.0f bytes an id", last.UpdateIDs, float64(last.Kinds[k])/last.UpdateIDs)
		}
		fmt.Println(line)
	}
	fmt.Printf("  %d moves in %.0f s\n", last.Moves, rep.Seconds)
}

// grown lists the kinds of state key that grew, most first.
func grown(first, last checkpoint) []string {
	var out []string
	for k, b := range last.Kinds {
		if class, _ := classify(k); class == classState && b > first.Kinds[k] {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return last.Kinds[out[i]]-first.Kinds[out[i]] > last.Kinds[out[j]]-first.Kinds[out[j]]
	})
	return out
}

func pickGames(id string) ([]adapter.Game, error) {
	if id == "all" {
		return games.All(), nil
	}
	var ids []string
	for _, g := range games.All() {
		if g.ID() == id {
			return []adapter.Game{g}, nil
		}
		ids = append(ids, g.ID())
	}
	return nil, fmt.Errorf("unknown game %q (have %s, or all)", id, strings.Join(ids, ", "))
}

func fail(code int, err error) {
	fmt.Fprintln(os.Stderr, "loadtest:", err)
	os.Exit(code)
}
