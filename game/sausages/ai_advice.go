package sausages

import "github.com/trickchef/trickchef/game"

// Reason says why Sharp makes the move it makes, in a word a hint puts
// into a sentence.
type Reason string

const (
	ReasonForced  Reason = "forced"   // the only legal move
	ReasonSetup   Reason = "setup"    // the first card of a round
	ReasonLure    Reason = "lure"     // a sausage on the own boot: a lure
	ReasonBuild   Reason = "build"    // a sausage while others still add theirs
	ReasonBid     Reason = "bid"      // a bid the belief makes likely enough (Chance)
	ReasonBluff   Reason = "bluff"    // a raise within the own stack, boot down
	ReasonBootOwn Reason = "boot_own" // pass (or the lowest bid): the own boot is down
	ReasonPass    Reason = "pass"     // pass: one more is too unlikely (Chance)
	ReasonReveal  Reason = "reveal"   // the stack whose next card is least likely a boot (Chance)
	ReasonSettle  Reason = "settle"   // after the attempt: a pick, a loss, a name
)

// Advice is Sharp's choice for a seat and why.
type Advice struct {
	Action game.Action // -1: the seat has nothing to do
	Reason Reason
	// Chance is the belief's probability behind the reason: of making
	// the bid (bid, pass: of making one more), or, for a reveal, that
	// the card turned is no boot.
	Chance float64
}

// AdviseSharp is Sharp with its reason: the same action for the same view
// and seed, and the belief's numbers Sharp read to choose it.
func AdviseSharp(v SeatView, seed uint64) Advice {
	a := Sharp(v, seed)
	ad := Advice{Action: a}
	if a < 0 {
		return ad
	}
	m, _ := Decode(a)
	switch {
	case len(v.Legal) == 1:
		ad.Reason = ReasonForced
	case v.Phase == PhaseSetup:
		ad.Reason = ReasonSetup
	case v.Phase == PhaseAdd && m.Kind == KindPlace && !ownSafe(&v):
		ad.Reason = ReasonLure
	case v.Phase == PhaseAdd && m.Kind == KindPlace:
		ad.Reason = ReasonBuild
	case (v.Phase == PhaseAdd || v.Phase == PhaseBid) && !ownSafe(&v) && m.Kind == KindBid && m.N > 1:
		ad.Reason = ReasonBluff
	case (v.Phase == PhaseAdd || v.Phase == PhaseBid) && !ownSafe(&v):
		ad.Reason = ReasonBootOwn
	case m.Kind == KindBid:
		ad.Reason, ad.Chance = ReasonBid, newBelief(&v).success(m.N)
	case m.Kind == KindPass:
		ad.Reason, ad.Chance = ReasonPass, newBelief(&v).success(v.Bid+1)
	case m.Kind == KindReveal:
		b := newBelief(&v)
		ad.Reason = ReasonReveal
		if int(m.Seat) < b.n {
			ad.Chance = 1 - b.at[m.Seat][0]
		}
	default:
		ad.Reason = ReasonSettle
	}
	return ad
}
