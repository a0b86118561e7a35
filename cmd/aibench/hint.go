package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/locales"
)

// hint measures how long a hint («💡 Подсказка», adapter.HintGame) takes:
// for each game, seeded positions of random play (every seat count, every
// phase), a hint for each person who may act, timed on this machine with
// the robots' budget (-budget, AI_BUDGET's default), one hint at a time.
// It prints one JSON line per game: the hints timed, p50, p90, p99 and
// the slowest, in milliseconds, of the wall-clock time and of the CPU time
// of the thread that computed them (Linux: what the hint costs on an idle
// core, when other work shares the machine).

// hintLine is one game's line.
type hintLine struct {
	Game   string    `json:"game"`
	Hints  int       `json:"hints"`
	Budget string    `json:"budget"`
	Wall   quantiles `json:"wall_ms"`
	CPU    quantiles `json:"cpu_ms"`
}

func runHint(o *options, stdout, _ io.Writer) error {
	budget := o.budget
	if !o.set["budget"] {
		budget = 200 * time.Millisecond
	}
	runtime.LockOSThread() // threadCPU reads this thread's time
	defer runtime.UnlockOSThread()
	cat, err := locales.New()
	if err != nil {
		return err
	}
	l := adapter.NewLoc(cat, "ru")
	measured := 0
	for _, g := range games.All() {
		if o.game != "" && g.ID() != o.game {
			continue
		}
		r, err := measureHints(l, g, o.positions, budget)
		if err != nil {
			return fmt.Errorf("%s: %w", g.ID(), err)
		}
		out, err := json.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(out))
		measured++
	}
	if measured == 0 {
		_, err := gameByID(o.game)
		return err
	}
	return nil
}

// measureHints times the hints at n positions of g.
func measureHints(l adapter.Loc, g adapter.Game, n int, budget time.Duration) (hintLine, error) {
	hg, ok := g.(adapter.HintGame)
	rg, robots := g.(adapter.RobotGame)
	if !ok || !robots {
		return hintLine{}, fmt.Errorf("gives no hints")
	}
	levels := rg.Levels()
	top := levels[len(levels)-1]
	lo, hi := g.SeatRange()
	var wall, cpu []time.Duration
	for p := 1; p <= n; p++ {
		seed := uint64(p)
		r := rand.New(rand.NewPCG(seed, 0x74696d65))
		tab := &record.Table{ID: "1", ChatID: 1, Title: "aibench", Lang: "ru", Phase: record.PhasePlaying, GameNo: 1, GameID: g.ID(), Seed: seed}
		for i := range lo + r.IntN(hi-lo+1) {
			tab.Seats = append(tab.Seats, record.Seat{UserID: int64(i + 1), Name: fmt.Sprint("Игрок ", i+1)})
		}
		st, err := g.Start(adapter.View(tab))
		if err != nil {
			return hintLine{}, err
		}
		memory, err := bottest.RandomWalk(g, st, r, r.IntN(120))
		if err != nil {
			return hintLine{}, err
		}
		if st.Over() {
			continue
		}
		if tab.State, err = st.MarshalBinary(); err != nil {
			return hintLine{}, err
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
		return hintLine{}, fmt.Errorf("no position to hint at")
	}
	return hintLine{Game: g.ID(), Hints: len(wall), Budget: budget.String(), Wall: quantilesOf(wall), CPU: quantilesOf(cpu)}, nil
}
