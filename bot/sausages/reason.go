package sausages

import (
	"slices"
	"strconv"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// reasonCode names why «Профи»'s move beats the one a person made, in the
// game's own terms (the review's moments; sausages.reason.* in the
// catalog).
type reasonCode string

const (
	// reasonBootOwn: the person lays the boot in an own stack that had
	// none: any attempt of theirs fails on it, the own stack being turned
	// first.
	reasonBootOwn reasonCode = "boot_own"
	// reasonBootGuard: «Профи» lays the boot: it stops whoever turns it.
	reasonBootGuard reasonCode = "boot_guard"
	// reasonBidOnBoot: the person bids with the boot in the own stack.
	reasonBidOnBoot reasonCode = "bid_on_boot"
	// reasonBidOver: the person's bid N is Over cards above the own stack,
	// to be turned in the others' stacks; Share is its chance.
	reasonBidOver reasonCode = "bid_over"
	// reasonBidSafe: «Профи»'s bid N is within the own stack, which holds
	// no boot (Count cards): it cannot fail.
	reasonBidSafe reasonCode = "bid_safe"
	// reasonBidChance: «Профи»'s bid N is made with chance Share.
	reasonBidChance reasonCode = "bid_chance"
	// reasonReveal: the next card of «Профи»'s stack (Seat) is a sausage
	// with chance Share, of the person's (Other) with chance OtherShare.
	reasonReveal reasonCode = "reveal"
	// reasonKeepBoot: the person gives up the boot, the only card that
	// stops the others' attempts.
	reasonKeepBoot reasonCode = "keep_boot"
	// reasonPassEnds: everyone else still in has passed, so the person's
	// pass ends the bidding and the bidder (Seat) makes the attempt;
	// reasonPassEndsWins: their board is on side «2», a success wins them
	// the game.
	reasonPassEnds     reasonCode = "pass_ends"
	reasonPassEndsWins reasonCode = "pass_ends_wins"
	// reasonBidBluff: «Профи» bids N (short of every card on the boards)
	// with the boot in its own stack: it makes the attempt only if no one
	// bids higher.
	reasonBidBluff reasonCode = "bid_bluff"
	// reasonBidAll: «Профи» bids N, every card on the boards, with the
	// boot in its own stack: it makes the attempt at once and fails on its
	// own boot, so no one else attempts this round, and it chooses to lose
	// a sausage (it owns one), keeping the boot.
	reasonBidAll reasonCode = "bid_all"
	// reasonBuildSafe: the person bids within a stack with no boot while
	// «Профи» adds a sausage to it: the stack then holds Count cards with
	// no boot, a bid of that many later cannot fail.
	reasonBuildSafe reasonCode = "build_safe"
)

// reason is why «Профи»'s move is better than the person's, computed from
// the seat's view at that moment: a code and its arguments.
type reason struct {
	Code       reasonCode
	N          int       // a bid
	Over       int       // cards of a bid above the own stack
	Count      int       // cards in the own stack
	Seat       game.Seat // the stack «Профи» turns
	Other      game.Seat // the stack the person turned
	Share      int       // a chance, in percent
	OtherShare int
}

// whyBetter compares the person's move played with «Профи»'s best in v,
// the seat's view before it. It reports false when it finds no reason to
// tell.
func whyBetter(v ss.SeatView, played, best game.Action) (reason, bool) {
	p, ok1 := ss.Decode(played)
	b, ok2 := ss.Decode(best)
	if !ok1 || !ok2 || played == best {
		return reason{}, false
	}
	safe := !slices.Contains(v.Stack, ss.Boot)
	stack := len(v.Stack)
	switch {
	case p.Kind == ss.KindPlace && p.Card == ss.Boot && b.Kind == ss.KindPlace && safe:
		return reason{Code: reasonBootOwn}, true
	case p.Kind == ss.KindPlace && b.Kind == ss.KindPlace && b.Card == ss.Boot:
		return reason{Code: reasonBootGuard}, true
	case p.Kind == ss.KindBid && !safe && (b.Kind != ss.KindBid || b.N < p.N):
		return reason{Code: reasonBidOnBoot, N: p.N}, true
	case p.Kind == ss.KindBid && safe && p.N <= stack && b.Kind == ss.KindPlace && b.Card == ss.Sausage:
		return reason{Code: reasonBuildSafe, Count: stack + 1}, true
	case p.Kind == ss.KindBid && safe && p.N > stack && (b.Kind != ss.KindBid || b.N < p.N):
		return reason{Code: reasonBidOver, N: p.N, Over: p.N - stack, Count: stack, Share: adapter.Percent(ss.BidChance(v, p.N))}, true
	case b.Kind == ss.KindBid && safe && b.N <= stack:
		return reason{Code: reasonBidSafe, N: b.N, Count: stack}, true
	case b.Kind == ss.KindBid && safe:
		return reason{Code: reasonBidChance, N: b.N, Share: adapter.Percent(ss.BidChance(v, b.N))}, true
	case p.Kind == ss.KindReveal && b.Kind == ss.KindReveal:
		return reason{Code: reasonReveal, Seat: b.Seat, Other: p.Seat,
			Share: adapter.Percent(ss.SafeChance(v, b.Seat)), OtherShare: adapter.Percent(ss.SafeChance(v, p.Seat))}, true
	case p.Kind == ss.KindLose && p.Card == ss.Boot && b.Kind == ss.KindLose:
		return reason{Code: reasonKeepBoot}, true
	case p.Kind == ss.KindPass && b.Kind == ss.KindBid && lastToPass(v):
		if int(v.Bidder) < len(v.Seats) && v.Seats[v.Bidder].Side == 2 {
			return reason{Code: reasonPassEndsWins, Seat: v.Bidder}, true
		}
		return reason{Code: reasonPassEnds, Seat: v.Bidder}, true
	case b.Kind == ss.KindBid && !safe && b.N < v.Total && p.Kind != ss.KindBid:
		return reason{Code: reasonBidBluff, N: b.N}, true
	case b.Kind == ss.KindBid && !safe && b.N == v.Total && p.Kind != ss.KindBid && ownsSausage(v):
		return reason{Code: reasonBidAll, N: b.N}, true
	}
	return reason{}, false
}

// ownsSausage reports whether the seat holds a sausage in hand or stack.
func ownsSausage(v ss.SeatView) bool {
	return v.Hand.Sausages > 0 || slices.Contains(v.Stack, ss.Sausage)
}

// lastToPass reports whether the seat's pass would end the bidding: it
// is on, and every other player still in but the bidder has passed.
func lastToPass(v ss.SeatView) bool {
	if v.Phase != ss.PhaseBid || v.Bidder < 0 || v.Bidder == v.Seat {
		return false
	}
	for _, s := range v.Seats {
		if s.Seat != v.Seat && s.Seat != v.Bidder && !s.Out && !s.Passed {
			return false
		}
	}
	return true
}

// text puts r into one clause of the language of l (Telegram HTML).
func (r reason) text(l adapter.Loc, t adapter.TableView) string {
	key := "sausages.reason." + string(r.Code)
	bid := l.T("sausages.review.bid", "N", strconv.Itoa(r.N))
	switch r.Code {
	case reasonBidOnBoot:
		return l.T(key, "Bid", bid)
	case reasonBidOver:
		return l.T(key, "Bid", bid, "Over", l.T("sausages.reason.over", "Count", r.Over), "Share", r.Share)
	case reasonBidSafe, reasonBuildSafe:
		return l.T(key, "Bid", bid, "Cards", l.T("count.cards", "Count", r.Count))
	case reasonBidChance:
		return l.T(key, "Bid", bid, "Share", r.Share)
	case reasonPassEnds, reasonPassEndsWins:
		return l.T(key, "Name", adapter.SeatName(t, r.Seat))
	case reasonBidBluff, reasonBidAll:
		return l.T(key, "Bid", bid)
	case reasonReveal:
		return l.T(key, "Name", adapter.SeatName(t, r.Seat), "Share", r.Share,
			"Other", adapter.SeatName(t, r.Other), "OtherShare", r.OtherShare)
	}
	return l.T(key)
}
