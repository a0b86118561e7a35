package sausages

import (
	"github.com/trickchef/trickchef/game"
)

// Sharp is the top AI level («Шулер»), a pure function of a SeatView and a
// seed like the others: it reads only the view, the same view and seed
// give the same action, and it always returns one of v.Legal (-1 if
// empty).
//
// It keeps a belief over every opponent's stack (see belief): where in the
// stack, if anywhere, the boot lies, from what the seat placed (a boot is
// most often laid first, under sausages added as a lure, and a player who
// keeps adding is likelier to be hiding one), what it bid (a bid beyond 2 is
// rarely made on a boot), what it passed (a player who passes a bid its own
// stack covers has little faith in it), how many cards it may have lost
// (a lost boot cannot be down) and which of its cards are already turned.
// From the belief it computes, exactly for that model, the best chance of
// turning n cards without a boot (how many to take from each stack), and
//
//   - bids: lays a sausage at setup most of the time so that it can
//     challenge, but its boot as often as the share of the others who
//     have lost a card (wild bidders turn whatever is down, and the boot
//     stops them), always when the last challenger bid wildly among
//     mostly wild players; opens at once at the highest bid it is nearly sure of
//     (often just its own stack, which no one else can use), or adds a
//     sausage while the others are still building; raises by one while
//     its chance stays above sharpRaise;
//   - bluffs on purpose: now and then it lays its boot first, builds a
//     lure on it and, when a low bid is on, raises within its own stack,
//     which reads as an honest bid, to push a real challenger higher (and
//     onto its boot); the rest of the time with its boot down it passes;
//   - reveals by the belief: the stacks of its best plan, the card least
//     likely to be a boot first.
func Sharp(v SeatView, seed uint64) game.Action {
	if len(v.Legal) == 0 {
		return -1
	}
	if len(v.Legal) == 1 {
		return v.Legal[0]
	}
	r := aiRand(&v, seed^0x5ea4)
	safe := ownSafe(&v)
	mine := len(v.Stack)
	switch v.Phase {
	case PhaseSetup:
		// Wild bidders turn whatever is down: the more of them, the more
		// often the boot goes down to stop them.
		// The last challenger's wild bid among mostly wild players: always.
		w := wildShare(&v)
		if w >= 0.5 && wildTable(&v) > 0 {
			w = 1
		}
		return placeCard(&v, &r, max(sharpBoot, int(100*w)))
	case PhaseAdd:
		if !safe {
			if v.Hand.Sausages > 0 {
				return PlaceAction(Sausage) // a lure on the boot
			}
			return choose(&v, BidAction(1)) // forced
		}
		b := newBelief(&v)
		if v.Hand.Sausages > 0 && b.building() && r.Below(100) < sharpAdd {
			return PlaceAction(Sausage)
		}
		return choose(&v, BidAction(max(1, min(b.maxBid(sharpOpen), v.Total))))
	case PhaseBid:
		if !safe {
			if v.Bid+1 <= mine && v.Bid+1 <= sharpPushMax && r.Below(100) < sharpPush {
				return choose(&v, BidAction(v.Bid+1)) // the bluff: looks honest
			}
			return PassAction()
		}
		b := newBelief(&v)
		if b.success(v.Bid+1) >= sharpRaise {
			return choose(&v, BidAction(v.Bid+1))
		}
		return PassAction()
	case PhaseAttempt:
		b := newBelief(&v)
		if s, ok := b.nextReveal(v.Target - len(v.Revealed)); ok {
			return choose(&v, RevealAction(s))
		}
		return v.Legal[0]
	}
	return settle(&v, &r)
}

// wildShare is the share of the other players still in who have lost a
// card: failed attempts are the mark of wild bidders.
func wildShare(v *SeatView) float64 {
	in, losers := 0, 0
	for i, s := range v.Seats {
		if game.Seat(i) != v.Seat && !s.Out {
			in++
			if s.Owned < CardsPerPlayer {
				losers++
			}
		}
	}
	return float64(losers) / float64(max(in, 1))
}

// Sharp's settings, tuned in the arena (docs/ai.md, «Сосиски»).
const (
	sharpBoot     = 15   // % boot first at setup: a lure and a trap
	sharpWildLost = 3    // ... always once the others lost this many cards
	sharpAdd      = 50   // % add a sausage while others are still building
	sharpOpen     = 0.85 // open at the highest bid this sure
	sharpRaise    = 0.6  // raise while this sure
	sharpPush     = 25   // % bluff raise with the boot down ...
	sharpPushMax  = 3    // ... up to this bid, within the own stack
	// The model of how others place and bid.
	beliefSetupBoot = 0.8  // a player holding the boot lays it first
	beliefAddBoot   = 0.15 // ... or as a later card, per card added
	beliefAddSafe   = 0.5  // each card added is this much less likely on a safe stack
	beliefBidLow    = 0.4  // a bid of 1 or 2 on a stack with the boot (a bluff or a push)
	beliefBidHigh   = 0.07 // a higher bid on a stack with the boot
	beliefPassSafe  = 0.5  // passing a bid one's own stack covers, when safe
	beliefBidReach  = 2    // a bid beyond the own stack (or a jump) by more is wild: no evidence
)

// belief is Sharp's model of the opponents' stacks: for each, the chance
// that the boot is at each face-down position (0 the next to turn), and the
// seat's own stack, always turned first.
type belief struct {
	v    *SeatView
	n    int
	mine int
	down [MaxPlayers]int
	// at[i][j]: P(the boot of seat i is its j-th face-down card from the top).
	at [MaxPlayers][MaxCards]float64
}

func newBelief(v *SeatView) *belief { return newBeliefPrior(v, beliefSetupBoot) }

// newBeliefPrior is newBelief with another prior that a player holding
// the boot lays it first.
func newBeliefPrior(v *SeatView, setupBoot float64) *belief {
	b := &belief{v: v, n: len(v.Seats), mine: len(v.Stack)}
	var bids, highBids [MaxPlayers]int
	var passedCovered [MaxPlayers]bool
	cur := 0
	for _, e := range v.Bids {
		if e.Seat < 0 || int(e.Seat) >= b.n {
			continue
		}
		if e.Pass() {
			// Passing a bid one's own stack alone would beat.
			if cur < v.Seats[e.Seat].Stack {
				passedCovered[e.Seat] = true
			}
			continue
		}
		// Only a bid that the bidder's own stack and a little more could
		// make says something; a wild one says nothing about the stack.
		if st := v.Seats[e.Seat].Stack; e.N <= st+beliefBidReach && e.N-cur <= beliefBidReach {
			bids[e.Seat]++
			if e.N > 2 {
				highBids[e.Seat]++
			}
		}
		cur = e.N
	}
	for i, s := range v.Seats {
		if game.Seat(i) == v.Seat || s.Out || s.Stack == 0 {
			continue
		}
		k := s.Stack
		// Holds the boot still: a card lost on someone else's boot is
		// picked blind, and a player loses sausages first on their own.
		hb := min(1, float64(s.Owned)/CardsPerPlayer+0.15)
		var w [MaxCards]float64 // by position from the bottom
		none := 1 - hb
		if s.Hand == 0 {
			// Everything is down: the boot too, if still held.
			if k == 1 {
				w[0] = hb
			} else {
				w[0] = hb * setupBoot
				for j := 1; j < k; j++ {
					w[j] = hb * (1 - setupBoot) / float64(k-1)
				}
			}
		} else {
			w[0] = hb * setupBoot
			later := hb * (1 - setupBoot)
			for j := 1; j < k; j++ {
				w[j] = later * beliefAddBoot
			}
			none += later * max(0, 1-beliefAddBoot*float64(k-1))
		}
		// Evidence: likelihood of what the seat did, safe vs boot down.
		safeL := 1.0
		for j := 1; j < k; j++ {
			safeL *= beliefAddSafe
		}
		bootL := 1.0
		for j := 0; j < bids[i]; j++ {
			if j < highBids[i] {
				bootL *= beliefBidHigh
			} else {
				bootL *= beliefBidLow
			}
		}
		if passedCovered[i] {
			safeL *= beliefPassSafe
		}
		none *= safeL
		total := none
		for j := 0; j < k; j++ {
			w[j] *= bootL
		}
		// Turned cards (from the top) were sausages.
		down := k - s.Revealed
		for j := down; j < k; j++ {
			w[j] = 0
		}
		for j := 0; j < down; j++ {
			total += w[j]
		}
		b.down[i] = down
		if total <= 0 {
			continue
		}
		for j := 0; j < down; j++ {
			b.at[i][down-1-j] = w[j] / total
		}
	}
	return b
}

// safeTop is the chance that the top t face-down cards of seat i hold no
// boot.
func (b *belief) safeTop(i, t int) float64 {
	if t > b.down[i] {
		return 0
	}
	p := 1.0
	for j := 0; j < t; j++ {
		p -= b.at[i][j]
	}
	return max(p, 0)
}

// plan is the best chance of turning need more opponent cards without a
// boot and how many to take from each seat (exact for the model: the
// stacks are independent, so a small knapsack over seats).
func (b *belief) plan(need int) (float64, [MaxPlayers]int) {
	var take [MaxPlayers]int
	if need <= 0 {
		return 1, take
	}
	// best[i][t]: best chance using seats 0..i-1 for t cards.
	var best [MaxPlayers + 1][MaxCards + 1]float64
	var choice [MaxPlayers + 1][MaxCards + 1]int
	best[0][0] = 1
	for i := 0; i < b.n; i++ {
		for t := 0; t <= need; t++ {
			for u := 0; u <= min(t, b.down[i]); u++ {
				if p := best[i][t-u] * b.safeTop(i, u); p > best[i+1][t] {
					best[i+1][t], choice[i+1][t] = p, u
				}
			}
		}
	}
	t := need
	for i := b.n; i > 0; i-- {
		take[i-1] = choice[i][t]
		t -= take[i-1]
	}
	return best[b.n][need], take
}

// success is the model's chance of making a bid of n with a safe own stack.
func (b *belief) success(n int) float64 {
	if n > b.v.Total {
		return 0
	}
	p, _ := b.plan(n - b.mine)
	return p
}

// maxBid is the largest bid at least p sure (at least the own stack).
func (b *belief) maxBid(p float64) int {
	n := max(b.mine, 1)
	for n+1 <= b.v.Total && b.success(n+1) >= p {
		n++
	}
	return n
}

// building reports whether another player still in has cards in hand,
// so waiting may bring more lures on the table.
func (b *belief) building() bool {
	for i, s := range b.v.Seats {
		if game.Seat(i) != b.v.Seat && !s.Out && s.Hand > 0 {
			return true
		}
	}
	return false
}

// nextReveal is the stack to turn next for need more cards: within the
// best plan, the one whose next card is least likely a boot.
func (b *belief) nextReveal(need int) (game.Seat, bool) {
	_, take := b.plan(need)
	best, bestRisk := -1, 2.0
	for i := 0; i < b.n; i++ {
		if take[i] > 0 && b.down[i] > 0 && b.at[i][0] < bestRisk {
			best, bestRisk = i, b.at[i][0]
		}
	}
	if best < 0 { // no plan reaches need: the least risky card anyway
		for i := 0; i < b.n; i++ {
			if b.down[i] > 0 && b.at[i][0] < bestRisk {
				best, bestRisk = i, b.at[i][0]
			}
		}
	}
	return game.Seat(best), best >= 0
}
