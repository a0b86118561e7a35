// Command botbench runs the real bot against the fake Bot API and a real
// Redis, and measures it. Each measurement is a scenario:
//
//	go run ./cmd/botbench <scenario> [flags]
//
//	load      updates a second one bot process applies, and Redis bytes per table
//	pace      games at human pace through the fake Telegram: calls, limits, latency (-pages: in «Стол»)
//	press     press → answer while tables are busy and one person floods
//	web       the «Стол» page's live updates, memory per page (-flood: one initData's flood)
//	practice  Bot API calls per move of a practice game in the private chat
//	long      many long games waiting for their players: memory, Redis per table, how late deadlines fire
//	cup       a group's cup of people at full pace: calls per move, the cup message's edits a minute
//
// go run ./cmd/botbench -h lists them, go run ./cmd/botbench <scenario> -h
// tells what one measures and the flags it reads. The flags are one set: a
// flag means the same in every scenario that reads it, and a scenario
// refuses one it does not read. The games come from cmd/games, so
// a measurement covers what players get. The last line of every run is
// one JSON object with the numbers; the exit code is 1 when a measurement
// failed (what it measured before is still printed), 2 for a bad command
// line.
//
// A new scenario is a package under internal/ with a function returning
// its bench.Scenario (its name, doc, the flags it reads and its Run), and
// a line in scenarios below.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/trickchef/trickchef/cmd/botbench/internal/bench"
	"github.com/trickchef/trickchef/cmd/botbench/internal/cup"
	"github.com/trickchef/trickchef/cmd/botbench/internal/load"
	"github.com/trickchef/trickchef/cmd/botbench/internal/long"
	"github.com/trickchef/trickchef/cmd/botbench/internal/pace"
	"github.com/trickchef/trickchef/cmd/botbench/internal/practice"
	"github.com/trickchef/trickchef/cmd/botbench/internal/press"
	"github.com/trickchef/trickchef/cmd/botbench/internal/web"
)

// scenarios are botbench's measurements, in the order -h lists them.
func scenarios() []bench.Scenario {
	return []bench.Scenario{
		load.Scenario(),
		pace.Scenario(),
		press.Scenario(),
		web.Scenario(),
		practice.Scenario(),
		long.Scenario(),
		cup.Scenario(),
	}
}

func main() {
	// Interrupted, a measurement stops and still deletes its keys.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := bench.Main(ctx, os.Args[1:], scenarios(), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
