package trickchef

import (
	"math/bits"

	"github.com/trickchef/trickchef/game"
)

// world is what one seat knows of a game, ready to be completed into full
// states ("determinized") by dealing the cards it cannot see. base holds
// every public fact and the seat's own secrets; the other seats' hands are
// empty and their won piles hold only the cards History saw them win.
type world struct {
	base      State
	me        uint8
	unknown   cardSet    // cards the seat cannot place: other hands and unseen won cards
	handSlots [4]int     // cards to deal into each hand
	wonSlots  [4]int     // unseen cards in each won pile
	void      [4]SuitSet // suits a hand may not receive
}

// newWorld builds the seat's world from its view and the public record.
// It returns false if the view is not a decision point (game over, no
// seat) or is inconsistent with itself; a History that contradicts the
// view is dropped rather than trusted.
func newWorld(v *SeatView, h History) (*world, bool) {
	h.Observe(v.Public)
	if w, ok := buildWorld(v, &h); ok {
		return w, true
	}
	var fresh History
	fresh.Observe(v.Public)
	return buildWorld(v, &fresh)
}

func buildWorld(v *SeatView, h *History) (*world, bool) {
	n := v.Players
	if n != 3 && n != 4 || v.Phase == PhaseOver || !validSeat(v.Seat) || int(v.Seat) >= n ||
		len(v.Seats) != n || !validSeat(v.ToAct) || int(v.ToAct) >= n || v.Round < 1 || v.Round > Rounds || h.Round != v.Round {
		return nil, false
	}
	me := uint8(v.Seat)
	w := &world{me: me}
	st := &w.base
	st.players = uint8(n)
	st.removed = DefaultRemoved
	var suits SuitSet
	for _, s := range v.Suits {
		suits |= 1 << s
	}
	if n == 3 {
		st.removed = Suit(bits.TrailingZeros8(uint8(^suits & (1<<NumSuits - 1))))
	}
	if st.suits() != suits {
		return nil, false
	}
	deck := deckOf(suits)
	st.round, st.trick, st.phase = uint8(v.Round), uint8(v.Trick), v.Phase
	st.roundFirst, st.leader, st.turn = uint8(v.RoundFirst), uint8(v.Leader), uint8(v.ToAct)
	st.first = st.roundFirst
	// Finished rounds, rebuilt from their public scoring so that the
	// engine's totals (and the next round's first player) come out right.
	for r, rr := range v.RoundResults {
		if r >= Rounds || len(rr.Seats) != n {
			return nil, false
		}
		if r == 0 {
			st.first = uint8(rr.First)
		}
		rec := &st.results[r]
		rec.first = uint8(rr.First)
		for i, sr := range rr.Seats {
			rec.coins[i] = uint8(sr.Coins)
			for _, x := range sr.Suits {
				rec.chefs[i][x.Suit] = uint8(x.Chefs)
				for _, c := range x.Won {
					rec.won[i] |= 1 << c.index()
				}
			}
		}
	}
	st.rng = rng(uint64(v.Round)*0x9e3779b97f4a7c15 + uint64(v.Trick))
	st.seed = uint64(st.rng)
	for s := 0; s < NumSuits; s++ {
		st.pool[s], st.setAside[s] = uint8(v.Pool[s]), uint8(v.SetAside[s])
	}
	st.reserve = uint8(v.Reserve)
	for i, sp := range v.Seats {
		st.coins[i] = uint8(sp.Coins)
		st.tricksWon[i] = uint8(sp.TricksWon)
		for s := 0; s < NumSuits; s++ {
			st.chefs[i][s] = uint8(sp.Chefs[s])
		}
		w.handSlots[i] = sp.HandSize
	}
	var seen cardSet // every card whose place is known
	add := func(m *cardSet, c Card) bool {
		if !c.Valid() || !deck.has(c.index()) || seen.has(c.index()) {
			return false
		}
		*m |= 1 << c.index()
		seen |= 1 << c.index()
		return true
	}
	for _, c := range v.Hand {
		if !add(&st.hands[me], c) {
			return nil, false
		}
	}
	for _, c := range v.Won {
		if !add(&st.won[me], c) {
			return nil, false
		}
	}
	if len(v.CurrentTrick) >= n {
		return nil, false
	}
	var inTrick cardSet
	for i, p := range v.CurrentTrick {
		if !add(&inTrick, p.Card) || p.Seat != game.Seat((int(v.Leader)+i)%n) {
			return nil, false
		}
		st.plays[i] = play{card: p.Card.index(), coins: int8(p.Coins)}
	}
	st.nPlayed = uint8(len(v.CurrentTrick))
	for i := 0; i < n; i++ {
		if uint8(i) == me {
			continue
		}
		for x := cardSet(h.Won[i]); x != 0; x &= x - 1 {
			if !add(&st.won[i], cardAt(uint8(bits.TrailingZeros64(uint64(x))))) {
				return nil, false
			}
		}
		w.void[i] = SuitSet(h.Void[i])
	}
	if w.handSlots[me] != st.hands[me].count() {
		return nil, false
	}
	w.handSlots[me] = 0
	w.unknown = deck &^ seen
	total := 0
	for i := 0; i < n; i++ {
		if uint8(i) != me {
			w.wonSlots[i] = n*int(st.tricksWon[i]) - st.won[i].count()
		} else if st.won[i].count() != n*int(st.tricksWon[i]) {
			return nil, false
		}
		if w.wonSlots[i] < 0 || w.handSlots[i] < 0 {
			return nil, false
		}
		total += w.wonSlots[i] + w.handSlots[i]
	}
	if total != w.unknown.count() {
		return nil, false
	}
	// The last trick is public; it is rebuilt so that a sampled state
	// shows exactly the view it was built from (award uses its taker).
	if t := v.LastTrick; t != nil {
		if len(t.Cards) != n || !validSeat(t.Winner) || !validSeat(t.ChefTaker) {
			return nil, false
		}
		l := &st.last
		*l = trickRecord{valid: true, leader: uint8(t.Cards[0].Seat), winner: uint8(t.Winner), taker: uint8(t.ChefTaker), chefSuit: noSuit}
		for i, p := range t.Cards {
			if !p.Card.Valid() {
				return nil, false
			}
			l.plays[i] = play{card: p.Card.index(), coins: int8(p.Coins)}
		}
		for _, s := range t.Trumps {
			l.trumps |= 1 << s
		}
		for _, s := range t.Income {
			if validSeat(s) {
				l.income |= 1 << s
			}
		}
		if t.ChefChosen {
			l.chefSuit = uint8(t.ChefSuit)
		}
	}
	return w, true
}

// sample deals the unknown cards into dst: each other hand gets its size
// in cards of suits it is not known to lack, each won pile its unseen
// cards. Hands are filled most constrained first, each uniformly from the
// cards it may hold, so deals are close to (not exactly) uniform over the
// consistent ones. If the voids cannot be met in a few tries (they always
// can when they come from a real game, but a dead end of the greedy fill is
// possible), they are ignored: the deal stays legal, only less informed.
func (w *world) sample(dst *State, r *rng) {
	for try := 0; ; try++ {
		if w.deal(dst, r, try < 24) {
			return
		}
	}
}

func (w *world) deal(dst *State, r *rng, voids bool) bool {
	*dst = w.base
	left := w.unknown
	n := int(w.base.players)
	var done [4]bool
	var buf [NumSuits * MaxValue]uint8
	for {
		// The hand with the least slack (cards it may take minus cards it
		// needs) goes next.
		pick, slack := -1, 1<<30
		for i := 0; i < n; i++ {
			if done[i] || w.handSlots[i] == 0 {
				continue
			}
			if s := w.allowed(left, i, voids).count() - w.handSlots[i]; s < slack {
				pick, slack = i, s
			}
		}
		if pick < 0 {
			break
		}
		if slack < 0 {
			return false
		}
		done[pick] = true
		k := 0
		for x := uint64(w.allowed(left, pick, voids)); x != 0; x &= x - 1 {
			buf[k] = uint8(bits.TrailingZeros64(x))
			k++
		}
		for j := 0; j < w.handSlots[pick]; j++ {
			t := j + r.Below(k-j)
			buf[j], buf[t] = buf[t], buf[j]
			dst.hands[pick] |= 1 << buf[j]
			left &^= 1 << buf[j]
		}
	}
	k := 0
	for x := uint64(left); x != 0; x &= x - 1 {
		buf[k] = uint8(bits.TrailingZeros64(x))
		k++
	}
	j := 0
	for i := 0; i < n; i++ {
		for c := 0; c < w.wonSlots[i]; c++ {
			t := j + r.Below(k-j)
			buf[j], buf[t] = buf[t], buf[j]
			dst.won[i] |= 1 << buf[j]
			j++
		}
	}
	return true
}

// allowed is the part of left that seat i's hand may receive.
func (w *world) allowed(left cardSet, i int, voids bool) cardSet {
	if !voids {
		return left
	}
	for s := Suit(0); s < NumSuits; s++ {
		if w.void[i].Has(s) {
			left &^= suitMask << (uint(s) * MaxValue)
		}
	}
	return left
}
