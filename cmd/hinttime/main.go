// Command hinttime measures how long a hint («💡 Подсказка», adapter.HintGame)
// takes: for each game, seeded positions of random play (every seat count,
// every phase), a hint for each person who may act, timed on this machine
// with the robots' budget (AI_BUDGET's default), one hint at a time. It
// prints one JSON line per game: the hints timed, p50, p90, p99 and the
// slowest, in milliseconds, of the wall-clock time and of the CPU time of
// the thread that computed them (Linux: what the hint costs on an idle
// core, when other work shares the machine).
//
//	go run ./cmd/hinttime -positions 400
//	go run ./cmd/hinttime -game trickchef -positions 1000 -budget 200ms
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"syscall"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/cmd/internal/games"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/locales"
)

// result is one game's line.
type result struct {
	Game   string    `json:"game"`
	Hints  int       `json:"hints"`
	Budget string    `json:"budget"`
	Wall   quantiles `json:"wall_ms"`
	CPU    quantiles `json:"cpu_ms"`
}

// quantiles of a set of times, in milliseconds.
type quantiles struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

func quantilesOf(ds []time.Duration) quantiles {
	slices.Sort(ds)
	q := func(f float64) float64 {
		return float64(ds[min(len(ds)-1, int(f*float64(len(ds))))].Microseconds()) / 1000
	}
	return quantiles{P50: q(0.5), P90: q(0.9), P99: q(0.99), Max: q(1)}
}

// threadCPU is the CPU time this thread has used (the caller locks the
// goroutine to its thread); 0 where the system cannot tell.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rusageThread is Linux's RUSAGE_THREAD.
const rusageThread = 1

func main() {
	only := flag.String("game", "", "one game's id (default: every game)")
	positions := flag.Int("positions", 400, "positions per game")
	budget := flag.Duration("budget", 200*time.Millisecond, "a searching robot's time per decision (AI_BUDGET)")
	flag.Parse()
	runtime.LockOSThread() // threadCPU reads this thread's time
	cat, err := locales.New()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	l := adapter.NewLoc(cat, "ru")
	for _, g := range games.All() {
		if *only != "" && g.ID() != *only {
			continue
		}
		r, err := measure(l, g, *positions, *budget)
		if err != nil {
			fmt.Fprintln(os.Stderr, g.ID()+":", err)
			os.Exit(1)
		}
		out, _ := json.Marshal(r)
		fmt.Println(string(out))
	}
}

// measure times the hints at n positions of g.
func measure(l adapter.Loc, g adapter.Game, n int, budget time.Duration) (result, error) {
	hg, ok := g.(adapter.HintGame)
	rg, robots := g.(adapter.RobotGame)
	if !ok || !robots {
		return result{}, fmt.Errorf("gives no hints")
	}
	levels := rg.Levels()
	top := levels[len(levels)-1]
	lo, hi := g.SeatRange()
	var wall, cpu []time.Duration
	for p := 1; p <= n; p++ {
		seed := uint64(p)
		r := rand.New(rand.NewPCG(seed, 0x74696d65))
		tab := &record.Table{ID: "1", ChatID: 1, Title: "hinttime", Lang: "ru", Phase: record.PhasePlaying, GameNo: 1, GameID: g.ID(), Seed: seed}
		for i := range lo + r.IntN(hi-lo+1) {
			tab.Seats = append(tab.Seats, record.Seat{UserID: int64(i + 1), Name: fmt.Sprint("Игрок ", i+1)})
		}
		st, err := g.Start(adapter.View(tab))
		if err != nil {
			return result{}, err
		}
		memory, err := bottest.RandomWalk(g, st, r, r.IntN(120))
		if err != nil {
			return result{}, err
		}
		if st.Over() {
			continue
		}
		if tab.State, err = st.MarshalBinary(); err != nil {
			return result{}, err
		}
		for _, s := range st.ToAct() {
			if s == game.System || len(st.Legal(s)) == 0 {
				continue
			}
			d := adapter.Decision{Level: top, Seed: r.Uint64(), Memory: memory, Budget: budget}
			start, c := time.Now(), threadCPU()
			hg.Hint(l, adapter.View(tab), st, int(s), d)
			wall, cpu = append(wall, time.Since(start)), append(cpu, threadCPU()-c)
		}
	}
	if len(wall) == 0 {
		return result{}, fmt.Errorf("no position to hint at")
	}
	return result{Game: g.ID(), Hints: len(wall), Budget: budget.String(), Wall: quantilesOf(wall), CPU: quantilesOf(cpu)}, nil
}
