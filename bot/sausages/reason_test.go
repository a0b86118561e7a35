package sausages

import (
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// addView is seat 0's view of a three-player round in the add phase: its
// hand and stack, and the others' stacks (no boot known anywhere).
func addView(hand ss.Hand, stack []ss.Card, others ...int) ss.SeatView {
	v := ss.SeatView{Seat: 0, Hand: hand, Stack: stack}
	v.Players, v.Round, v.Phase = 3, 1, ss.PhaseAdd
	v.Seats = []ss.SeatPublic{{Seat: 0, Side: 1, Stack: len(stack), Hand: hand.Sausages + hand.Boots}}
	v.Total = len(stack)
	for i, n := range others {
		v.Seats = append(v.Seats, ss.SeatPublic{Seat: game.Seat(i + 1), Side: 1, Stack: n, Hand: 4 - n})
		v.Total += n
	}
	v.Bidder, v.Challenger, v.Winner = -1, -1, -1
	return v
}

func TestReasonBoot(t *testing.T) {
	v := addView(ss.Hand{Sausages: 2, Boots: 1}, []ss.Card{ss.Sausage}, 2, 2)
	r, ok := whyBetter(v, ss.PlaceAction(ss.Boot), ss.PlaceAction(ss.Sausage))
	if !ok || r.Code != reasonBootOwn {
		t.Fatalf("got %+v, %v; want boot_own", r, ok)
	}
	r, ok = whyBetter(v, ss.PlaceAction(ss.Sausage), ss.PlaceAction(ss.Boot))
	if !ok || r.Code != reasonBootGuard {
		t.Fatalf("got %+v, %v; want boot_guard", r, ok)
	}
	// With the boot down already, any bid the person makes runs into it.
	v = addView(ss.Hand{Sausages: 2}, []ss.Card{ss.Boot, ss.Sausage}, 2, 2)
	r, ok = whyBetter(v, ss.BidAction(3), ss.PlaceAction(ss.Sausage))
	if !ok || r.Code != reasonBidOnBoot || r.N != 3 {
		t.Fatalf("got %+v, %v; want bid_on_boot 3", r, ok)
	}
}

func TestReasonPassAndBluff(t *testing.T) {
	// Bidding: seat 1 bid 4, seat 2 passed; seat 0's pass would end it.
	v := addView(ss.Hand{Sausages: 2}, []ss.Card{ss.Boot, ss.Sausage}, 2, 2)
	v.Phase, v.Bid, v.Bidder = ss.PhaseBid, 4, 1
	v.Seats[2].Passed = true
	r, ok := whyBetter(v, ss.PassAction(), ss.BidAction(5))
	if !ok || r.Code != reasonPassEnds || r.Seat != 1 {
		t.Fatalf("got %+v, %v; want pass_ends, seat 1 to attempt", r, ok)
	}
	v.Seats[1].Side = 2
	if r, ok := whyBetter(v, ss.PassAction(), ss.BidAction(5)); !ok || r.Code != reasonPassEndsWins || r.Seat != 1 {
		t.Fatalf("got %+v, %v; want pass_ends_wins, seat 1 on side 2", r, ok)
	}
	// Seat 2 still in the bidding: the pass ends nothing; the boot in the
	// own stack makes «Профи»'s 5 of 6 a bluff.
	v.Seats[2].Passed = false
	if r, ok := whyBetter(v, ss.PassAction(), ss.BidAction(5)); !ok || r.Code != reasonBidBluff || r.N != 5 {
		t.Fatalf("got %+v, %v; want bid_bluff 5", r, ok)
	}
	// A bid of every card on the boards is the attempt at once: no bluff,
	// a failure on the own boot that costs a sausage.
	if r, ok := whyBetter(v, ss.PassAction(), ss.BidAction(6)); !ok || r.Code != reasonBidAll || r.N != 6 {
		t.Fatalf("a bid of all 6: got %+v, %v; want bid_all 6", r, ok)
	}
	// Only the boot left to lose: nothing of the kind to tell.
	v.Hand, v.Stack = ss.Hand{}, []ss.Card{ss.Boot}
	if r, _ := whyBetter(v, ss.PassAction(), ss.BidAction(6)); r.Code == reasonBidAll {
		t.Fatalf("no sausage to lose, yet told %+v", r)
	}
}

func TestReasonBids(t *testing.T) {
	// Two sausages down, no boot: a bid of 4 is 2 over the own stack; a
	// bid of 2 is sure.
	v := addView(ss.Hand{Sausages: 1, Boots: 1}, []ss.Card{ss.Sausage, ss.Sausage}, 2, 2)
	r, ok := whyBetter(v, ss.BidAction(4), ss.BidAction(2))
	if !ok || r.Code != reasonBidOver || r.N != 4 || r.Over != 2 || r.Share <= 0 || r.Share >= 100 {
		t.Fatalf("got %+v, %v; want bid_over 4, 2 over, a chance between 0 and 100%%", r, ok)
	}
	r, ok = whyBetter(v, ss.PlaceAction(ss.Sausage), ss.BidAction(2))
	if !ok || r.Code != reasonBidSafe || r.N != 2 || r.Count != 2 {
		t.Fatalf("got %+v, %v; want bid_safe 2 of a stack of 2", r, ok)
	}
	r, ok = whyBetter(v, ss.PlaceAction(ss.Sausage), ss.BidAction(3))
	if !ok || r.Code != reasonBidChance || r.N != 3 {
		t.Fatalf("got %+v, %v; want bid_chance 3", r, ok)
	}
	if _, ok := whyBetter(v, ss.BidAction(2), ss.BidAction(2)); ok {
		t.Fatal("a move has a reason against itself")
	}
}

func TestReasonRevealAndLose(t *testing.T) {
	v := addView(ss.Hand{}, []ss.Card{ss.Sausage}, 3, 1)
	v.Phase, v.Bidder, v.Challenger, v.Bid, v.Target = ss.PhaseAttempt, 0, 0, 3, 3
	r, ok := whyBetter(v, ss.RevealAction(2), ss.RevealAction(1))
	if !ok || r.Code != reasonReveal || r.Seat != 1 || r.Other != 2 {
		t.Fatalf("got %+v, %v; want reveal seat 1 over seat 2", r, ok)
	}
	v.Phase = ss.PhaseLose
	r, ok = whyBetter(v, ss.LoseAction(ss.Boot), ss.LoseAction(ss.Sausage))
	if !ok || r.Code != reasonKeepBoot {
		t.Fatalf("got %+v, %v; want keep_boot", r, ok)
	}
}

// Every reason reads as a catalog line in every language.
func TestReasonTexts(t *testing.T) {
	cat := bottest.Catalog(t)
	tv := adapter.View(&record.Table{Seats: []record.Seat{{Name: "Катя"}, {Name: "Робот 1"}, {Name: "Робот 2"}}})
	codes := []reasonCode{reasonBootOwn, reasonBootGuard, reasonBidOnBoot, reasonBidOver, reasonBidSafe, reasonBidChance, reasonReveal, reasonKeepBoot, reasonPassEnds, reasonPassEndsWins, reasonBidBluff, reasonBidAll, reasonBuildSafe}
	for _, lang := range cat.Langs() {
		l := adapter.NewLoc(cat, lang)
		for _, c := range codes {
			s := reason{Code: c, N: 4, Over: 2, Count: 2, Seat: 1, Other: 2, Share: 40, OtherShare: 70}.text(l, tv)
			if s == "" || strings.Contains(s, "sausages.") || c == reasonReveal && !strings.Contains(s, "Робот 2") {
				t.Errorf("%s %s reads %q", lang, c, s)
			}
		}
	}
}

func TestReasonBuildSafe(t *testing.T) {
	// A sausage down and two in hand: a bid of 1 is safe, but one more
	// sausage makes a stack of two with no boot, safe to bid later.
	v := addView(ss.Hand{Sausages: 2, Boots: 1}, []ss.Card{ss.Sausage}, 1, 1)
	r, ok := whyBetter(v, ss.BidAction(1), ss.PlaceAction(ss.Sausage))
	if !ok || r.Code != reasonBuildSafe || r.Count != 2 {
		t.Fatalf("got %+v, %v; want build_safe, 2 cards", r, ok)
	}
	// A bid past the own stack is told by its risk, not by the build.
	if r, _ := whyBetter(v, ss.BidAction(2), ss.PlaceAction(ss.Sausage)); r.Code == reasonBuildSafe {
		t.Fatalf("a risky bid told as a safe one: %+v", r)
	}
	// With the boot down the stack is not safe to build on.
	v = addView(ss.Hand{Sausages: 2}, []ss.Card{ss.Boot}, 1, 1)
	if r, _ := whyBetter(v, ss.BidAction(1), ss.PlaceAction(ss.Sausage)); r.Code == reasonBuildSafe {
		t.Fatalf("a stack with the boot told as safe: %+v", r)
	}
}
