package trickchef

import (
	"slices"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// reasonCode names why «Профи»'s move beats the one a person made, in the
// game's own terms (the review's moments; trickchef.reason.* in the
// catalog).
type reasonCode string

const (
	// reasonChefStars: the chef taken sits at once on a won card of its
	// suit (Card, Stars); the person's chef has nothing to sit on.
	reasonChefStars reasonCode = "chef_stars"
	// reasonChefTrump: taking this chef leaves Trumps trump, and the hand
	// holds Count cards of them (more than with the person's chef).
	reasonChefTrump reasonCode = "chef_trump"
	// reasonChefHand: the hand holds Count cards of the chef's suit (Suit)
	// it may still win, the person's chef's suit fewer (Other).
	reasonChefHand reasonCode = "chef_hand"
	// reasonCoinsNoStars: the person put Coins coins on a card whose trick
	// brings no star (no chef of its cards' suits); a coin kept is a point.
	reasonCoinsNoStars reasonCode = "coins_no_stars"
	// reasonCoins: the person spent Coins coins more than «Профи» on the
	// same card; each coin kept is a point at the round's end.
	reasonCoins reasonCode = "coins"
	// reasonTakeStars: the card takes the trick, and the seat's chefs sit
	// on its cards (Cards) for Stars stars.
	reasonTakeStars reasonCode = "take_stars"
	// reasonLowest: the card is most likely the trick's lowest: it brings
	// a chef; reasonLowestSure: it is, nobody playing after it.
	reasonLowest     reasonCode = "lowest"
	reasonLowestSure reasonCode = "lowest_sure"
	// reasonLowestCheaper: both cards are the trick's lowest and bring the
	// chef; «Профи»'s is the higher one, and the person's low card (Other
	// card: Low) would have stayed in hand for another chef.
	reasonLowestCheaper reasonCode = "lowest_cheaper"
	// reasonTakeKeepLow: both cards take the trick; «Профи»'s is the
	// higher one, and the person's low card (Low) stays in hand to be a
	// trick's lowest later.
	reasonTakeKeepLow reasonCode = "take_keep_low"
	// reasonTakesSure, reasonGivesSure: the seat plays last, «Профи»'s card
	// takes the trick, or neither takes it nor is its lowest (a coin of
	// income).
	reasonTakesSure reasonCode = "takes_sure"
	reasonGivesSure reasonCode = "gives_sure"
	// reasonIncome: the card neither takes the trick nor is the lowest, so
	// the seat is paid a coin; the person's card took a trick worth no
	// star.
	reasonIncome reasonCode = "income"
	// reasonTop: a lead with the highest card of its suit still out
	// (Card): only a trump takes the trick from it; reasonTopTrump: the
	// card is a trump too, nothing takes the trick from it.
	reasonTop      reasonCode = "top"
	reasonTopTrump reasonCode = "top_trump"
	// reasonTakes, reasonGives: «Профи»'s card most likely takes the trick,
	// or gives it away, by its search (a lead, where the table shows
	// nothing yet).
	reasonTakes reasonCode = "takes"
	reasonGives reasonCode = "gives"
	// reasonGivesOrChef: «Профи»'s card most likely does not take the
	// trick, by its search: it brings the seat a coin or a chef.
	reasonGivesOrChef reasonCode = "gives_or_chef"
	// reasonChefMoreStars: both chefs sit at once on a won card of their
	// suit; «Профи»'s on Card for Stars, the person's on Low for Fewer.
	reasonChefMoreStars reasonCode = "chef_more_stars"
	// reasonChefHandStars: the hand holds as many cards of both suits, but
	// those of «Профи»'s chef (Cards) are worth Stars if won, those of the
	// person's Fewer.
	reasonChefHandStars reasonCode = "chef_hand_stars"
	// reasonChefRound: by the judge's playouts, the round ends with more
	// stars and coins for the seat after «Профи»'s chef (Round) than after
	// the person's (Else): where no card or trump tells it, the points do.
	reasonChefRound reasonCode = "chef_round"
	// reasonChefRivals: by the judge's playouts, the others end the round
	// with Points fewer stars and coins after «Профи»'s chef.
	reasonChefRivals reasonCode = "chef_rivals"
)

// reason is why «Профи»'s move is better than the person's, computed from
// the seat's view at that moment: a code and its arguments.
type reason struct {
	Code  reasonCode
	Card  tc.Card   // the card «Профи» plays, or the won card a chef sits on
	Low   tc.Card   // the person's card, kept by «Профи»
	Cards []tc.Card // the trick's cards the seat's chefs would count
	Suit  tc.Suit   // the chef «Профи» takes
	Other tc.Suit   // the chef the person took
	Suits []tc.Suit // trumps after «Профи»'s chef
	Stars int
	Coins int
	Count int // cards in hand (of the chef's suit, or of the trumps)
	Fewer int // ... and with the person's chef
	// Round and Else are what the round scored on average after
	// «Профи»'s move and after the person's; Points is the others' loss.
	Round, Else tc.Tally
	Points      float64
}

// minTally is the least difference in average points a reasonChefRound
// or reasonChefRivals tells: below it the playouts' noise could tell it.
const minTally = 0.5

// whyBetter compares the person's move played with «Профи»'s best in v,
// the seat's view before it; vd is the judge's verdict on played. It
// reports false when it finds no reason to tell (the same move, or one it
// cannot decode).
func whyBetter(v tc.SeatView, played, best game.Action, vd tc.Verdict) (reason, bool) {
	p, ok1 := tc.Decode(played)
	b, ok2 := tc.Decode(best)
	if !ok1 || !ok2 || played == best || p.Kind != b.Kind {
		return reason{}, false
	}
	if b.Kind == tc.KindChef {
		if r, ok := chefReason(v, p.Suit, b.Suit); ok {
			return r, true
		}
		return roundReason(p.Suit, b.Suit, vd)
	}
	return cardReason(v, p, b, vd.Why)
}

// roundReason tells where the points of «Профи»'s chef come from when the
// cards and trumps in view do not: the seat's own stars and coins at the
// round's end, or the others', whichever moved more.
func roundReason(p, b tc.Suit, vd tc.Verdict) (reason, bool) {
	if vd.Deals == 0 {
		return reason{}, false
	}
	bt, pt := vd.BestTally, vd.Tally
	own := bt.Stars + bt.Coins - pt.Stars - pt.Coins
	rivals := pt.RivalStars + pt.RivalCoins - bt.RivalStars - bt.RivalCoins
	switch {
	case own >= rivals && own >= minTally:
		return reason{Code: reasonChefRound, Suit: b, Other: p, Round: bt, Else: pt}, true
	case rivals > own && rivals >= minTally:
		return reason{Code: reasonChefRivals, Suit: b, Other: p, Points: rivals}, true
	}
	return reason{}, false
}

// chefReason: why the chef of suit b beats the chef of suit p.
func chefReason(v tc.SeatView, p, b tc.Suit) (reason, bool) {
	chefs := v.Seats[v.Seat].Chefs
	if c, ok := nextCovered(v.Won, b, chefs[b]); ok {
		o, also := nextCovered(v.Won, p, chefs[p])
		if !also {
			return reason{Code: reasonChefStars, Suit: b, Other: p, Card: c, Stars: c.Stars()}, true
		}
		if c.Stars() > o.Stars() {
			return reason{Code: reasonChefMoreStars, Suit: b, Other: p, Card: c, Stars: c.Stars(), Low: o, Fewer: o.Stars()}, true
		}
	}
	if v.Phase == tc.PhaseAward {
		tb, tp := trumpsAfter(v.Pool, b), trumpsAfter(v.Pool, p)
		nb, np := inSuits(v.Hand, tb), inSuits(v.Hand, tp)
		if nb > np && nb > 0 {
			return reason{Code: reasonChefTrump, Suit: b, Other: p, Suits: tb.Suits(), Count: nb, Fewer: np}, true
		}
	}
	nb, np := inSuits(v.Hand, 1<<b), inSuits(v.Hand, 1<<p)
	if nb > np {
		return reason{Code: reasonChefHand, Suit: b, Other: p, Count: nb, Fewer: np}, true
	}
	if sb, sp := starsIn(v.Hand, b), starsIn(v.Hand, p); nb == np && nb > 0 && sb > sp {
		var cards []tc.Card
		for _, c := range v.Hand {
			if c.Suit == b {
				cards = append(cards, c)
			}
		}
		return reason{Code: reasonChefHandStars, Suit: b, Other: p, Cards: cards, Stars: sb, Fewer: sp}, true
	}
	return reason{}, false
}

// starsIn is the stars of the hand's cards of suit s.
func starsIn(hand []tc.Card, s tc.Suit) int {
	n := 0
	for _, c := range hand {
		if c.Suit == s {
			n += c.Stars()
		}
	}
	return n
}

// coveredCards are the won cards of suit s that chefs of that suit sit
// on: the lowest ones.
func coveredCards(won []tc.Card, s tc.Suit, chefs int) []tc.Card {
	var low []tc.Card
	for _, c := range won {
		if c.Suit == s {
			low = append(low, c)
		}
	}
	sortCards(low)
	return low[:min(chefs, len(low))]
}

// nextCovered is the won card of suit s the seat's next chef of that suit
// would sit on (the lowest one its chefs do not cover yet).
func nextCovered(won []tc.Card, s tc.Suit, chefs int) (tc.Card, bool) {
	var low []tc.Card
	for _, c := range won {
		if c.Suit == s {
			low = append(low, c)
		}
	}
	if len(low) <= chefs {
		return tc.Card{}, false
	}
	sortCards(low)
	return low[chefs], true
}

func sortCards(cs []tc.Card) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Value < cs[j-1].Value; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// trumpsAfter is the trumps once a chef of suit s leaves the pool.
func trumpsAfter(pool [tc.NumSuits]int, s tc.Suit) tc.SuitSet {
	if pool[s] > 0 {
		pool[s]--
	}
	return tc.Trumps(pool)
}

// inSuits counts the cards of hand in the suits of t.
func inSuits(hand []tc.Card, t tc.SuitSet) int {
	n := 0
	for _, c := range hand {
		if t.Has(c.Suit) {
			n++
		}
	}
	return n
}

// outcome is what a card does to the trick as it stands on the table:
// whether it takes it, whether it is its lowest, and the stars the seat's
// chefs would count on the trick's cards if it takes it. final: nobody
// plays after it.
type outcome struct {
	takes, lowest, final bool
	stars                int
	cards                []tc.Card // the trick's cards that would score
}

func playOut(v tc.SeatView, m tc.Move) outcome {
	plays := append(append([]tc.Played(nil), v.CurrentTrick...), tc.Played{Seat: v.Seat, Card: m.Card, Coins: m.Coins})
	w, c := tc.Resolve(plays, suitSet(v.Trumps))
	me := len(plays) - 1
	o := outcome{takes: w == me, lowest: c == me, final: len(plays) == v.Players}
	chefs := v.Seats[v.Seat].Chefs
	won := append([]tc.Card(nil), v.Won...)
	for _, p := range plays {
		won = append(won, p.Card)
	}
	for s := tc.Suit(0); s < tc.NumSuits; s++ {
		before, after := coveredCards(v.Won, s, chefs[s]), coveredCards(won, s, chefs[s])
		for _, c := range after {
			if !slices.Contains(before, c) {
				o.cards = append(o.cards, c)
				o.stars += c.Stars()
			}
		}
		for _, c := range before {
			if !slices.Contains(after, c) {
				o.stars -= c.Stars()
			}
		}
	}
	return o
}

func suitSet(ss []tc.Suit) tc.SuitSet {
	var t tc.SuitSet
	for _, s := range ss {
		t |= 1 << s
	}
	return t
}

// topOfSuit reports whether no card of c's suit higher than c is left to
// anyone else: each is in the seat's hand or won pile, or was played in
// the last trick.
func topOfSuit(v tc.SeatView, c tc.Card) bool {
	seen := map[tc.Card]bool{}
	for _, x := range v.Hand {
		seen[x] = true
	}
	for _, x := range v.Won {
		seen[x] = true
	}
	if v.LastTrick != nil && v.LastTrick.Round == v.Round {
		for _, p := range v.LastTrick.Cards {
			seen[p.Card] = true
		}
	}
	for x := c.Value + 1; x <= tc.MaxValue; x++ {
		if !seen[tc.Card{Suit: c.Suit, Value: x}] {
			return false
		}
	}
	return true
}

// cardReason: why «Профи»'s card b beats the person's card p. The trick
// on the table decides what a card does when the seat plays last; before
// that, the search's evidence (ev) says what «Профи»'s card most likely
// does.
func cardReason(v tc.SeatView, p, b tc.Move, ev tc.Advice) (reason, bool) {
	op, ob := playOut(v, p), playOut(v, b)
	if p.Card == b.Card && abs(p.Coins) > abs(b.Coins) {
		spent := abs(p.Coins) - abs(b.Coins)
		if op.takes && op.stars == 0 && (op.final || ob.final) {
			return reason{Code: reasonCoinsNoStars, Card: b.Card, Coins: spent}, true
		}
		return reason{Code: reasonCoins, Card: b.Card, Coins: spent}, true
	}
	sure := ob.final
	takes := ob.takes && (sure || ev.Took >= 0.5)
	lowest := ob.lowest && (sure || ev.Chef >= 0.5)
	switch {
	case takes && ob.stars > 0 && (!op.takes || op.stars < ob.stars):
		return reason{Code: reasonTakeStars, Card: b.Card, Cards: ob.cards, Stars: ob.stars}, true
	case sure && ob.lowest && op.lowest && !ob.takes && !op.takes && b.Coins == 0 && p.Coins == 0 && b.Card.Value > p.Card.Value:
		return reason{Code: reasonLowestCheaper, Card: b.Card, Low: p.Card}, true
	case lowest && !ob.takes && !op.lowest && sure:
		return reason{Code: reasonLowestSure, Card: b.Card}, true
	case lowest && !ob.takes && !op.lowest:
		return reason{Code: reasonLowest, Card: b.Card}, true
	case sure && !ob.takes && !ob.lowest && op.takes && op.stars == 0:
		return reason{Code: reasonIncome, Card: b.Card}, true
	case sure && ob.takes && op.takes && b.Coins == 0 && p.Coins == 0 && b.Card.Value > p.Card.Value:
		return reason{Code: reasonTakeKeepLow, Card: b.Card, Low: p.Card}, true
	case sure && ob.takes:
		return reason{Code: reasonTakesSure, Card: b.Card}, true
	case sure && !ob.takes && !ob.lowest:
		return reason{Code: reasonGivesSure, Card: b.Card}, true
	case ev.Deals > 0 && ev.Chef >= 0.5:
		return reason{Code: reasonLowest, Card: b.Card}, true
	case len(v.CurrentTrick) == 0 && ev.Took >= 0.5 && b.Coins == 0 && topOfSuit(v, b.Card):
		if suitSet(v.Trumps).Has(b.Card.Suit) {
			return reason{Code: reasonTopTrump, Card: b.Card}, true
		}
		return reason{Code: reasonTop, Card: b.Card}, true
	case ev.Deals > 0 && ev.Took >= 0.5:
		return reason{Code: reasonTakes, Card: b.Card}, true
	case ev.Deals > 0 && ev.Took+ev.Chef < 0.5:
		return reason{Code: reasonGives, Card: b.Card}, true
	case ev.Deals > 0 && ev.Took < 0.5:
		return reason{Code: reasonGivesOrChef, Card: b.Card}, true
	}
	return reason{}, false
}

// text puts r into one clause of the language of l (Telegram HTML).
func (r reason) text(l adapter.Loc) string {
	key := "trickchef.reason." + string(r.Code)
	switch r.Code {
	case reasonChefStars:
		return l.T(key, "Suit", suitEmoji(r.Suit), "Other", suitEmoji(r.Other), "Card", cardText(r.Card),
			"Stars", l.T("count.stars", "Count", r.Stars))
	case reasonChefTrump:
		if r.Fewer == 0 {
			key += "_none"
		}
		trumps := l.T("trickchef.review.trumps", "Suits", suitsText(r.Suits))
		if len(r.Suits) == 1 {
			trumps = l.T("trickchef.review.trumps_one", "Suits", suitsText(r.Suits))
		}
		return l.T(key, "Suit", suitEmoji(r.Suit), "Other", suitEmoji(r.Other), "Trumps", trumps,
			"Cards", l.T("count.cards", "Count", r.Count), "Fewer", l.T("count.cards", "Count", r.Fewer))
	case reasonChefMoreStars:
		return l.T(key, "Suit", suitEmoji(r.Suit), "Other", suitEmoji(r.Other), "Card", cardText(r.Card), "Low", cardText(r.Low),
			"Stars", l.T("count.stars", "Count", r.Stars), "Fewer", l.T("count.stars", "Count", r.Fewer))
	case reasonChefHandStars:
		return l.T(key, "Suit", suitEmoji(r.Suit), "Other", suitEmoji(r.Other), "Cards", cardsText(r.Cards), "Stars", r.Stars, "Fewer", r.Fewer)
	case reasonChefHand:
		return l.T(key, "Suit", suitEmoji(r.Suit), "Other", suitEmoji(r.Other),
			"Cards", l.T("count.cards", "Count", r.Count), "Fewer", r.Fewer)
	case reasonCoinsNoStars, reasonCoins:
		return l.T(key, "Card", cardText(r.Card), "Coins", l.T("count.coins", "Count", r.Coins),
			"Points", l.T("count.points", "Count", r.Coins))
	case reasonTakeStars:
		if len(r.Cards) == 1 && r.Cards[0] == r.Card {
			key += "_own"
		}
		return l.T(key, "Suit", suitEmoji(r.Card.Suit), "Cards", cardsText(r.Cards), "Stars", r.Stars)
	case reasonLowestCheaper, reasonTakeKeepLow:
		return l.T(key, "Card", cardText(r.Card), "Low", cardText(r.Low))
	case reasonTop, reasonTopTrump:
		return l.T(key, "Suit", suitEmoji(r.Card.Suit))
	case reasonChefRound:
		return l.T(key, "Other", suitEmoji(r.Other),
			"Stars", decimal(l, r.Round.Stars), "Coins", decimal(l, r.Round.Coins),
			"ElseStars", decimal(l, r.Else.Stars), "ElseCoins", decimal(l, r.Else.Coins))
	case reasonChefRivals:
		return l.T(key, "Other", suitEmoji(r.Other), "Points", decimal(l, r.Points))
	}
	return l.T(key, "Card", cardText(r.Card))
}
