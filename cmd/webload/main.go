// Command webload measures the live updates of the «Стол» web table: how
// long a move takes to reach every open page. It runs a real bot against
// the fake Bot API (Telegram's limits on) over a real Redis, with the real
// page server (bot/webapp) on a local HTTP listener, seats N tables of
// Трик-н-Шеф (people only, no robots), opens C event streams per table
// (each one a player's page, a Go HTTP client reading the stream) and
// makes moves through POST /api/act at a steady pace per table.
//
//	go run ./cmd/webload -tables 1,250 -conns 4 -moves 20
//
// What is measured, per table count:
//   - move → event: for every move and every open stream, from sending
//     the act request to the stream receiving the event with a newer
//     version (p50/p99/max over all (move, stream) pairs);
//   - act: the act request's own latency (sent → answer read), and the
//     rest, answer → event: the change's way to the pages once committed;
//   - per stream: heap in use (after a GC) and goroutines with every
//     stream open, minus before opening them, divided by the streams.
//     Server and clients share this process, so both sides are counted:
//     an upper bound of the server's cost.
//
// A table makes its next move only after every stream saw the previous
// one, so moves of one table never overlap. The last line is one JSON
// object with the numbers.
//
//	go run ./cmd/webload -flood 1000
//
// measures instead what one person's initData can cost: 1,000 event
// streams opened (and kept open) and 1,000 state reads, the process's heap
// and goroutines before and after, how many streams stayed open; and the
// time a stop takes with 100 streams open (Run's context ends, then the
// listener's Shutdown, as cmd/trickchef on SIGTERM).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/cmd/internal/measure"
)

func main() {
	tables := flag.String("tables", "1,250", "table counts to measure one after another, comma-separated")
	conns := flag.Int("conns", 4, "open event streams per table (each one a player's page, players in turn)")
	people := flag.Int("people", 4, "people at each table (3 or 4)")
	moves := flag.Int("moves", 20, "moves per table")
	pace := flag.Duration("pace", 0, "time between two moves of one table (0: tables/30 s, at least 0.5 s: about 30 moves/s in all)")
	redisURL := flag.String("redis", measure.EnvOr("REDIS_URL", "redis://127.0.0.1:6379/0"), "Redis to use")
	seed := flag.Uint64("seed", 1, "seed of the moves' choices")
	timeout := flag.Duration("timeout", 30*time.Minute, "give up a measurement after")
	floodN := flag.Int("flood", 0, "instead: N stream attempts and N state reads from one initData, then a stop with the streams open (bounds and shutdown)")
	flag.Parse()
	if *floodN > 0 {
		os.Exit(runFloods(*redisURL, *floodN))
	}

	counts, err := measure.ParseCounts(*tables)
	if err != nil {
		fmt.Fprintln(os.Stderr, "webload:", err)
		os.Exit(2)
	}
	if *people < 3 || *people > 4 || *conns < 1 || *moves < 1 {
		fmt.Fprintln(os.Stderr, "webload: want 3 or 4 people, at least 1 stream and 1 move a table")
		os.Exit(2)
	}
	if err := raiseFileLimit(); err != nil {
		fmt.Fprintln(os.Stderr, "webload: file limit:", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var rows []result
	printHeader(os.Stdout)
	for _, n := range counts {
		cfg := config{
			Tables: n, People: *people, Conns: *conns, Moves: *moves, Pace: *pace,
			Seed: *seed, Timeout: *timeout, RedisURL: *redisURL, Log: os.Stderr,
		}
		if cfg.Pace <= 0 {
			cfg.Pace = max(500*time.Millisecond, time.Duration(n)*time.Second/30)
		}
		res, err := run(ctx, cfg)
		if err != nil {
			printJSON(rows)
			fmt.Fprintf(os.Stderr, "webload: %d tables: %v\n", n, err)
			os.Exit(1)
		}
		printRow(os.Stdout, res)
		rows = append(rows, res)
	}
	printJSON(rows)
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
func runFloods(redisURL string, n int) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := raiseFileLimit(); err != nil {
		fmt.Fprintln(os.Stderr, "webload: file limit:", err)
	}
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
		res, err := flood(ctx, redisURL, r.name, r.n, r.cfg, os.Stderr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "webload: flood %s: %v\n", r.name, err)
			return 1
		}
		printFlood(os.Stdout, res)
		rows = append(rows, res)
	}
	out, _ := json.Marshal(map[string]any{"floods": rows})
	fmt.Println(string(out))
	return 0
}

func printJSON(rows []result) {
	out, _ := json.Marshal(map[string]any{"rows": rows})
	fmt.Println(string(out))
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
