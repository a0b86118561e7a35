package trickchef

import (
	"math"
	"math/bits"

	"github.com/trickchef/trickchef/game"
)

// Baseline is the baseline AI: a one-ply heuristic over the seat's own view.
// It is deterministic for a given view and seed (the seed only breaks
// near-ties) and always returns one of v.Legal, or -1 if v.Legal is empty.
//
//   - Chef picks: the suit whose chef is worth most now (it covers a card
//     already won) plus what the hand can still win in that suit.
//   - Plays: each legal play is scored by what it is likely to bring: the
//     stars the trick's cards would add to the won pile, a chef, or an income
//     coin; minus the coins spent (each is a point at round end) and the
//     future worth of the card given away. Coins are considered only when
//     playing last, where the outcome is certain, so they are spent only
//     when they swing the trick.
func Baseline(v SeatView, seed uint64) game.Action {
	if len(v.Legal) == 0 {
		return -1
	}
	k := newKnowledge(&v)
	best, bestU := v.Legal[0], math.Inf(-1)
	for _, a := range v.Legal {
		m, ok := Decode(a)
		if !ok {
			continue
		}
		var u float64
		switch m.Kind {
		case KindChef:
			u = k.chefValue(m.Suit, v.Phase == PhasePick)
		case KindPlay:
			if m.Coins != 0 && !k.last {
				continue
			}
			u = k.playValue(m.Card, m.Coins)
		}
		u += jitter(seed, a)
		if u > bestU {
			best, bestU = a, u
		}
	}
	return best
}

// jitter is a tiny deterministic tie-breaker in [0, 1e-6).
func jitter(seed uint64, a game.Action) float64 {
	r := rng(seed ^ uint64(a)*0x9e3779b97f4a7c15)
	return r.Float64() * 1e-6
}

// knowledge is what the AI derives once per decision from a SeatView.
type knowledge struct {
	v       *SeatView
	me      game.Seat
	hand    cardSet
	won     cardSet
	chefs   [NumSuits]int
	trumps  SuitSet
	trick   []Played
	last    bool // the seat plays the trick's last card
	after   int  // players still to play after the seat
	reserve int
	chef    float64 // what taking a chef now is worth (best suit)
}

func newKnowledge(v *SeatView) *knowledge {
	k := &knowledge{v: v, me: v.Seat, trick: v.CurrentTrick, reserve: v.Reserve}
	for _, c := range v.Hand {
		k.hand |= 1 << c.index()
	}
	for _, c := range v.Won {
		k.won |= 1 << c.index()
	}
	if int(v.Seat) >= 0 && int(v.Seat) < len(v.Seats) {
		k.chefs = v.Seats[v.Seat].Chefs
	}
	k.trumps = Trumps(v.Pool)
	k.after = v.Players - len(v.CurrentTrick) - 1
	k.last = k.after == 0
	if v.Phase == PhasePlay {
		k.chef = 0.5
		for s := Suit(0); s < NumSuits; s++ {
			if v.Pool[s] > 0 {
				k.chef = math.Max(k.chef, k.chefValue(s, false))
			}
		}
	}
	return k
}

// gain is the stars that adding cards to the won pile would add (it can be
// negative: a low card may displace a higher one under a chef).
func (k *knowledge) gain(cards cardSet) float64 {
	d := 0
	for s := Suit(0); s < NumSuits; s++ {
		if cards.ofSuit(s) == 0 || k.chefs[s] == 0 {
			continue
		}
		d += starsOf(covered(k.won|cards, s, k.chefs[s])) - starsOf(covered(k.won, s, k.chefs[s]))
	}
	return float64(d)
}

// winChance is a rough chance that a hand card wins a trick it leads or
// follows in: high cards and trumps win.
func (k *knowledge) winChance(c Card) float64 {
	p := float64(c.Value-1) / 9
	if k.trumps.Has(c.Suit) {
		p = 0.3 + 0.7*p
	}
	return p * p
}

// chefValue is what one more chef of suit s is worth to the seat: the
// stars it adds on cards already won, or else, if the seat is likely to win
// more cards of s than its chefs cover, about one low card's stars (a chef
// always sits on the lowest card).
func (k *knowledge) chefValue(s Suit, roundStart bool) float64 {
	now := float64(starsOf(covered(k.won, s, k.chefs[s]+1)) - starsOf(covered(k.won, s, k.chefs[s])))
	// Expected cards of s still to win: each trick won in s brings about
	// one card of s per player.
	expect := 0.0
	for x := k.hand.ofSuit(s); x != 0; x &= x - 1 {
		expect += k.winChance(cardAt(uint8(bits.TrailingZeros64(uint64(x)))))
	}
	expect *= float64(k.v.Players) / 2
	spare := float64(max(k.chefs[s]-k.won.ofSuit(s).count(), 0))
	return baselineWorth.chefWorth(now, expect-spare, !roundStart && k.v.Pool[s] > 1, k.hand.ofSuit(s).count())
}

// chefWorth combines a chef's stars now with its worth later: the
// expected cards of its suit still to win beyond the chefs held (capped),
// plus a little when taking it makes the suit scarcer, so more likely
// trump, for the cards of it in hand. Shared by the baseline and «Повар».
func (p *cookParams) chefWorth(now, uncovered float64, scarcer bool, inHand int) float64 {
	future := p.chefLater * clamp(uncovered, 0, p.chefCap)
	if scarcer {
		future += p.chefScarce * float64(inHand)
	}
	if now > 0 {
		return now + p.chefNowMix*future
	}
	return future
}

// baselineWorth is the cook's numbers as Baseline uses them in chefWorth
// and keepWorth: it caps a chef's later worth at one card.
var baselineWorth = func() cookParams {
	p := defaultCook
	p.chefCap = 1
	return p
}()

// keepValue is what holding card c is worth for later tricks.
func (k *knowledge) keepValue(c Card) float64 {
	return baselineWorth.keepWorth(c, k.winChance(c), k.chefs[c.Suit])
}

// keepWorth is what holding c is worth, given its chance to win a later
// trick and the chefs of its suit held: more on cards chefs will sit on,
// and low cards are useful to take chefs later.
func (p *cookParams) keepWorth(c Card, win float64, chefs int) float64 {
	w := p.keepWin * win
	if chefs > 0 {
		w *= 1 + float64(c.Stars())*p.keepStars
	}
	if c.Value <= p.keepLowMax {
		w += p.keepLow
	}
	return w
}

// playValue scores playing c with coins.
func (k *knowledge) playValue(c Card, coins int) float64 {
	var plays [4]Played
	n := copy(plays[:], k.trick)
	plays[n] = Played{Seat: k.me, Card: c, Coins: coins}
	n++
	w, ch := Resolve(plays[:n], k.trumps)
	var cards cardSet
	for _, p := range plays[:n] {
		cards |= 1 << p.Card.index()
	}
	winGain := k.gain(cards) + 0.2 // plus leading the next trick
	if !k.last {
		// Cards still to come mostly follow the led suit.
		led := c.Suit
		if len(k.trick) > 0 {
			led = k.trick[0].Card.Suit
		}
		if spare := k.chefs[led] - k.won.ofSuit(led).count() - cards.ofSuit(led).count(); spare > 0 {
			winGain += float64(min(spare, k.after)) * 1.5
		}
	}
	eff := Effective(c, coins)
	pWin, pChef := 0.0, 0.0
	if w == n-1 {
		pWin = 1
		if !k.last {
			beat := clamp(float64(10-eff)/12, 0.05, 0.95)
			if k.trumps.Has(c.Suit) && (len(k.trick) == 0 || !k.trumps.Has(k.trick[0].Card.Suit)) {
				beat *= 0.5
			}
			pWin = math.Pow(1-beat, float64(k.after))
		}
	}
	if ch == n-1 {
		pChef = 1
		if !k.last {
			under := clamp(float64(eff-1)/12, 0.05, 0.95)
			pChef = math.Pow(1-under, float64(k.after))
		}
	}
	income := 0.0
	if k.reserve > 0 {
		income = 1
	}
	u := pWin*winGain + pChef*k.chef + (1-pWin)*(1-pChef)*income
	return u - float64(max(coins, -coins)) - k.keepValue(c)
}

func clamp(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }
