// Package web is botbench's web scenario: the «Стол» page's live updates
// (move → event on every open page, memory per page), and with -flood what
// one person's initData can cost (its Doc below says how).
package web

import (
	"context"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/cmd/botbench/internal/bench"
	"github.com/trickchef/trickchef/cmd/internal/measure"
)

// Scenario is botbench web.
func Scenario() bench.Scenario {
	return bench.Scenario{
		Name:    "web",
		Summary: "the web table's live updates: move → event on every open page, memory per page; -flood: one initData's flood",
		Doc:     doc,
		Flags:   []string{"game", "tables", "people", "conns", "moves", "pace", "seed", "for", "flood", "redis"},
		Defaults: map[string]string{
			"game": "trickchef", "tables": "1,250", "moves": "20", "pace": "0s", "for": "30m",
		},
		Run: runScenario,
	}
}

const doc = `
The live updates of the «Стол» web table: how long a move takes to reach
every open page. It runs a real bot against the fake Bot API (Telegram's
limits on) over a real Redis, with the real page server (bot/web/webapp) on
a local HTTP listener, seats N tables of -game (people only, no robots),
opens -conns event streams per table (each one a player's page, a Go HTTP
client reading the stream) and makes moves through POST /api/act at a
steady pace per table (-pace between two moves of a table; 0: tables/30 s,
at least 0.5 s, about 30 moves a second in all).

	go run ./cmd/botbench web -tables 1,250 -conns 4 -moves 20

What is measured, per table count:
  - move → event: for every move and every open stream, from sending the
    act request to the stream receiving the event with a newer version
    (p50/p99/max over all (move, stream) pairs);
  - act: the act request's own latency (sent → answer read), and the rest,
    answer → event: the change's way to the pages once committed;
  - per stream: heap in use (after a GC) and goroutines with every stream
    open, minus before opening them, divided by the streams. Server and
    clients share this process, so both sides are counted: an upper bound
    of the server's cost.

A table makes its next move only after every stream saw the previous one,
so moves of one table never overlap.

	go run ./cmd/botbench web -flood 1000

measures instead what one person's initData can cost: 1,000 event streams
opened (and kept open) and 1,000 state reads at one table, the process's
heap and goroutines before and after, how many streams stayed open; and the
time a stop takes with 100 streams open (Run's context ends, then the
listener's Shutdown, as cmd/trickchef on SIGTERM). It reads only -game,
-people and -redis besides.
`

// runScenario runs botbench web: a row for each table count, or the floods
// with -flood.
func runScenario(ctx context.Context, o bench.Options, out io.Writer) (any, error) {
	g, err := o.OneGame()
	if err != nil {
		return nil, err
	}
	if lo, hi := g.SeatRange(); o.People < lo || o.People > min(hi, measure.MaxPeople) {
		return nil, bench.Usagef("-people: %s seats %d-%d people, not %d", g.ID(), lo, min(hi, measure.MaxPeople), o.People)
	}
	if err := raiseFileLimit(); err != nil {
		fmt.Fprintln(os.Stderr, "botbench web: file limit:", err)
	}
	if o.Flood > 0 {
		for _, f := range []string{"tables", "conns", "moves", "pace", "seed", "for"} {
			if o.Given(f) {
				return nil, bench.Usagef("-%s: -flood measures one table, one person's streams and reads", f)
			}
		}
		return runFloods(ctx, g.ID(), o.People, o.Redis, o.Flood, out)
	}
	if len(o.Tables) == 0 || o.Conns < 1 || o.Moves < 1 {
		return nil, bench.Usagef("want at least 1 table, 1 stream and 1 move a table")
	}
	var rows []result
	printHeader(out)
	for _, n := range o.Tables {
		cfg := config{
			Game: g.ID(), Tables: n, People: o.People, Conns: o.Conns, Moves: o.Moves, Pace: o.Pace,
			Seed: o.Seed, Timeout: o.For, RedisURL: o.Redis, Log: os.Stderr,
		}
		if cfg.Pace <= 0 {
			cfg.Pace = max(500*time.Millisecond, time.Duration(n)*time.Second/30)
		}
		res, err := run(ctx, cfg)
		if err != nil {
			return map[string]any{"rows": rows}, fmt.Errorf("%d tables: %w", n, err)
		}
		printRow(out, res)
		rows = append(rows, res)
	}
	return map[string]any{"rows": rows}, nil
}

// raiseFileLimit lifts the soft limit of open files to the hard one: each
// stream holds two descriptors here, the client's and the server's.
func raiseFileLimit() error {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return err
	}
	if l.Cur >= l.Max {
		return nil
	}
	l.Cur = l.Max
	return syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
}

// runFloods measures the flood three ways: the server's defaults; reads
// unlimited (the stream caps alone); and 100 streams of several users
// allowed (the stop with 100 streams open).
func runFloods(ctx context.Context, game string, people int, redisURL string, n int, out io.Writer) (any, error) {
	unlimited := webapp.Config{ReadsPerSecond: 1e6, ReadBurst: 1e6}
	runs := []struct {
		name string
		n    int
		cfg  webapp.Config
	}{
		{"defaults", n, webapp.Config{}},
		{"reads unlimited", n, unlimited},
		{"100 streams kept, stop", 100, webapp.Config{ReadsPerSecond: 1e6, ReadBurst: 1e6, StreamsPerUser: 100}},
	}
	var rows []floodResult
	for _, r := range runs {
		res, err := flood(ctx, game, people, redisURL, r.name, r.n, r.cfg, os.Stderr)
		if err != nil {
			return nil, fmt.Errorf("flood %s: %w", r.name, err)
		}
		printFlood(out, res)
		rows = append(rows, res)
	}
	return map[string]any{"floods": rows}, nil
}

func printHeader(w io.Writer) {
	fmt.Fprintln(w, "                                    move → event (ms)      act (ms)              answer → event (ms)  per stream")
	fmt.Fprintln(w, "tables streams  moves  moves/s  samples   p50    p99    max    p50    p99    max    p50    p99        heap KiB  goroutines  missed  refused")
}

func printRow(w io.Writer, r result) {
	fmt.Fprintf(w, "%6d %7d %6d %8.1f %8d %5.1f %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %15.1f %11.2f %7d %8d\n",
		r.Tables, r.Streams, r.Moves, r.MovesPerSec, r.EventN, r.EventP50ms, r.EventP99ms, r.EventMaxms,
		r.ActP50ms, r.ActP99ms, r.ActMaxms, r.FanoutP50ms, r.FanoutP99ms, r.HeapPerStreamKiB, r.GoroutinesPerStream, r.Missed, r.Refused)
}
