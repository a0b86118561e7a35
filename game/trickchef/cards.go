package trickchef

import "math/bits"

// Suit is a card colour. The order is fixed because actions, views and the
// binary encoding index by it.
type Suit uint8

const (
	Red Suit = iota
	Yellow
	Blue
	Green
)

// NumSuits is the number of suits in the box.
const NumSuits = 4

// MaxValue is the highest face value; values run 1..MaxValue.
const MaxValue = 10

// HandSize is the number of cards dealt to each seat, and so the number of
// tricks in a round.
const HandSize = 10

// String returns the one-letter notation of the suit (R, Y, B, G).
func (s Suit) String() string {
	if s < NumSuits {
		return suitLetters[s : s+1]
	}
	return "?"
}

// suitLetters is the notation letter of each suit, indexed by Suit.
const suitLetters = "RYBG"

// Card is one restaurant card.
type Card struct {
	Suit  Suit
	Value int // 1..10
}

// Valid reports whether c is a card of the box.
func (c Card) Valid() bool { return c.Suit < NumSuits && c.Value >= 1 && c.Value <= MaxValue }

// Stars is the number of victory points the card scores under a chef.
func (c Card) Stars() int { return stars(c.Value) }

// String returns the card in notation, e.g. "Y10".
func (c Card) String() string {
	if !c.Valid() {
		return "??"
	}
	if c.Value == 10 {
		return c.Suit.String() + "10"
	}
	return c.Suit.String() + string(rune('0'+c.Value))
}

// index maps a valid card to 0..39 (suit-major), the bit used in card sets
// and in action encoding.
func (c Card) index() uint8 { return uint8(c.Suit)*MaxValue + uint8(c.Value-1) }

// cardAt is the inverse of index.
func cardAt(i uint8) Card { return Card{Suit: Suit(i / MaxValue), Value: int(i%MaxValue) + 1} }

// cardSet is a set of cards as a bit mask over card indexes; a whole deal
// fits in one word, so hands and won piles cost no allocation.
type cardSet uint64

// suitMask is the set of all ten cards of one suit.
const suitMask cardSet = 1<<MaxValue - 1

func (m cardSet) has(i uint8) bool      { return m&(1<<i) != 0 }
func (m cardSet) count() int            { return bits.OnesCount64(uint64(m)) }
func (m cardSet) ofSuit(s Suit) cardSet { return m & (suitMask << (uint(s) * MaxValue)) }

// cards lists the set in index order, which is by suit then value.
func (m cardSet) cards() []Card {
	out := make([]Card, 0, m.count())
	for x := uint64(m); x != 0; x &= x - 1 {
		out = append(out, cardAt(uint8(bits.TrailingZeros64(x))))
	}
	return out
}

// SuitSet is a set of suits as a bit mask (bit s = suit s).
type SuitSet uint8

// Has reports whether s is in the set.
func (t SuitSet) Has(s Suit) bool { return s < NumSuits && t&(1<<s) != 0 }

// Suits lists the set in suit order.
func (t SuitSet) Suits() []Suit {
	out := make([]Suit, 0, NumSuits)
	for s := Suit(0); s < NumSuits; s++ {
		if t.Has(s) {
			out = append(out, s)
		}
	}
	return out
}

// inPlay is the set of suits used with the given player count.
func inPlay(players int, removed Suit) SuitSet {
	all := SuitSet(1<<NumSuits - 1)
	if players == 3 {
		return all &^ (1 << removed)
	}
	return all
}

// deckOf is the set of cards used by the given suits.
func deckOf(suits SuitSet) cardSet {
	var m cardSet
	for s := Suit(0); s < NumSuits; s++ {
		if suits.Has(s) {
			m |= suitMask << (uint(s) * MaxValue)
		}
	}
	return m
}
