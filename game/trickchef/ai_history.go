package trickchef

import "github.com/trickchef/trickchef/game"

// History is the public record of the current round that a SeatView alone
// does not carry: which cards each seat has won in earlier tricks (every
// trick is played face up, so this is public) and which suits each seat is
// known not to hold (it did not follow them). The search needs both to deal
// hidden hands consistent with what the table has seen.
//
// It is small, fixed-size and made of plain exported fields, so it
// serializes as is (JSON, gob, or 39 bytes by hand). One History per table
// is enough: it holds only public facts, so every AI seat can share it.
//
// Keeping it: after every applied action (any seat's), call
// h.Observe(st.PublicView()). Calling it at least once per trick is enough,
// because Public.LastTrick shows the last completed trick until the next
// one completes. A History that missed tricks is still usable: Decide
// treats the cards of tricks it did not see as unknown (they are dealt at
// random into the won piles of the seats that won them). The zero History
// is valid and knows nothing; Decide always observes the view it is given.
type History struct {
	Round int // the round the record is about; a new round resets it
	// Seen has bit t-1 set once trick t of Round has been recorded.
	Seen uint16
	// Won[s] is the set of cards seat s won in the recorded tricks, as a
	// bit mask over card indexes (bit suit*10 + value-1).
	Won [4]uint64
	// Void[s] has bit suit set once seat s failed to follow that suit.
	Void [4]uint8
}

// Observe records what a public view shows: the last completed trick (its
// cards go to the winner's pile; a seat that did not follow is void in the
// led suit) and the voids shown by the trick in progress. Observing the
// same view twice changes nothing.
func (h *History) Observe(p Public) {
	if p.Phase == PhaseOver || p.Round < 1 {
		return
	}
	if p.Round != h.Round {
		*h = History{Round: p.Round}
	}
	if t := p.LastTrick; t != nil && t.Round == h.Round && t.Number >= 1 && t.Number <= HandSize &&
		h.Seen&(1<<(t.Number-1)) == 0 && len(t.Cards) > 0 && validSeat(t.Winner) {
		h.Seen |= 1 << (t.Number - 1)
		for _, c := range t.Cards {
			if c.Card.Valid() {
				h.Won[t.Winner] |= 1 << c.Card.index()
			}
		}
		h.voids(t.Cards)
	}
	h.voids(p.CurrentTrick)
}

// voids marks every seat that played off the led suit of a trick.
func (h *History) voids(trick []Played) {
	if len(trick) == 0 {
		return
	}
	led := trick[0].Card.Suit
	for _, c := range trick[1:] {
		if c.Card.Suit != led && validSeat(c.Seat) && led < NumSuits {
			h.Void[c.Seat] |= 1 << led
		}
	}
}

func validSeat(s game.Seat) bool { return s >= 0 && s < 4 }
