package trickchef

import (
	"math/bits"
	"testing"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/gametest"
)

// TestConformance runs the shared engine conformance suite.
func TestConformance(t *testing.T) {
	gametest.Run(t, conformance())
}

// conformance describes the engine to the shared suite and fuzz harnesses.
func conformance() gametest.Game {
	return gametest.Game{
		New: func(seats int, seed uint64) (game.State, error) {
			return New(DefaultConfig(seats, 0, seed))
		},
		Decode:    func(data []byte) (game.State, error) { return Unmarshal(data) },
		Seats:     []int{3, 4},
		MaxSteps:  500,
		MaxAction: MaxAction,
		View: func(st game.State, s game.Seat) any {
			if s == game.System {
				return st.(*State).PublicView()
			}
			return st.(*State).SeatView(s)
		},
		Rehide: func(st game.State, s game.Seat, seed uint64) game.State {
			return rehide(st.(*State), s, seed)
		},
	}
}

// rehide returns a copy of st in which everything seat s cannot see is
// redrawn from seed: the seed and generator (they fix later deals), the
// other seats' hands and the part of their won piles that no view shows.
// What s knows is kept: its own hand and won pile, the cards of the trick
// in progress and of the last trick (in its winner's pile while the round
// lasts), every pile and hand size, and the suits a seat is known to lack
// because it did not follow them in one of those two tricks. With
// game.System every seat's hand and won pile are redrawn.
func rehide(st *State, s game.Seat, seed uint64) *State {
	h := st.Clone()
	r := rng(seed)
	h.seed, h.rng = r.Next(), rng(r.Next())
	if h.phase == PhaseOver {
		return h // hands and won piles are empty; finished rounds are public
	}
	n := int(h.players)
	var known [4]cardSet // won cards whose pile everyone knows
	var void [4]SuitSet  // suits a hand is known to lack
	noteVoids := func(leader uint8, plays *[4]play, count int) {
		led := cardAt(plays[0].card).Suit
		for i := 1; i < count; i++ {
			if cardAt(plays[i].card).Suit != led {
				void[(int(leader)+i)%n] |= 1 << led
			}
		}
	}
	if h.nPlayed > 0 {
		noteVoids(h.leader, &h.plays, int(h.nPlayed))
	}
	// The last trick belongs to this round unless a new round has just
	// been dealt (its picks, or its first trick in progress).
	if h.last.valid && h.phase != PhasePick && !(h.phase == PhasePlay && h.trick == 1) {
		for i := 0; i < n; i++ {
			known[h.last.winner] |= 1 << h.last.plays[i].card
		}
		noteVoids(h.last.leader, &h.last.plays, n)
	}
	var unknown cardSet
	var handSlots, wonSlots [4]int
	for i := 0; i < n; i++ {
		if game.Seat(i) == s {
			continue
		}
		hidden := h.won[i] &^ known[i]
		handSlots[i], wonSlots[i] = h.hands[i].count(), hidden.count()
		unknown |= h.hands[i] | hidden
	}
	for try := 0; try < 64; try++ {
		if hands, won, ok := dealHidden(unknown, handSlots, wonSlots, void, n, &r); ok {
			for i := 0; i < n; i++ {
				if game.Seat(i) != s {
					h.hands[i], h.won[i] = hands[i], won[i]|h.won[i]&known[i]
				}
			}
			return h
		}
	}
	return h // no deal found (never seen): keep the cards, still a valid state
}

// dealHidden deals the unknown cards: each hand its size, avoiding its
// void suits, most constrained hand first; then each won pile its number
// of hidden cards. It reports false if the greedy fill gets stuck.
func dealHidden(unknown cardSet, handSlots, wonSlots [4]int, void [4]SuitSet, n int, r *rng) (hands, won [4]cardSet, ok bool) {
	left := unknown
	allowed := func(i int) cardSet {
		m := left
		for s := Suit(0); s < NumSuits; s++ {
			if void[i].Has(s) {
				m &^= suitMask << (uint(s) * MaxValue)
			}
		}
		return m
	}
	take := func(from cardSet, k int) cardSet {
		var buf [NumSuits * MaxValue]uint8
		m := 0
		for x := uint64(from); x != 0; x &= x - 1 {
			buf[m] = uint8(bits.TrailingZeros64(x))
			m++
		}
		var out cardSet
		for j := 0; j < k; j++ {
			t := j + r.Below(m-j)
			buf[j], buf[t] = buf[t], buf[j]
			out |= 1 << buf[j]
		}
		return out
	}
	var done [4]bool
	for {
		pick, slack := -1, 1<<30
		for i := 0; i < n; i++ {
			if !done[i] && handSlots[i] > 0 {
				if sl := allowed(i).count() - handSlots[i]; sl < slack {
					pick, slack = i, sl
				}
			}
		}
		if pick < 0 {
			break
		}
		if slack < 0 {
			return hands, won, false
		}
		done[pick] = true
		hands[pick] = take(allowed(pick), handSlots[pick])
		left &^= hands[pick]
	}
	for i := 0; i < n; i++ {
		won[i] = take(left, wonSlots[i])
		left &^= won[i]
	}
	return hands, won, true
}

// TestRehideRedraws checks that rehide really moves the cards a seat
// cannot see, and only those: the conformance suite would pass a rehide
// that redrew nothing but the generator.
func TestRehideRedraws(t *testing.T) {
	st, err := New(DefaultConfig(4, 0, 11))
	if err != nil {
		t.Fatal(err)
	}
	r := rng(1)
	for st.trick < 5 || st.phase != PhasePlay || st.nPlayed == 0 { // into round 1, mid-trick
		s, _ := st.Current()
		l := st.Legal(s)
		if err := st.Apply(s, l[r.Below(len(l))]); err != nil {
			t.Fatal(err)
		}
	}
	movedHands, movedWon := false, false
	for seed := uint64(0); seed < 20; seed++ {
		h := rehide(st, 1, seed)
		if h.hands[1] != st.hands[1] || h.won[1] != st.won[1] {
			t.Fatal("seat 1's own cards changed")
		}
		for i := 0; i < 4; i++ {
			if h.hands[i].count() != st.hands[i].count() || h.won[i].count() != st.won[i].count() {
				t.Fatalf("seat %d: sizes changed", i)
			}
			movedHands = movedHands || h.hands[i] != st.hands[i]
			movedWon = movedWon || h.won[i] != st.won[i]
		}
		if err := h.validate(); err != nil {
			t.Fatal(err)
		}
	}
	if !movedHands || !movedWon {
		t.Fatalf("hidden cards never moved: hands %v, won piles %v", movedHands, movedWon)
	}
}

// TestRehideKeepsVoids checks that a seat seen not following suit in the
// trick in progress is never dealt the led suit.
func TestRehideKeepsVoids(t *testing.T) {
	checked := 0
	for g := uint64(0); g < 50 && checked < 20; g++ {
		st, err := New(DefaultConfig(4, 0, g))
		if err != nil {
			t.Fatal(err)
		}
		r := rng(g)
		for !st.Over() && checked < 20 {
			if st.phase == PhasePlay && st.nPlayed > 1 {
				led := cardAt(st.plays[0].card).Suit
				for i := 1; i < int(st.nPlayed); i++ {
					x := (int(st.leader) + i) % 4
					if cardAt(st.plays[i].card).Suit == led {
						continue
					}
					checked++
					for seed := uint64(0); seed < 10; seed++ {
						h := rehide(st, game.System, seed)
						if h.hands[x].ofSuit(led) != 0 {
							t.Fatalf("game %d: seat %d did not follow %s but is dealt %v", g, x, led, h.hands[x].ofSuit(led).cards())
						}
					}
				}
			}
			s, _ := st.Current()
			l := st.Legal(s)
			if err := st.Apply(s, l[r.Below(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no seat ever failed to follow suit")
	}
}
