// Package load is botbench's load scenario: the updates a second one bot
// process applies against a real Redis, and what each table costs there
// (its Doc below says how).
package load

import (
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/trickchef/trickchef/cmd/botbench/internal/bench"
)

// Scenario is botbench load.
func Scenario() bench.Scenario {
	return bench.Scenario{
		Name:    "load",
		Summary: "updates a second one bot process applies, and Redis bytes per table (Telegram answers at once)",
		Doc:     doc,
		Flags:   []string{"game", "tables", "people", "clients", "for", "system-pace", "games-per-table", "redis"},
		Defaults: map[string]string{
			"tables": "10,100,1000", "people": "3", "for": "10s",
		},
		Run: runScenario,
	}
}

const doc = `
The updates a second one bot process applies against a real Redis, and what
each table costs there. Telegram is replaced by an in-process stand-in that
answers at once, so the numbers are the bot's own (Redis round trips,
engine, rendering).

Throughput (the delivery worker runs with the production rate limits):

	go run ./cmd/botbench load -tables 10,100,1000,10000 -for 10s

For every game the bot offers in turn (or the one given with -game), and
every table count, it opens a game at each table as people do
(/newgame <game>, «join», «start»), then presses random legal moves from
-clients senders and prints the moves applied per second, the apply
latency and Redis memory per table; the last line is JSON with every
result. It fails (exit 1) when a table is not in play after setup or when
the load applied no move.

-system-pace full (the default) measures the bot rather than a game's
clock. The senders press whenever anything is legal, so a real-time game
(Чехарда) waits only for its system moves: the next round after a pause for
reading the results (8 s), and the few deals the bot makes when it gets to
the table (when a deal leaves nobody able to act; a person's move that does
so is followed by the deal in the same change). At full pace, as soon as
only the system may act at a table, the driver brings the system's timer
forward to now and puts the table first in the bot's timer line, and the
bot makes that move through its ordinary path; only the wait is skipped.
-system-pace game keeps the bot's timers in real time. The output says
which pace ran, and how often a sender found a table waiting for the
system.

Storage over time:

	go run ./cmd/botbench load -tables 1000 -games-per-table 20

Every table plays that many games in a row, each to its end; Redis is
measured per table after game 1, 5, 10, every 10th and the last, by kind
of key. A table's state must stay flat: the check fails (exit 1) when it
grew more than 20% from the first game to the last. Logs that grow with
traffic up to a bound of their own (applied update ids, kept 24 h) and
rate-limit windows (gone within seconds) are reported apart.

-cpuprofile cpu.out and go tool pprof show where the time goes.
`

// runScenario runs botbench load: the storage check with -games-per-table,
// else throughput, for every game and table count.
func runScenario(ctx context.Context, o bench.Options, out io.Writer) (any, error) {
	gs, err := o.Games()
	if err != nil {
		return nil, err
	}
	p, ok := parsePace(o.SystemPace)
	if !ok {
		return nil, bench.Usagef(`-system-pace must be "full" or "game", not %q`, o.SystemPace)
	}
	if o.Clients < 1 {
		return nil, bench.Usagef("-clients must be at least 1")
	}
	if len(o.Tables) == 0 {
		return nil, bench.Usagef("-tables: at least one table count")
	}
	cfg := loadConfig{Duration: o.For, Clients: o.Clients, People: o.People, Pace: p, RedisURL: o.Redis}
	fmt.Fprintln(out, "pace:", cfg.Pace)

	if o.GamesPerTable > 0 {
		var reports []storageReport
		flat := true
		for _, g := range gs {
			for _, n := range o.Tables {
				fmt.Fprintf(out, "%s, %d tables × %d games, %d people each:\n", g.ID(), n, o.GamesPerTable, cfg.People)
				rep, err := storage(ctx, g, n, o.GamesPerTable, cfg, out)
				if err != nil {
					return nil, err // the checkpoints so far are printed
				}
				printVerdict(out, rep)
				flat = flat && rep.Flat
				reports = append(reports, rep)
			}
		}
		res := map[string]any{"clients": cfg.Clients, "people": cfg.People, "pace": cfg.Pace.name(), "storage": reports}
		if !flat {
			return res, fmt.Errorf("a table's state grows with the games it played (more than %.0f%%)", maxGrowth*100)
		}
		return res, nil
	}

	var results []result
	for _, g := range gs {
		for _, n := range o.Tables {
			r, err := throughput(ctx, g, n, cfg)
			if err != nil {
				return summary(cfg, results), err // what was measured stays usable
			}
			fmt.Fprintf(out, "%-10s %6d tables: %7.0f updates/s, apply p50 %.2f ms, p99 %.2f ms, Redis %d bytes/table (keys %d) (setup %.1f s, %d games opened during the load, %d waits for the system, %d of its timers brought forward)\n",
				r.Game, r.Tables, r.UpdatesPerSec, r.P50ms, r.P99ms, r.BytesPerTable, r.KeyBytesPerTable, r.SetupSeconds, r.Games, r.Waits, r.Hurried)
			results = append(results, r)
		}
	}
	return summary(cfg, results), nil
}

// summary is the throughput's JSON line.
func summary(cfg loadConfig, results []result) map[string]any {
	return map[string]any{"clients": cfg.Clients, "people": cfg.People, "pace": cfg.Pace.name(), "duration_s": cfg.Duration.Seconds(), "results": results}
}

// printVerdict tells whether a table's state stayed flat, and how the
// bounded logs grew per game.
func printVerdict(w io.Writer, rep storageReport) {
	first, last := rep.Checkpoints[0], rep.Checkpoints[len(rep.Checkpoints)-1]
	verdict := "flat"
	if !rep.Flat {
		verdict = fmt.Sprintf("GROWS (limit +%.0f%%)", maxGrowth*100)
	}
	fmt.Fprintf(w, "  state per table: %d bytes after game %d, %d after game %d (%+.1f%%): %s\n",
		first.State, first.Games, last.State, last.Games, rep.Growth*100, verdict)
	if !rep.Flat {
		for _, k := range grown(first, last) {
			fmt.Fprintf(w, "    %s: %d → %d bytes per table\n", k, first.Kinds[k], last.Kinds[k])
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
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "  %d moves in %.0f s\n", last.Moves, rep.Seconds)
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
