package chef

import (
	"flag"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/trickchef/trickchef/game"
)

// Measurements behind Shef's search (docs/ai.md, «Меню шефа»); they run
// only when asked, for minutes.
var (
	measureGain   = flag.Int("chef-gain", 0, "measure a level's one-step gain over Cook along this many 4-player Cook games (all seats)")
	measurePaired = flag.Int("chef-paired", 0, "play this many 4-player deals with one seat (rotating) by the level, then by Cook, the others by Cook")
	measureLevel  = flag.String("chef-level", "shef", "with -chef-gain or -chef-paired: the level (or oracle: it sees the pile, -chef-paired only)")
	measureBudget = flag.Int("chef-playouts", 0, "with -chef-gain or -chef-paired: Shef's playouts (0: DefaultPlayouts)")
	measureSeed   = flag.Uint64("chef-seed", 30000, "with -chef-gain or -chef-paired: the first deal's seed")
)

// TestMeasureGain estimates how much a level gains over Cook by its own
// choices: along Cook self-play games, wherever the level's choice differs
// from Cook's, both are played out (to the end, Cook at every seat) in the
// same 1,000 fresh sampled pile orders and the difference of the seat's
// win share is summed. The sum per game and seat approximates the level's
// win-rate gain when it plays one seat (the deviations' effects add up
// only roughly), with a far smaller error than whole games give.
func TestMeasureGain(t *testing.T) {
	games := *measureGain
	if games == 0 {
		t.Skip("run with -chef-gain N")
	}
	const evals = 1000
	level, b := Level(*measureLevel), Budget{Playouts: *measureBudget}
	var mu sync.Mutex
	var sum, sq, took float64
	var decisions, differ int
	work := make(chan int)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range work {
				st, _ := New(Config{Players: 4, Seed: *measureSeed + uint64(g)})
				r := rng(uint64(g)*31 + 5)
				gain, tt, nd, ndiff := 0.0, 0.0, 0, 0
				for !st.Over() {
					s := st.turn
					cook := cookMove(st)
					if len(st.Legal(game.Seat(s))) > 1 {
						nd++
						v := st.SeatView(game.Seat(s))
						t0 := time.Now()
						a := DecideBudget(level, v, uint64(g), b)
						tt += time.Since(t0).Seconds()
						if a != cook {
							ndiff++
							base, _ := fromView(&v, &r)
							x := 0.0
							for range evals {
								world := base
								world.rng = rng(r.Next())
								world.shuffle(world.pile[:world.npile])
								w0, w1 := world, world
								_ = w0.Apply(game.Seat(s), cook)
								_ = w1.Apply(game.Seat(s), a)
								x += playout(&w1, s, 1000) - playout(&w0, s, 1000)
							}
							gain += x / evals
						}
					}
					if err := st.Apply(game.Seat(s), cook); err != nil {
						panic(err)
					}
				}
				mu.Lock()
				sum, sq, took = sum+gain, sq+gain*gain, took+tt
				decisions, differ = decisions+nd, differ+ndiff
				mu.Unlock()
			}
		}()
	}
	for g := range games {
		work <- g
	}
	close(work)
	wg.Wait()
	n := float64(games)
	m := sum / n
	ci := 1.96 * math.Sqrt((sq/n-m*m)/n)
	t.Logf("%s, %d playouts: %d games, %d decisions, %d differ from Cook; gain per seat %.4f ± %.4f (95%%); mean decision %.2f ms",
		level, *measureBudget, games, decisions, differ, m/4, ci/4, took/float64(decisions)*1000)
}

// TestMeasurePaired plays the same deals twice, one seat (rotating) by the
// level, then by Cook, the others by Cook, and compares the seat's wins.
// The level oracle cheats: it knows the pile's order, so one Cook playout
// per legal action is exact, which shows how much of the game the pile
// decides.
func TestMeasurePaired(t *testing.T) {
	games := *measurePaired
	if games == 0 {
		t.Skip("run with -chef-paired N")
	}
	const players = 4
	level, b := Level(*measureLevel), Budget{Playouts: *measureBudget}
	hero, cook := make([]float64, games), make([]float64, games)
	var mu sync.Mutex
	var times []float64
	work := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range work {
				me := game.Seat(g % players)
				for pass := range 2 {
					st, _ := New(Config{Players: players, Seed: *measureSeed + uint64(g)})
					for !st.Over() {
						s := game.Seat(st.turn)
						a := cookMove(st)
						if pass == 0 && s == me {
							t0 := time.Now()
							if level == "oracle" {
								a = oracleMove(st)
							} else {
								a = DecideBudget(level, st.SeatView(s), uint64(g), b)
							}
							mu.Lock()
							times = append(times, time.Since(t0).Seconds()*1000)
							mu.Unlock()
						}
						if err := st.Apply(s, a); err != nil {
							panic(err)
						}
					}
					if pass == 0 {
						hero[g] = winShare(st, me)
					} else {
						cook[g] = winShare(st, me)
					}
				}
			}
		}()
	}
	for g := range games {
		work <- g
	}
	close(work)
	wg.Wait()
	var sh, sc, sd, sdd float64
	for g := range games {
		d := hero[g] - cook[g]
		sh, sc, sd, sdd = sh+hero[g], sc+cook[g], sd+d, sdd+d*d
	}
	n := float64(games)
	ph, md := sh/n, sd/n
	slices.Sort(times)
	mean := 0.0
	for _, x := range times {
		mean += x
	}
	t.Logf("%s, %d playouts, %d deals: %.3f ± %.3f, Cook in the same seat %.3f, paired difference %.3f ± %.3f; %d decisions, mean %.2f ms, p99 %.1f ms; %.0f s",
		level, *measureBudget, games, ph, 1.96*math.Sqrt(ph*(1-ph)/n), sc/n, md, 1.96*math.Sqrt((sdd/n-md*md)/n),
		len(times), mean/float64(max(len(times), 1)), times[len(times)*99/100], time.Since(start).Seconds())
}

// oracleMove knows the pile: the legal action whose Cook playout to the
// end wins, Cook's move unless another does strictly better.
func oracleMove(st *State) game.Action {
	me := st.turn
	best, bv := cookMove(st), -1.0
	for i, a := range append([]game.Action{best}, st.Legal(game.Seat(me))...) {
		w := *st
		if w.Apply(game.Seat(me), a) != nil {
			panic("illegal")
		}
		if v := playout(&w, me, 1000); i == 0 || v > bv {
			best, bv = a, v
		}
	}
	return best
}
