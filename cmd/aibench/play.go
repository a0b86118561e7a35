package main

import (
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// bench is one run of games: the game, its players in player order, how
// they are seated and seeded.
type bench struct {
	g        adapter.Game
	players  []player
	seed     uint64
	paired   bool
	playouts int
	budget   time.Duration
	// botSeeds seeds every decision as the bot does (record.DecisionSeed
	// of the table's seed and log), so a review asks the top level with
	// the seeds its robots had; otherwise a decision's seed depends on the
	// deal and the step only (the arena's: equal levels in a rotated deal
	// decide alike).
	botSeeds bool
}

// perDeal is the number of games played on one seed.
func (b *bench) perDeal() int {
	if b.paired {
		return len(b.players)
	}
	return 1
}

// gameSeed spreads game numbers over the seed space (splitmix64).
func gameSeed(seed uint64, g int) uint64 {
	z := seed + uint64(g+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// played is one game: the finished table record (every robot's move in
// its log as the seat's own), each player's seats and decision times, and
// the races of real time.
type played struct {
	tab    *record.Table
	st     game.State
	seatOf []int       // player → seat
	times  [][]float64 // per player: decision times in ms
	trace  uint64      // hash of the seats and actions in order, and the result
	races  map[string]int
}

// maxIdle bounds the rounds of asking in real time in which every robot
// waits and no platform move can come; then the first seat asked plays its
// first legal move, so a game always ends.
const maxIdle = 100

// play plays game number gi: deal gi/perDeal, seats rotated by gi (player
// i in seat (i+gi) mod n), every robot through the adapter.
func (b *bench) play(gi int) (*played, error) {
	n := len(b.players)
	gs := gameSeed(b.seed, gi/b.perDeal())
	tab := &record.Table{ID: "aibench", Title: "aibench", Lang: "ru", Phase: record.PhasePlaying, GameNo: 1, GameID: b.g.ID(), Seed: gs}
	p := &played{tab: tab, seatOf: make([]int, n), times: make([][]float64, n), races: map[string]int{}}
	byseat := make([]player, n)
	tab.Seats = make([]record.Seat, n)
	for i, pl := range b.players {
		s := (i + gi) % n
		p.seatOf[i], byseat[s] = s, pl
		tab.Seats[s] = record.Seat{Name: pl.kind, AI: pl.name} // robots all: nobody is the creator
	}
	st, err := b.g.Start(adapter.View(tab))
	if err != nil {
		return nil, err
	}
	p.st = st
	mg, remembers := b.g.(adapter.MemoryGame)
	if remembers {
		tab.Memory = mg.Observe(nil, st)
	}
	h := fnv.New64a()
	step := uint64(0)
	apply := func(s game.Seat, a game.Action) error {
		if err := st.Apply(s, a); err != nil {
			return fmt.Errorf("game %d: seat %d played %d: %w", gi, s, a, err)
		}
		tab.Log = append(tab.Log, record.Move{Seat: s, Action: a, Auto: s == game.System})
		if remembers {
			tab.Memory = mg.Observe(tab.Memory, st)
		}
		fmt.Fprintf(h, "%d:%d,", s, a)
		return nil
	}
	decision := func(s game.Seat) adapter.Decision {
		seed := gs ^ (step+1)*0x2545f4914f6cdd1d
		if b.botSeeds {
			seed = record.DecisionSeed(tab.Seed, len(tab.Log))
		}
		step++
		return adapter.Decision{Seed: seed, Memory: tab.Memory, Budget: b.budget, Playouts: b.playouts}
	}
	player := func(s game.Seat) int { return ((int(s)-gi)%n + n) % n }
	clock, realTime := b.g.(adapter.ClockGame)
	idle := 0
	for steps := 0; !st.Over(); steps++ {
		if steps > 200000 {
			return nil, fmt.Errorf("game %d does not end", gi)
		}
		to := st.ToAct()
		if !realTime {
			for _, s := range to {
				if s == game.System {
					if err := apply(s, st.Legal(s)[0]); err != nil {
						return nil, err
					}
					continue
				}
				pi := player(s)
				a, _, took := byseat[s].decide(b.g, st, s, decision(s))
				p.times[pi] = append(p.times[pi], float64(took.Nanoseconds())/1e6)
				if err := apply(s, a); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := b.race(p, st, to, byseat, player, decision, apply, clock, &idle); err != nil {
			return nil, err
		}
	}
	r := st.Result()
	fmt.Fprintf(h, "=%v%v", r.Scores, r.Winners)
	p.trace = h.Sum64()
	return p, nil
}

// proposal is one robot's answer while the table is asked in real time.
type proposal struct {
	seat game.Seat
	a    game.Action
	rt   time.Duration // its reaction time (ClockGame.Delay)
}

// race settles one moment of real time as the bot's timers would: every
// seat that may act is asked (Auto, and its reaction time from Delay);
// the fastest that wants to act moves, unless the platform's own move
// (Delay of game.System: a deal after the quiet pause) comes first. A
// platform move due at once, or the only one possible, is made without
// asking. It counts the races: "a>b" when a robot of level a moved while
// one of level b also wanted to, "a>pause" when it moved before a
// platform move could come, "pause>a" when the platform moved first.
func (b *bench) race(p *played, st game.State, to []game.Seat, byseat []player, playerOf func(game.Seat) int, decision func(game.Seat) adapter.Decision,
	apply func(game.Seat, game.Action) error, clock adapter.ClockGame, idle *int) error {
	view := adapter.View(p.tab)
	system := slices.Contains(to, game.System)
	var pause time.Duration
	if system {
		d, ok := clock.Delay(view, st, game.System, "", 0)
		if len(to) == 1 || ok && d == 0 {
			return apply(game.System, st.Legal(game.System)[0])
		}
		system, pause = ok, d
	}
	var props []proposal
	var asked []game.Seat
	for _, s := range to {
		if s == game.System {
			continue
		}
		asked = append(asked, s)
		d := decision(s)
		a, ok, took := byseat[s].decide(b.g, st, s, d)
		pi := playerOf(s)
		p.times[pi] = append(p.times[pi], float64(took.Nanoseconds())/1e6)
		if !ok {
			continue
		}
		rt, timed := clock.Delay(view, st, s, byseat[s].level, d.Seed^uint64(s+2))
		if !timed {
			continue
		}
		props = append(props, proposal{seat: s, a: a, rt: rt})
	}
	best := -1
	for i, pr := range props {
		if best < 0 || pr.rt < props[best].rt {
			best = i
		}
	}
	switch {
	case best >= 0 && (!system || props[best].rt < pause):
		*idle = 0
		b.count(p, byseat, props, best, system)
		return apply(props[best].seat, props[best].a)
	case system:
		*idle = 0
		b.count(p, byseat, props, -1, true)
		return apply(game.System, st.Legal(game.System)[0])
	}
	if *idle++; *idle < maxIdle || len(asked) == 0 {
		return nil
	}
	*idle = 0
	return apply(asked[0], st.Legal(asked[0])[0])
}

// count records a settled moment of real time: props[won] moved (-1: the
// platform did); pause tells whether the platform could have.
func (b *bench) count(p *played, byseat []player, props []proposal, won int, pause bool) {
	seen := map[string]bool{}
	for i, pr := range props {
		lv := byseat[pr.seat].name
		if i == won {
			continue
		}
		switch {
		case won < 0 && !seen[lv]:
			p.races["pause>"+lv]++
		case won >= 0 && lv != byseat[props[won].seat].name && !seen[lv]:
			p.races[byseat[props[won].seat].name+">"+lv]++
		}
		seen[lv] = true
	}
	if won >= 0 && pause {
		p.races[byseat[props[won].seat].name+">pause"]++
	}
}
