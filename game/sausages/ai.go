package sausages

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// Two AI levels, both pure functions of a SeatView and a seed: the same
// view and seed always give the same action, always one of v.Legal (or -1
// if v.Legal is empty). They read only the view, so they never cheat.
//
//   - Baseline: bluffs sometimes (the boot at setup about one time in four,
//     now and then when adding; a rare bluff raise), bids from its own
//     stack (a safe stack → its own cards plus a third of the others'),
//     passes above that or with a boot of its own down, reveals first from
//     players who bid this round (their stacks are probably sausages),
//     picks blind at random, loses a sausage before the boot.
//   - Sly: counts. It models, for each opponent, the chance that their boot
//     is in their stack (half of stack size over cards owned, lowered for a
//     player who bid within their own stack, raised for one who raised hard
//     or opened low and dropped out: the classic lure, and updated as their
//     top cards turn out safe), turns the card least likely to be a boot
//     each time, and raises while its estimated chance of success is at
//     least 0.35. With its own boot down it builds a lure (sausages on top)
//     and never raises into its own boot except a rare push.

// aiRand seeds a generator from the seed and the situation, so decisions
// differ between situations but repeat for the same view.
func aiRand(v *SeatView, seed uint64) rng {
	h := seed ^ 0x51ed27a6c0ffee
	for _, x := range []int{int(v.Seat), v.Round, int(v.Phase), v.Total, len(v.Bids), len(v.Revealed), v.Bid} {
		h = (h ^ uint64(x)) * 0x100000001b3
	}
	r := rng(h)
	r.next()
	return r
}

// choose returns a if legal, else the first legal action.
func choose(v *SeatView, a game.Action) game.Action {
	if slices.Contains(v.Legal, a) {
		return a
	}
	return v.Legal[0]
}

// ownSafe reports whether the seat's own stack holds no boot.
func ownSafe(v *SeatView) bool { return !slices.Contains(v.Stack, Boot) }

// handCount is the number of cards in the seat's hand.
func handCount(v *SeatView) int { return v.Hand.Sausages + v.Hand.Boots }

// placeCard picks the kind to place: the boot with probability pct/100
// when it is held (always if nothing else is), else a sausage.
func placeCard(v *SeatView, r *rng, pct int) game.Action {
	if v.Hand.Boots > 0 && (v.Hand.Sausages == 0 || r.below(100) < pct) {
		return PlaceAction(Boot)
	}
	return PlaceAction(Sausage)
}

// loseCard keeps the boot as long as possible.
func loseCard(v *SeatView) game.Action {
	if v.Hand.Sausages > 0 {
		return LoseAction(Sausage)
	}
	return LoseAction(Boot)
}

// Baseline is the simple AI level.
func Baseline(v SeatView, seed uint64) game.Action {
	if len(v.Legal) == 0 {
		return -1
	}
	if len(v.Legal) == 1 {
		return v.Legal[0]
	}
	r := aiRand(&v, seed)
	mine := len(v.Stack)
	switch v.Phase {
	case PhaseSetup:
		return placeCard(&v, &r, 25)
	case PhaseAdd:
		if handCount(&v) > 0 && (!ownSafe(&v) || r.below(100) < 60-15*(mine-1)) {
			return placeCard(&v, &r, 15)
		}
		if !ownSafe(&v) {
			return choose(&v, BidAction(1)) // forced, or a lure
		}
		n := mine + (v.Total-mine)/3
		return choose(&v, BidAction(max(1, min(n, v.Total))))
	case PhaseBid:
		capacity := 0
		if ownSafe(&v) {
			capacity = mine + (v.Total-mine)/3
		}
		switch {
		case v.Bid+1 <= capacity:
			return choose(&v, BidAction(v.Bid+1))
		case !ownSafe(&v) && v.Bid+1 <= 2 && r.below(100) < 10:
			return choose(&v, BidAction(v.Bid+1)) // bluff raise
		}
		return PassAction()
	case PhaseAttempt:
		bidders := bidSeats(&v)
		best, bestScore := v.Legal[0], -1
		for _, a := range v.Legal {
			m, _ := Decode(a)
			score := r.below(100)
			if bidders&(1<<m.Seat) != 0 {
				score += 200
			}
			score += 50 * v.Seats[m.Seat].Revealed // a stack that held so far
			if score > bestScore {
				best, bestScore = a, score
			}
		}
		return best
	case PhasePick:
		return v.Legal[r.below(len(v.Legal))]
	case PhaseLose:
		return choose(&v, loseCard(&v))
	case PhaseName:
		return v.Legal[r.below(len(v.Legal))]
	}
	return v.Legal[0]
}

// bidSeats is the set of seats that bid (not passed) this round, as bits.
func bidSeats(v *SeatView) uint {
	var m uint
	for _, e := range v.Bids {
		if !e.Pass() {
			m |= 1 << e.Seat
		}
	}
	return m
}

// Sly is the counting AI level.
func Sly(v SeatView, seed uint64) game.Action {
	if len(v.Legal) == 0 {
		return -1
	}
	if len(v.Legal) == 1 {
		return v.Legal[0]
	}
	r := aiRand(&v, seed)
	mine := len(v.Stack)
	safe := ownSafe(&v)
	switch v.Phase {
	case PhaseSetup:
		return placeCard(&v, &r, 25)
	case PhaseAdd:
		m := newModel(&v)
		if !safe {
			// A boot under sausages is a lure: keep building, open low.
			if handCount(&v) > 0 && v.Hand.Sausages > 0 {
				return PlaceAction(Sausage)
			}
			return choose(&v, BidAction(1))
		}
		best := m.maxBid(0.6)
		if handCount(&v) > 0 && (best <= mine || r.below(100) < 40-10*(mine-1)) {
			return placeCard(&v, &r, 10)
		}
		return choose(&v, BidAction(max(1, min(best, v.Total))))
	case PhaseBid:
		if !safe {
			if v.Bid+1 <= mine && v.Bid <= 2 && r.below(100) < 12 {
				return choose(&v, BidAction(v.Bid+1)) // push the others up
			}
			return PassAction()
		}
		m := newModel(&v)
		if m.success(v.Bid+1) >= 0.35 {
			return choose(&v, BidAction(v.Bid+1))
		}
		return PassAction()
	case PhaseAttempt:
		m := newModel(&v)
		if s, ok := m.safest(); ok {
			return choose(&v, RevealAction(s))
		}
		return v.Legal[0]
	case PhasePick:
		return v.Legal[r.below(len(v.Legal))]
	case PhaseLose:
		return choose(&v, loseCard(&v))
	case PhaseName:
		// Name the player with the fewest cards: the least dangerous first.
		best, fewest := v.Legal[0], CardsPerPlayer+1
		for _, a := range v.Legal {
			m, _ := Decode(a)
			if o := v.Seats[m.Seat].Owned; o < fewest {
				best, fewest = a, o
			}
		}
		return best
	}
	return v.Legal[0]
}

// model is Sly's belief about the opponents' stacks.
type model struct {
	v    *SeatView
	n    int
	q    [MaxPlayers]float64 // P(boot among the face-down cards) per opponent
	down [MaxPlayers]int     // face-down cards left per opponent
	mine int                 // own stack (always turned first)
}

func newModel(v *SeatView) *model {
	m := &model{v: v, n: len(v.Seats), mine: len(v.Stack)}
	// What each seat did in the bidding: highest bid, jumps, early drop.
	var high, jump [MaxPlayers]int
	var passedAfterBid [MaxPlayers]bool
	prev := 0
	for _, e := range v.Bids {
		if e.Seat < 0 || int(e.Seat) >= m.n {
			continue
		}
		if e.Pass() {
			passedAfterBid[e.Seat] = high[e.Seat] > 0
			continue
		}
		jump[e.Seat] = max(jump[e.Seat], e.N-prev)
		high[e.Seat], prev = e.N, e.N
	}
	for i, s := range v.Seats {
		if game.Seat(i) == v.Seat || s.Out || s.Stack == 0 {
			continue
		}
		q := 0.5 * float64(s.Stack) / float64(max(s.Owned, 1)) // prior, halved: players bluff less than uniform placement
		switch {
		case high[i] > 0 && jump[i] >= 2:
			q = q*1.5 + 0.1 // raised hard: perhaps pushing us up
		case high[i] > 0 && passedAfterBid[i] && high[i] <= 2:
			q = q*1.3 + 0.05 // opened low, dropped out: a lure
		case high[i] > 0 && high[i] <= s.Stack:
			q *= 0.4 // bid within their own stack: likely all sausages
		case high[i] > 0:
			q *= 0.7
		}
		down := s.Stack - s.Revealed
		// Revealed sausages from the top make the rest likelier to hide
		// the boot: P(boot in the rest | top safe).
		if s.Revealed > 0 {
			inRest := q * float64(down) / float64(s.Stack)
			q = inRest / (1 - q*float64(s.Revealed)/float64(s.Stack))
		}
		m.q[i], m.down[i] = min(q, 0.95), down
	}
	return m
}

// risk is the chance that the next card of seat i is a boot, given that
// j more of its cards were already taken in the plan.
func (m *model) risk(i, j int) float64 {
	d := m.down[i] - j
	if d <= 0 {
		return 1
	}
	// P(boot in the remaining d | the j turned were safe), uniform position.
	total := m.down[i]
	rest := m.q[i] * float64(d) / float64(total)
	cond := rest / (1 - m.q[i]*float64(j)/float64(total))
	return cond / float64(d)
}

// success estimates the chance of revealing n cards without a boot,
// turning each time the card least likely to be one.
func (m *model) success(n int) float64 {
	need := n - m.mine
	if n > m.v.Total {
		return 0
	}
	var used [MaxPlayers]int
	p := 1.0
	for ; need > 0; need-- {
		best, bestRisk := -1, 2.0
		for i := 0; i < m.n; i++ {
			if m.down[i]-used[i] > 0 {
				if r := m.risk(i, used[i]); r < bestRisk {
					best, bestRisk = i, r
				}
			}
		}
		if best < 0 {
			return 0
		}
		used[best]++
		p *= 1 - bestRisk
	}
	return p
}

// maxBid is the largest n whose estimated success is at least p (at least
// the own stack, which is safe when this is asked).
func (m *model) maxBid(p float64) int {
	n := max(m.mine, 1)
	for n+1 <= m.v.Total && m.success(n+1) >= p {
		n++
	}
	return n
}

// safest is the opponent whose next card is least likely a boot.
func (m *model) safest() (game.Seat, bool) {
	best, bestRisk := -1, 2.0
	for i := 0; i < m.n; i++ {
		if m.down[i] > 0 {
			if r := m.risk(i, 0); r < bestRisk {
				best, bestRisk = i, r
			}
		}
	}
	return game.Seat(best), best >= 0
}
