package sausages

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// Two AI levels, both pure functions of a SeatView and a seed: the same
// view and seed always give the same action, always one of v.Legal (or -1
// if v.Legal is empty). They read only the view, so they never cheat.
//
//   - Baseline: puts its boot down at setup most of the time (85%: the
//     boot down is the best shield against wild bidders, and a bluff);
//     with the boot down it lays sausages on it as a lure, never raises
//     but for a rare bluff to 1 or 2, and bids 1 only when forced. With a
//     safe stack it bids what it knows: its own cards plus half of the
//     stacks of trusted bidders (who bid within their own stack), opens at
//     that, raises only into bids it can make, else passes. It reveals
//     trusted bidders first, then the tallest stacks (top cards are safest),
//     picks blind at random, loses sausages before the boot.
//   - Sly: counts. It models, for each opponent, the chance that their boot
//     is in their stack (0.5 plus 0.08 per card above one, halved for a
//     player who bid within their own stack, raised for one who jumped or
//     opened low and dropped out, updated as their top cards turn out
//     safe), turns the card least likely to be a boot each time, opens at
//     once with a safe stack (at least its own cards) and raises while its
//     estimated success is at least 0.45. It reads the last round: if its
//     challenger bid far beyond their own stack (or on their own boot) the
//     table is wild and it always puts its boot down; if the bid was sober
//     it does so only 60% of the time (always when it has nothing to read).
//     With its boot down it builds a lure and passes, but for a rare push.

// aiRand seeds a generator from the seed and the situation, so decisions
// differ between situations but repeat for the same view.
func aiRand(v *SeatView, seed uint64) rng {
	h := seed ^ 0x51ed27a6c0ffee
	for _, x := range []int{int(v.Seat), v.Round, int(v.Phase), v.Total, len(v.Bids), len(v.Revealed), v.Bid} {
		h = (h ^ uint64(x)) * 0x100000001b3
	}
	r := rng(h)
	r.Next()
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
	if v.Hand.Boots > 0 && (v.Hand.Sausages == 0 || r.Below(100) < pct) {
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

// Tuned in the arena (see docs/ai.md, «Сосиски»).
const (
	baseBoot    = 85 // % boot at setup: the boot down is the best shield
	baseAdd     = 30 // % add a card rather than open, with a safe stack
	baseAddBoot = 10 // % of those adds that put the boot on top (a bluff)
	baseTrust   = 2  // count 1/baseTrust of the trusted bidders' cards
	baseBluff   = 8  // % bluff raise to 1 or 2 with the boot down
	slyBoot     = 100
	slyBootWild = 100
	slyBootCalm = 60
	wildGap     = 2
	slyQ0       = 0.5
	slyQAdd     = 0.08
	slyRaise    = 0.45
	slyOpen     = 0.6
	slyAdd      = 0
	slyPush     = 8
	slyTrust    = 0.5
)

// bidder facts of this round, per seat.
type bidFacts struct {
	high, jump [MaxPlayers]int
	dropped    [MaxPlayers]bool // bid, then passed
}

func readBids(v *SeatView) *bidFacts {
	f := &bidFacts{}
	prev := 0
	for _, e := range v.Bids {
		if e.Seat < 0 || int(e.Seat) >= MaxPlayers {
			continue
		}
		if e.Pass() {
			f.dropped[e.Seat] = f.high[e.Seat] > 0
			continue
		}
		f.jump[e.Seat] = max(f.jump[e.Seat], e.N-prev)
		f.high[e.Seat], prev = e.N, e.N
	}
	return f
}

// trusted reports whether seat i bid no more than its own stack without a
// wild jump: an honest bidder's stack is probably all sausages.
func (f *bidFacts) trusted(v *SeatView, i int) bool {
	return f.high[i] > 0 && f.high[i] <= v.Seats[i].Stack && f.jump[i] <= 2
}

// baseCapacity is how high Baseline dares to bid with a safe stack: its own
// cards plus part of the stacks of trusted bidders.
func baseCapacity(v *SeatView, f *bidFacts) int {
	c := len(v.Stack)
	extra := 0
	for i, s := range v.Seats {
		if game.Seat(i) != v.Seat && !s.Out && f.trusted(v, i) {
			extra += s.Stack - s.Revealed
		}
	}
	return c + extra/baseTrust
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
	safe := ownSafe(&v)
	switch v.Phase {
	case PhaseSetup:
		return placeCard(&v, &r, baseBoot)
	case PhaseAdd:
		if !safe {
			if handCount(&v) > 0 {
				return placeCard(&v, &r, 0) // a lure: sausages on the boot
			}
			return choose(&v, BidAction(1)) // forced
		}
		f := readBids(&v)
		if handCount(&v) > 0 && r.Below(100) < baseAdd {
			return placeCard(&v, &r, baseAddBoot)
		}
		return choose(&v, BidAction(max(1, min(baseCapacity(&v, f), v.Total))))
	case PhaseBid:
		if !safe {
			if v.Bid+1 <= 2 && r.Below(100) < baseBluff {
				return choose(&v, BidAction(v.Bid+1)) // bluff raise
			}
			return PassAction()
		}
		if v.Bid+1 <= baseCapacity(&v, readBids(&v)) {
			return choose(&v, BidAction(v.Bid+1))
		}
		return PassAction()
	case PhaseAttempt:
		f := readBids(&v)
		best, bestScore := v.Legal[0], -1<<30
		for _, a := range v.Legal {
			m, _ := Decode(a)
			s := v.Seats[m.Seat]
			score := r.Below(100) + 40*(s.Stack-s.Revealed)
			if f.trusted(&v, int(m.Seat)) {
				score += 300
			}
			if score > bestScore {
				best, bestScore = a, score
			}
		}
		return best
	case PhasePick:
		return v.Legal[r.Below(len(v.Legal))]
	case PhaseLose:
		return choose(&v, loseCard(&v))
	case PhaseName:
		return v.Legal[r.Below(len(v.Legal))]
	}
	return v.Legal[0]
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
		pct := slyBoot
		switch wildTable(&v) {
		case 1:
			pct = slyBootWild
		case -1:
			pct = slyBootCalm
		}
		return placeCard(&v, &r, pct)
	case PhaseAdd:
		m := newModel(&v)
		if !safe {
			// A boot under sausages is a lure: keep building, open low.
			if handCount(&v) > 0 && v.Hand.Sausages > 0 {
				return PlaceAction(Sausage)
			}
			return choose(&v, BidAction(1))
		}
		best := m.maxBid(slyOpen)
		if handCount(&v) > 0 && r.Below(100) < slyAdd-10*(mine-1) {
			return placeCard(&v, &r, 10)
		}
		return choose(&v, BidAction(max(1, min(best, v.Total))))
	case PhaseBid:
		if !safe {
			if v.Bid+1 <= mine && v.Bid <= 2 && r.Below(100) < slyPush {
				return choose(&v, BidAction(v.Bid+1)) // push the others up
			}
			return PassAction()
		}
		m := newModel(&v)
		if m.success(v.Bid+1) >= slyRaise {
			return choose(&v, BidAction(v.Bid+1))
		}
		return PassAction()
	case PhaseAttempt:
		m := newModel(&v)
		if s, ok := m.safest(); ok {
			return choose(&v, RevealAction(s))
		}
		return v.Legal[0]
	}
	return settle(&v, &r)
}

// settle plays the phases Sly and Sharp play alike: a random card to take
// after a lost attempt, the card to give up, and whom to name (the player
// with the fewest cards, the least dangerous); anything else is forced.
func settle(v *SeatView, r *rng) game.Action {
	switch v.Phase {
	case PhasePick:
		return v.Legal[r.Below(len(v.Legal))]
	case PhaseLose:
		return choose(v, loseCard(v))
	case PhaseName:
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

// wildTable reads the last round: 1 if its challenger (someone else) bid
// far beyond their own stack or raised on their own boot, the mark of
// reckless players; -1 if the bid was sober; 0 if there is nothing to read.
func wildTable(v *SeatView) int {
	l := v.LastRound
	if l == nil || l.Challenger == v.Seat {
		return 0
	}
	own := 0
	for _, rv := range l.Revealed {
		if rv.Seat == l.Challenger {
			own++
		}
	}
	switch {
	case l.N >= own+wildGap || l.OwnBoot && l.N >= 2:
		return 1
	case l.N <= own || l.N == 1:
		return -1
	}
	return 0
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
		q := slyQ0 + slyQAdd*float64(s.Stack-1)
		switch {
		case high[i] > 0 && jump[i] >= 3:
			q = q*1.2 + 0.1 // raised hard: perhaps pushing us up
		case high[i] > 0 && passedAfterBid[i] && high[i] <= 2:
			q = q*1.1 + 0.05 // opened low, dropped out: a lure
		case high[i] > 0 && high[i] <= s.Stack:
			q *= slyTrust // bid within their own stack: likely all sausages
		case high[i] > 0:
			q *= (1 + slyTrust) / 2
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
