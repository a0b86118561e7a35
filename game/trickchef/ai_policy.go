package trickchef

import (
	"math"
	"math/bits"

	"github.com/trickchef/trickchef/game"
)

// The «Повар» heuristic. It is Baseline's idea (score each play by what the
// trick is likely to bring) made sharper with what a careful player tracks:
// which cards are still out (so a card's chance to hold a trick is counted,
// not guessed from its face), coins used both to win and to take the chef
// when the outcome is certain, and chef choices that look at the suits the
// seat can still win.
//
// It reads only the acting seat's hand and won pile, the public parts of a
// State and the set of cards still out. That makes it usable twice: as the
// cook level (on a world built from the seat's view) and as the fast
// playout policy of the search (on sampled full states, where "cards still
// out" is the union of the other hands, which that seat could have worked
// out from the public record). It allocates nothing.

// cookParams are the numbers that shape the cook heuristic's choices, in
// one place so a playout policy can be tuned (TestTuneCook) without
// touching the yardstick: defaultCook is the heuristic as the cook level,
// PrevShef and Baseline's shared parts play it.
type cookParams struct {
	winBonus   float64 // a won trick's worth beyond its stars: leading the next
	spareChef  float64 // per card still to come that a spare chef of the led suit would sit on
	laterTrump float64 // weight of each trump out against a card held for later
	nowTrump   float64 // weight of each trump out against a non-trump winning now
	holdLater  float64 // chance a card out that beats ours is played on it (later tricks)
	holdWin    float64 // the same, for the trick's current winner
	holdChef   float64 // the same, for a lower card than the trick's lowest
	income     float64 // the coin a trick's loser takes, when the reserve has one
	coinCost   float64 // each coin spent (a point at round end)
	maxCoins   int     // the most coins a swing may spend
	chefBase   float64 // the chef's worth when no pool suit is worth more
	chefSpread float64 // cards of a suit per trick won in it, per player
	chefCap    float64 // cap on the uncovered cards a chef is worth later
	chefLater  float64 // worth of each uncovered card later
	chefNowMix float64 // weight of the later worth when a chef is worth stars now
	chefScarce float64 // per card in hand of a suit made scarcer by taking its chef
	keepWin    float64 // a held card's worth per unit of its chance to win later
	keepStars  float64 // per star, the boost when chefs of its suit are held
	keepLow    float64 // a low card's worth for taking chefs later
	keepLowMax int     // the highest value that counts as low
}

// defaultCook is the cook heuristic as it was built.
var defaultCook = cookParams{
	winBonus: 0.2, spareChef: 1.5, laterTrump: 0.3, nowTrump: 0.35,
	holdLater: 0.7, holdWin: 0.8, holdChef: 0.6, income: 1, coinCost: 1, maxCoins: 4,
	chefBase: 0.5, chefSpread: 0.5, chefCap: 1.5, chefLater: 1.5, chefNowMix: 0.5, chefScarce: 0.05,
	keepWin: 0.3, keepStars: 0.5, keepLow: 0.3, keepLowMax: 2,
}

// cookEval is what the heuristic derives once per decision.
type cookEval struct {
	p       *cookParams
	st      *State
	me      uint8
	n       int
	hand    cardSet
	won     cardSet
	out     cardSet // cards still out: in other hands (or unseen won piles)
	outN    float64
	perHand float64 // cards in each other hand, on average
	chefs   [NumSuits]uint8
	trumps  SuitSet
	after   int     // players still to play after me in this trick
	chef    float64 // chefNow, once computed (-1 before)
}

func (e *cookEval) init(st *State, me uint8, out cardSet, p *cookParams) {
	*e = cookEval{p: p, st: st, me: me, n: int(st.players), hand: st.hands[me], won: st.won[me], out: out}
	e.outN = float64(out.count())
	others := 0
	for i := 0; i < e.n; i++ {
		if uint8(i) != me {
			others += st.hands[i].count()
		}
	}
	// The hand sizes are public; when the state's other hands are empty
	// (a world not yet dealt) they follow from the trick position.
	if others == 0 {
		others = (e.n - 1) * e.hand.count()
	}
	e.perHand = float64(others) / float64(e.n-1)
	e.chefs = st.chefs[me]
	e.trumps = trumpsOf(&st.pool)
	e.after = e.n - int(st.nPlayed) - 1
	e.chef = -1
}

// chefNow is what taking a chef in this trick is worth: the best suit in
// the pool. It is computed on first use; most plays cannot take the chef.
func (e *cookEval) chefNow() float64 {
	if e.chef < 0 {
		e.chef = e.p.chefBase
		for s := Suit(0); s < NumSuits; s++ {
			if e.st.pool[s] > 0 {
				e.chef = math.Max(e.chef, e.chefValue(s, false))
			}
		}
	}
	return e.chef
}

// cookAct chooses an action for the seat to act in st, knowing only its
// own cards, the public state and out. noise scales a random perturbation
// of the scores (0: none beyond tie-breaking); p are the heuristic's numbers.
func cookAct(st *State, out cardSet, r *rng, noise float64, p *cookParams) game.Action {
	var e cookEval
	me := st.turn
	e.init(st, me, out, p)
	best, bestU := game.Action(-1), math.Inf(-1)
	consider := func(a game.Action, u float64) {
		u += (r.Float64() - 0.5) * (noise + 1e-6)
		if u > bestU {
			best, bestU = a, u
		}
	}
	switch st.phase {
	case PhasePick, PhaseAward:
		from := &st.pool
		if st.phase == PhasePick {
			from = &st.setAside
		}
		for s := Suit(0); s < NumSuits; s++ {
			if from[s] > 0 {
				consider(ChefAction(s), e.chefValue(s, st.phase == PhasePick))
			}
		}
	case PhasePlay:
		for x := uint64(st.playable(me)); x != 0; x &= x - 1 {
			i := uint8(bits.TrailingZeros64(x))
			c := cardAt(i)
			consider(PlayAction(c, 0), e.playValue(c, 0))
			up, down := e.swings(c)
			if up != 0 {
				consider(PlayAction(c, up), e.playValue(c, up))
			}
			if down != 0 {
				consider(PlayAction(c, down), e.playValue(c, down))
			}
		}
	}
	return best
}

// swings returns the fewest coins (+k) that make c the trick's current
// winner and the fewest (−k) that make it the lowest card, 0 when c already
// is, cannot be, or the seat lacks the coins. Coins are only worth it when
// they change the trick; playing last they decide it.
func (e *cookEval) swings(c Card) (up, down int) {
	st := e.st
	have := int(st.coins[e.me])
	if have == 0 {
		return 0, 0
	}
	var suits [4]Suit
	var eff [4]int
	k := int(st.nPlayed)
	for i := 0; i < k; i++ {
		p := st.plays[i]
		suits[i], eff[i] = cardAt(p.card).Suit, Effective(cardAt(p.card), int(p.coins))
	}
	suits[k] = c.Suit
	eff[k] = c.Value
	w, ch := resolve(k+1, &suits, &eff, e.trumps)
	if w != k && k > 0 {
		// The card can win only as a trump or in the led suit when no
		// trump is played.
		if top := eff[w]; e.trumps.Has(c.Suit) || (c.Suit == suits[0] && !e.trumps.Has(suits[w])) {
			// Ties go to the card played last, so reaching top is enough.
			if need := (top - c.Value + 1) / 2; need > 0 && need <= have && need <= e.p.maxCoins {
				up = need
			}
		}
	}
	if ch != k && k > 0 {
		low := eff[ch]
		// Strictly lower than the lowest so far (ties go to the first).
		if need := (c.Value - low + 2) / 2; need <= have && need <= e.p.maxCoins {
			down = -need
		}
	}
	return up, down
}

// gain is the stars that adding cards to the won pile adds.
func (e *cookEval) gain(cards cardSet) float64 {
	d := 0
	for s := Suit(0); s < NumSuits; s++ {
		if cards.ofSuit(s) == 0 || e.chefs[s] == 0 {
			continue
		}
		d += starsOf(covered(e.won|cards, s, int(e.chefs[s]))) - starsOf(covered(e.won, s, int(e.chefs[s])))
	}
	return float64(d)
}

// holdChance is the chance that no one among k players, each holding about
// perHand of the cards out, holds one of the m cards out that would beat
// ours (and plays it: weight discounts that).
func (e *cookEval) holdChance(m float64, k int, weight float64) float64 {
	if k <= 0 || m <= 0 || e.outN == 0 {
		return 1
	}
	f := clamp(weight*m/e.outN, 0, 1)
	return math.Pow(1-f, e.perHand*float64(k))
}

// winChance is the chance a hand card wins a later trick: the higher cards
// of its suit still out and, unless it is trump, the trumps out.
func (e *cookEval) winChance(c Card) float64 {
	higher := e.out.ofSuit(c.Suit) >> (uint(c.Suit)*MaxValue + uint(c.Value))
	m := float64(higher.count())
	if !e.trumps.Has(c.Suit) {
		m += e.p.laterTrump * float64((e.out & deckOf(e.trumps)).count())
	}
	return e.holdChance(m, e.n-1, e.p.holdLater)
}

// chefValue is what one more chef of suit s is worth: stars on cards won
// already, or the expected cards of s still to win beyond the chefs held.
func (e *cookEval) chefValue(s Suit, roundStart bool) float64 {
	now := float64(starsOf(covered(e.won, s, int(e.chefs[s])+1)) - starsOf(covered(e.won, s, int(e.chefs[s]))))
	expect := 0.0
	for x := uint64(e.hand.ofSuit(s)); x != 0; x &= x - 1 {
		expect += e.winChance(cardAt(uint8(bits.TrailingZeros64(x))))
	}
	expect *= float64(e.n) * e.p.chefSpread
	spare := float64(max(int(e.chefs[s])-e.won.ofSuit(s).count(), 0))
	return e.p.chefWorth(now, expect-spare, !roundStart && e.st.pool[s] > 1, e.hand.ofSuit(s).count())
}

// keepValue is what holding c is worth for later tricks.
func (e *cookEval) keepValue(c Card) float64 {
	return e.p.keepWorth(c, e.winChance(c), int(e.chefs[c.Suit]))
}

// playValue scores playing c with coins.
func (e *cookEval) playValue(c Card, coins int) float64 {
	st := e.st
	var suits [4]Suit
	var eff [4]int
	k := int(st.nPlayed)
	var cards cardSet
	for i := 0; i < k; i++ {
		p := st.plays[i]
		suits[i], eff[i] = cardAt(p.card).Suit, Effective(cardAt(p.card), int(p.coins))
		cards |= 1 << p.card
	}
	suits[k], eff[k] = c.Suit, Effective(c, coins)
	cards |= 1 << c.index()
	w, ch := resolve(k+1, &suits, &eff, e.trumps)
	led := suits[0]
	winGain := e.gain(cards) + e.p.winBonus
	if e.after > 0 {
		if spare := int(e.chefs[led]) - e.won.ofSuit(led).count() - cards.ofSuit(led).count(); spare > 0 {
			winGain += float64(min(spare, e.after)) * e.p.spareChef
		}
	}
	pWin, pChef := 0.0, 0.0
	if w == k {
		pWin = 1
		if e.after > 0 {
			// Cards out that would beat ours: higher trumps; if no trump
			// is in the trick and ours is not trump, any trump (from a
			// player void in the led suit) and higher cards of the led suit.
			v := eff[k]
			trumpOut := e.out & deckOf(e.trumps)
			var m float64
			if e.trumps.Has(c.Suit) {
				m = float64(countAtLeast(trumpOut, v))
			} else {
				m = float64(countAtLeast(e.out.ofSuit(led), v)) + e.p.nowTrump*float64(trumpOut.count())
			}
			pWin = e.holdChance(m, e.after, e.p.holdWin)
		}
	}
	if ch == k {
		pChef = 1
		if e.after > 0 {
			pChef = e.holdChance(float64(countBelow(e.out, eff[k])), e.after, e.p.holdChef)
		}
	}
	income := 0.0
	if st.reserve > 0 {
		income = e.p.income
	}
	u := pWin*winGain + (1-pWin)*(1-pChef)*income
	if pChef > 0 {
		u += pChef * e.chefNow()
	}
	return u - e.p.coinCost*float64(max(coins, -coins)) - e.keepValue(c)
}

// countAtLeast counts the cards of m whose face value is at least v.
func countAtLeast(m cardSet, v int) int {
	if v <= 1 {
		return m.count()
	}
	if v > MaxValue {
		return 0
	}
	var mask cardSet
	for s := 0; s < NumSuits; s++ {
		mask |= (suitMask >> (v - 1) << (v - 1)) << (s * MaxValue)
	}
	return (m & mask).count()
}

// countBelow counts the cards of m whose face value is below v.
func countBelow(m cardSet, v int) int {
	if v <= 1 {
		return 0
	}
	if v > MaxValue {
		return m.count()
	}
	return m.count() - countAtLeast(m, v)
}

// shefCook is the cook heuristic as Shef's playouts play it, for every
// seat: its numbers were tuned (TestTuneCook, one coordinate pass of
// 40,000 paired games a step) until one such seat won 32.3% ± 0.3% of
// 80,000 fresh games against three defaultCook, where equal play wins 25%.
// A playout is a forecast of how the round goes; the better the players
// in it play, the closer it is to how good players (the seat itself, and
// searching opponents) really play. docs/ai.md has what it is worth.
var shefCook = cookParams{
	winBonus: 0, spareChef: 1.5, laterTrump: 0.6, nowTrump: 0.245,
	holdLater: 1.4, holdWin: 0.4, holdChef: 1.2, income: 1.4, coinCost: 1.4, maxCoins: 4,
	chefBase: 0.5, chefSpread: 0.5, chefCap: 1.05, chefLater: 1.5, chefNowMix: 0.5, chefScarce: 0.07,
	keepWin: 0.15, keepStars: 0.25, keepLow: 0.3, keepLowMax: 3,
}
