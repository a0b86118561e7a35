package trickchef

import (
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

func card(s tc.Suit, v int) tc.Card { return tc.Card{Suit: s, Value: v} }

// view is seat 0's view of a three-player round: the pool, its chefs, hand
// and won pile, and the trick on the table (played by seats 1 and 2).
func view(phase tc.Phase, pool [tc.NumSuits]int, chefs [tc.NumSuits]int, hand, won []tc.Card, trick ...tc.Played) tc.SeatView {
	v := tc.SeatView{Seat: 0, Hand: hand, Won: won}
	v.Players, v.Round, v.Phase = 3, 1, phase
	v.Suits = []tc.Suit{tc.Red, tc.Yellow, tc.Blue}
	v.Pool = pool
	v.Trumps = tc.Trumps(pool).Suits()
	v.CurrentTrick = trick
	v.Seats = make([]tc.SeatPublic, 3)
	v.Seats[0].Chefs = chefs
	return v
}

func play(c tc.Card, coins int) game.Action { return tc.PlayAction(c, coins) }

func TestReasonChefTrump(t *testing.T) {
	// Centre 🟨4 🟦1, a hand of blues: the last blue chef would make
	// yellow the only trump; a yellow one keeps blue trump.
	v := view(tc.PhaseAward, [tc.NumSuits]int{0, 4, 1, 0}, [tc.NumSuits]int{}, []tc.Card{card(tc.Blue, 1), card(tc.Blue, 2)}, nil)
	r, ok := whyBetter(v, tc.ChefAction(tc.Blue), tc.ChefAction(tc.Yellow), tc.Verdict{})
	if !ok || r.Code != reasonChefTrump || r.Suit != tc.Yellow || r.Count != 2 || r.Fewer != 0 || !slices.Equal(r.Suits, []tc.Suit{tc.Blue}) {
		t.Fatalf("got %+v, %v; want chef_trump 🟨: trump 🟦, 2 cards against 0", r, ok)
	}
}

func TestReasonChefStars(t *testing.T) {
	// A won 🟥7 with no red chef: a red chef sits on it at once (3★).
	v := view(tc.PhaseAward, [tc.NumSuits]int{2, 2, 2, 0}, [tc.NumSuits]int{0, 1, 0, 0}, []tc.Card{card(tc.Yellow, 3)},
		[]tc.Card{card(tc.Red, 7), card(tc.Yellow, 2)})
	r, ok := whyBetter(v, tc.ChefAction(tc.Yellow), tc.ChefAction(tc.Red), tc.Verdict{})
	if !ok || r.Code != reasonChefStars || r.Suit != tc.Red || r.Card != card(tc.Red, 7) || r.Stars != 3 {
		t.Fatalf("got %+v, %v; want chef_stars 🟥 on 🟥7, 3★", r, ok)
	}
}

func TestReasonCoinsNoStars(t *testing.T) {
	// Last to play to 🟥3 🟨1, blue trump, no chef of red or yellow: a coin
	// on 🟥2 takes a trick that scores nothing.
	v := view(tc.PhasePlay, [tc.NumSuits]int{3, 3, 1, 0}, [tc.NumSuits]int{0, 0, 1, 0},
		[]tc.Card{card(tc.Red, 2), card(tc.Blue, 5)}, nil,
		tc.Played{Seat: 1, Card: card(tc.Red, 3)}, tc.Played{Seat: 2, Card: card(tc.Yellow, 1)})
	r, ok := whyBetter(v, play(card(tc.Red, 2), 1), play(card(tc.Red, 2), 0), tc.Verdict{})
	if !ok || r.Code != reasonCoinsNoStars || r.Coins != 1 {
		t.Fatalf("got %+v, %v; want coins_no_stars, 1 coin", r, ok)
	}
	// With a red chef the trick scores: the coin is only a point spent.
	v.Seats[0].Chefs[tc.Red] = 1
	if r, _ := whyBetter(v, play(card(tc.Red, 2), 1), play(card(tc.Red, 2), 0), tc.Verdict{}); r.Code != reasonCoins {
		t.Fatalf("with a red chef got %+v; want coins", r)
	}
}

func TestReasonTakeStars(t *testing.T) {
	// Last to play to 🟨2 🟨4 holding a yellow chef: 🟨9 takes the trick
	// and the chef sits on 🟨2 (1★); 🟨1 would only be the lowest.
	v := view(tc.PhasePlay, [tc.NumSuits]int{3, 3, 3, 0}, [tc.NumSuits]int{0, 1, 0, 0},
		[]tc.Card{card(tc.Yellow, 1), card(tc.Yellow, 9)}, nil,
		tc.Played{Seat: 1, Card: card(tc.Yellow, 2)}, tc.Played{Seat: 2, Card: card(tc.Yellow, 4)})
	r, ok := whyBetter(v, play(card(tc.Yellow, 1), 0), play(card(tc.Yellow, 9), 0), tc.Verdict{})
	if !ok || r.Code != reasonTakeStars || r.Stars != 1 || !slices.Equal(r.Cards, []tc.Card{card(tc.Yellow, 2)}) {
		t.Fatalf("got %+v, %v; want take_stars, 1★ on 🟨2", r, ok)
	}
}

func TestReasonLowestAndIncome(t *testing.T) {
	// Last to play to 🟥4 🟥9, no chef: 🟥2 is the lowest and brings a
	// chef, where 🟥10 takes a trick worth nothing.
	v := view(tc.PhasePlay, [tc.NumSuits]int{3, 3, 3, 0}, [tc.NumSuits]int{},
		[]tc.Card{card(tc.Red, 2), card(tc.Red, 6), card(tc.Red, 10)}, nil,
		tc.Played{Seat: 1, Card: card(tc.Red, 4)}, tc.Played{Seat: 2, Card: card(tc.Red, 9)})
	if r, ok := whyBetter(v, play(card(tc.Red, 10), 0), play(card(tc.Red, 2), 0), tc.Verdict{}); !ok || r.Code != reasonLowestSure {
		t.Fatalf("got %+v, %v; want lowest_sure", r, ok)
	}
	// Last to play to 🟥9 🟥10: 🟥6 is the lowest as well as 🟥2, and keeps
	// 🟥2 for another chef.
	w := v
	w.CurrentTrick = []tc.Played{{Seat: 1, Card: card(tc.Red, 9)}, {Seat: 2, Card: card(tc.Red, 8)}}
	w.Hand = []tc.Card{card(tc.Red, 2), card(tc.Red, 6)}
	if r, ok := whyBetter(w, play(card(tc.Red, 2), 0), play(card(tc.Red, 6), 0), tc.Verdict{}); !ok || r.Code != reasonLowestCheaper || r.Low != card(tc.Red, 2) {
		t.Fatalf("got %+v, %v; want lowest_cheaper keeping 🟥2", r, ok)
	}
	// Last to play to 🟥3 🟥4: 🟥9 takes as well as 🟥6, and keeps 🟥6
	// low.
	w.CurrentTrick = []tc.Played{{Seat: 1, Card: card(tc.Red, 3)}, {Seat: 2, Card: card(tc.Red, 4)}}
	w.Hand = []tc.Card{card(tc.Red, 6), card(tc.Red, 9)}
	if r, ok := whyBetter(w, play(card(tc.Red, 6), 0), play(card(tc.Red, 9), 0), tc.Verdict{}); !ok || r.Code != reasonTakeKeepLow || r.Low != card(tc.Red, 6) {
		t.Fatalf("got %+v, %v; want take_keep_low keeping 🟥6", r, ok)
	}
	// 🟥6 neither takes nor is the lowest: a coin of income.
	if r, ok := whyBetter(v, play(card(tc.Red, 10), 0), play(card(tc.Red, 6), 0), tc.Verdict{}); !ok || r.Code != reasonIncome {
		t.Fatalf("got %+v, %v; want income", r, ok)
	}
}

func TestReasonTop(t *testing.T) {
	// A lead of 🟨10 with red trump: no higher yellow card exists.
	v := view(tc.PhasePlay, [tc.NumSuits]int{2, 3, 3, 0}, [tc.NumSuits]int{}, []tc.Card{card(tc.Yellow, 10), card(tc.Blue, 5)}, nil)
	ev := tc.Advice{Deals: 50, Took: 1}
	if r, ok := whyBetter(v, play(card(tc.Blue, 5), 0), play(card(tc.Yellow, 10), 0), tc.Verdict{Why: ev}); !ok || r.Code != reasonTop {
		t.Fatalf("got %+v, %v; want top", r, ok)
	}
	// 🟨9 is not the top while 🟨10 is in someone else's hand.
	v.Hand = []tc.Card{card(tc.Yellow, 9), card(tc.Blue, 5)}
	if r, _ := whyBetter(v, play(card(tc.Blue, 5), 0), play(card(tc.Yellow, 9), 0), tc.Verdict{Why: ev}); r.Code != reasonTakes {
		t.Fatalf("got %+v; want takes", r)
	}
	// The same move has no reason.
	if _, ok := whyBetter(v, play(card(tc.Blue, 5), 0), play(card(tc.Blue, 5), 0), tc.Verdict{Why: ev}); ok {
		t.Fatal("a move has a reason against itself")
	}
}

func TestReasonChefMoreStars(t *testing.T) {
	// Won 🟥7 and 🟨2, no chefs yet: either chef sits at once, the red one
	// on 3★, the yellow one on 1★.
	v := view(tc.PhaseAward, [tc.NumSuits]int{2, 2, 2, 0}, [tc.NumSuits]int{}, []tc.Card{card(tc.Blue, 3)},
		[]tc.Card{card(tc.Red, 7), card(tc.Yellow, 2)})
	r, ok := whyBetter(v, tc.ChefAction(tc.Yellow), tc.ChefAction(tc.Red), tc.Verdict{})
	if !ok || r.Code != reasonChefMoreStars || r.Card != card(tc.Red, 7) || r.Low != card(tc.Yellow, 2) || r.Stars != 3 || r.Fewer != 1 {
		t.Fatalf("got %+v, %v; want chef_more_stars 🟥7 (3★) over 🟨2 (1★)", r, ok)
	}
	// The other way round there is nothing of the kind to tell.
	if r, _ := whyBetter(v, tc.ChefAction(tc.Red), tc.ChefAction(tc.Yellow), tc.Verdict{}); r.Code == reasonChefMoreStars {
		t.Fatalf("the cheaper chef told as the richer: %+v", r)
	}
}

func TestReasonChefHandStars(t *testing.T) {
	// Two reds and two yellows in hand, the reds worth 3★ each, the
	// yellows 1★ and 3★; the pick, so the trumps do not change.
	hand := []tc.Card{card(tc.Red, 8), card(tc.Red, 9), card(tc.Yellow, 2), card(tc.Yellow, 7)}
	v := view(tc.PhasePick, [tc.NumSuits]int{4, 4, 4, 0}, [tc.NumSuits]int{}, hand, nil)
	r, ok := whyBetter(v, tc.ChefAction(tc.Yellow), tc.ChefAction(tc.Red), tc.Verdict{})
	if !ok || r.Code != reasonChefHandStars || r.Stars != 6 || r.Fewer != 4 || !slices.Equal(r.Cards, hand[:2]) {
		t.Fatalf("got %+v, %v; want chef_hand_stars 🟥8 🟥9, 6★ against 4★", r, ok)
	}
	// More cards of the person's suit: no reason of stars in hand.
	v.Hand = append(v.Hand, card(tc.Yellow, 1))
	if r, _ := whyBetter(v, tc.ChefAction(tc.Yellow), tc.ChefAction(tc.Red), tc.Verdict{}); r.Code == reasonChefHandStars {
		t.Fatalf("fewer cards told by their stars: %+v", r)
	}
}

func TestReasonGivesOrChef(t *testing.T) {
	// A lead the search finds gives the trick away in 88% of its deals
	// and is the lowest in 40%: most likely a coin or a chef.
	v := view(tc.PhasePlay, [tc.NumSuits]int{2, 3, 3, 0}, [tc.NumSuits]int{}, []tc.Card{card(tc.Red, 7), card(tc.Yellow, 3)}, nil)
	r, ok := whyBetter(v, play(card(tc.Yellow, 3), 0), play(card(tc.Red, 7), 0), tc.Verdict{Why: tc.Advice{Deals: 60, Took: 0.12, Chef: 0.4}})
	if !ok || r.Code != reasonGivesOrChef {
		t.Fatalf("got %+v, %v; want gives_or_chef", r, ok)
	}
	// With no deals searched nothing is told of what the card likely does.
	if r, ok := whyBetter(v, play(card(tc.Yellow, 3), 0), play(card(tc.Red, 7), 0), tc.Verdict{}); ok {
		t.Fatalf("no evidence, yet told %+v", r)
	}
}

// Every reason reads as a catalog line in every language: no key shows
// through.
func TestReasonTexts(t *testing.T) {
	cat := bottest.Catalog(t)
	codes := []reasonCode{reasonChefStars, reasonChefTrump, reasonChefHand, reasonCoinsNoStars, reasonCoins, reasonTakeStars,
		reasonLowest, reasonLowestSure, reasonLowestCheaper, reasonTakeKeepLow, reasonTakesSure, reasonGivesSure, reasonIncome, reasonTop, reasonTopTrump, reasonTakes, reasonGives,
		reasonGivesOrChef, reasonChefMoreStars, reasonChefHandStars, reasonChefRound, reasonChefRivals}
	for _, lang := range cat.Langs() {
		l := adapter.NewLoc(cat, lang)
		for _, c := range codes {
			for _, fewer := range []int{0, 2} {
				r := reason{Code: c, Card: card(tc.Yellow, 9), Low: card(tc.Blue, 2), Cards: []tc.Card{card(tc.Yellow, 9)}, Suit: tc.Yellow, Other: tc.Blue,
					Suits: []tc.Suit{tc.Blue}, Stars: 3, Coins: 2, Count: 4, Fewer: fewer,
					Round: tc.Tally{Stars: 4.4, Coins: 2.7}, Else: tc.Tally{Stars: 3.2, Coins: 1}, Points: 4}
				if s := r.text(l); s == "" || strings.Contains(s, "trickchef.") || strings.Contains(s, "<no value>") {
					t.Errorf("%s %s reads %q", lang, c, s)
				}
			}
		}
	}
}

func TestReasonChefRound(t *testing.T) {
	// The pick, one card of each suit in hand and nothing won: neither
	// chef has anything in view to say for it, so the judge's round does.
	v := view(tc.PhasePick, [tc.NumSuits]int{4, 4, 4, 0}, [tc.NumSuits]int{}, []tc.Card{card(tc.Red, 5), card(tc.Yellow, 5)}, nil)
	pick := func(vd tc.Verdict) (reason, bool) {
		return whyBetter(v, tc.ChefAction(tc.Yellow), tc.ChefAction(tc.Red), vd)
	}
	if _, ok := chefReason(v, tc.Yellow, tc.Red); ok {
		t.Fatal("the view itself tells a reason: the test would not reach the round")
	}
	mine := tc.Verdict{Deals: 60,
		BestTally: tc.Tally{Stars: 4.4, Coins: 2.7, RivalStars: 12.9, RivalCoins: 6.7},
		Tally:     tc.Tally{Stars: 3.2, Coins: 1.4, RivalStars: 12.0, RivalCoins: 8.0}}
	r, ok := pick(mine)
	if !ok || r.Code != reasonChefRound || r.Suit != tc.Red || r.Other != tc.Yellow || r.Round != mine.BestTally || r.Else != mine.Tally {
		t.Fatalf("got %+v, %v; want chef_round: 4.4★ 2.7 coins against 3.2★ 1.4", r, ok)
	}
	// The others lose more than the seat gains: told as theirs.
	theirs := tc.Verdict{Deals: 60,
		BestTally: tc.Tally{Stars: 10, Coins: 0, RivalStars: 12, RivalCoins: 7},
		Tally:     tc.Tally{Stars: 8, Coins: 1, RivalStars: 16, RivalCoins: 7}}
	if r, ok := pick(theirs); !ok || r.Code != reasonChefRivals || r.Points != 4 {
		t.Fatalf("got %+v, %v; want chef_rivals, 4 points", r, ok)
	}
	// Differences the playouts' noise could make, or no playouts at all:
	// nothing is told.
	small := tc.Verdict{Deals: 60, BestTally: tc.Tally{Stars: 3.3, Coins: 1.4}, Tally: tc.Tally{Stars: 3.2, Coins: 1.3}}
	for _, vd := range []tc.Verdict{small, {BestTally: mine.BestTally, Tally: mine.Tally}} {
		if r, ok := pick(vd); ok {
			t.Fatalf("%+v: told %+v", vd, r)
		}
	}
}
