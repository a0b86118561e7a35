package main

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
)

// randomKind is the player who makes a uniformly random legal move.
const randomKind = "random"

// player is one seat's kind in a run and what plays it.
type player struct {
	kind  string // as given
	level string // what Auto is given (random: none)
	// name is the level's name in the output: the level, or the kind
	// when Auto plays the bot's player for a timed-out person ("").
	name   string
	random bool
}

// kinds are the names a game's players may be given, each with the
// player it stands for.
func kinds(g adapter.Game) map[string]player {
	out := map[string]player{randomKind: {kind: randomKind, name: randomKind, random: true}}
	levels := adapter.Levels(g)
	for _, l := range levels {
		out[l] = player{kind: l, level: l, name: l}
	}
	if len(levels) > 0 {
		for alias, l := range map[string]string{"bottom": levels[0], "middle": levels[len(levels)/2], "top": levels[len(levels)-1]} {
			out[alias] = player{kind: alias, level: l, name: l}
		}
	}
	if y, ok := g.(adapter.YardstickGame); ok {
		for name, l := range y.Yardsticks() {
			p := player{kind: name, level: l, name: l}
			if l == "" {
				p.name = name
			} else {
				out[l] = player{kind: l, level: l, name: l}
			}
			out[name] = p
		}
	}
	return out
}

// parsePlayers reads a -players list for g.
func parsePlayers(g adapter.Game, list string) ([]player, error) {
	if _, ok := g.(adapter.RobotGame); !ok {
		return nil, fmt.Errorf("%s has no robots", g.ID())
	}
	known := kinds(g)
	var out []player
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		p, ok := known[k]
		if !ok {
			return nil, fmt.Errorf("unknown %s player %q (want one of %s)", g.ID(), k, strings.Join(slices.Sorted(maps.Keys(known)), ", "))
		}
		p.kind = k
		out = append(out, p)
	}
	if lo, hi := g.SeatRange(); len(out) < lo || len(out) > hi {
		return nil, fmt.Errorf("%s needs %d to %d players, not %d", g.ID(), lo, hi, len(out))
	}
	return out, nil
}

// decide is p's move for seat s in st with d (d.Level is set from p), the
// time it took, and false when a real-time robot waits.
func (p player) decide(g adapter.Game, st game.State, s game.Seat, d adapter.Decision) (game.Action, bool, time.Duration) {
	legal := st.Legal(s)
	if len(legal) == 0 {
		return -1, false, 0
	}
	t0 := time.Now()
	if p.random {
		return legal[rand.New(rand.NewPCG(d.Seed, 0x5a05a9e5)).IntN(len(legal))], true, time.Since(t0)
	}
	d.Level = p.level
	a, ok := g.(adapter.RobotGame).Auto(st, s, d)
	return a, ok, time.Since(t0)
}
