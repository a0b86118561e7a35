package chef

import (
	"math"
	"time"

	"github.com/trickchef/trickchef/game"
)

// Budget bounds Shef's search. Playouts keeps a decision deterministic:
// the same view, seed and Playouts always give the same action. Wall is
// a safety net on top: with a Clock, the search stops at the first round
// of playouts that ends after Wall, which trades determinism (the result
// then depends on machine speed and load) for bounded latency. The
// package never reads the clock itself; the caller passes one (time.Now)
// to enable the cap.
type Budget struct {
	Playouts int              // 0: DefaultPlayouts
	Wall     time.Duration    // 0 or no Clock: no cap
	Clock    func() time.Time // nil: no cap
}

// DecideBudget is Decide with an explicit search budget for Shef (the
// other levels do not search and ignore it).
func DecideBudget(level Level, v SeatView, seed uint64, b Budget) game.Action {
	return decide(level, v, seed, b)
}

// DefaultPlayouts is Shef's search budget when Budget.Playouts is 0:
// playouts (one sampled pile order, one candidate action, searchHorizon
// turns of Cook at every seat) per decision. A playout costs 2–5 µs on
// one core, so a searched decision takes 5–15 ms and the wall-clock cap
// of the bot's default budget (200 ms) is not reached; docs/ai.md has the
// measured strength and latency.
const DefaultPlayouts = 3000

// Search shape.
const (
	// searchMinPer is the playouts per candidate and halving round at
	// least (a Hangover has up to 36 choices of dishes).
	searchMinPer = 16
	// searchMargin is how many standard errors of the paired difference
	// the best alternative must beat Cook's move by. Measured along Cook's
	// games, a margin of 1 keeps all of the search's gain while it leaves
	// Cook's move half as often as without one (2 loses some of the gain);
	// with a small budget it keeps the noise from choosing.
	searchMargin = 1.0
	// searchHorizon is the turns a playout lasts before the position is
	// scored by strength (five rounds at four players). Measured along
	// Cook's games, 20 to 30 turns choose better than 50 or playing to the
	// end (too noisy for the budget) and than 12 (too short-sighted); 20
	// costs least.
	searchHorizon = 20
)

// search is Shef: flat Monte Carlo over sampled pile orders with
// successive halving. Every round samples fresh pile orders and plays
// Cook's move and every surviving alternative out in each of them
// (common random numbers: a world fixes the pile and the generator of
// later rebuilds, and Cook is deterministic, so candidates differ only by
// their own effect); the better half of the alternatives survives, by
// their paired differences with Cook's move, until one is left, which
// replaces Cook's move only if it is clearly better (searchMargin).
func search(base *State, r *rng, b Budget, ev *Advice) game.Action {
	me := base.turn
	cook := cookMove(base)
	m, _ := DecodeAction(cook)
	if m.Kind == KindAnnounce || m.Kind == KindRedraw || m.Kind == KindTake && base.discTop() == Addition {
		return cook // sure things need no search
	}
	var buf, cbuf [MaxAction + 1]game.Action
	legal := base.LegalAppend(buf[:0], game.Seat(me))
	cands := append(cbuf[:0], cook)
	for _, a := range legal {
		if a != cook {
			cands = append(cands, a)
		}
	}
	if len(cands) == 1 {
		return cook
	}
	playouts := b.Playouts
	if playouts <= 0 {
		playouts = DefaultPlayouts
	}
	var start time.Time
	if b.Wall > 0 && b.Clock != nil {
		start = b.Clock()
	}
	// Alternatives to Cook's move, by index into cands; gain and sq sum
	// each one's paired differences with Cook's move and their squares.
	var alive [MaxAction + 1]int
	var gain, sq [MaxAction + 1]float64
	cookSum := 0.0 // Cook's move's own values, for the evidence
	na := len(cands) - 1
	for i := range na {
		alive[i] = i + 1
	}
	n, left := 0, playouts
	for {
		per := max(searchMinPer, left/((ceilLog2(na)+1)*(na+1)))
		for range per {
			world := *base
			world.rng = rng(r.Next())
			world.shuffle(world.pile[:world.npile])
			w := world
			if w.Apply(game.Seat(me), cook) != nil {
				return cook // cannot happen: cands are legal
			}
			v0 := rollout(&w, me)
			cookSum += v0
			for _, i := range alive[:na] {
				w := world
				if w.Apply(game.Seat(me), cands[i]) != nil {
					return cook
				}
				d := rollout(&w, me) - v0
				gain[i] += d
				sq[i] += d * d
			}
		}
		n += per
		left -= per * (na + 1)
		// Best first; on equal sums the earlier (in Legal's order) first.
		for j := 1; j < na; j++ {
			for k := j; k > 0 && gain[alive[k]] > gain[alive[k-1]]; k-- {
				alive[k], alive[k-1] = alive[k-1], alive[k]
			}
		}
		if na == 1 || !start.IsZero() && b.Clock().Sub(start) > b.Wall {
			break
		}
		na = (na + 1) / 2
	}
	best := alive[0]
	mean := gain[best] / float64(n)
	se := math.Sqrt(max(sq[best]/float64(n)-mean*mean, 0) / float64(n))
	chosen := cook
	if mean > 0 && mean > searchMargin*se {
		chosen, cookSum = cands[best], cookSum+gain[best]
	}
	if ev != nil {
		ev.Playouts, ev.Win = n, cookSum/float64(n)
	}
	return chosen
}

// ceilLog2 is the number of halvings that leave one of n candidates.
func ceilLog2(n int) int {
	k := 0
	for m := 1; m < n; m *= 2 {
		k++
	}
	return k
}

// rollout plays st on with Cook at every seat and returns seat me's share
// of the win, or its strength estimate after searchHorizon turns.
func rollout(st *State, me uint8) float64 {
	return playout(st, me, searchHorizon)
}
