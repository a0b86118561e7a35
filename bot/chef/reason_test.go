package chef

import (
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// seatOf is a seat's public cards: dishes and action cards, with its
// colour count.
func seatOf(cards ...ce.Card) ce.SeatPublic {
	var s ce.SeatPublic
	for _, c := range cards {
		s.Cards[c]++
	}
	for c := ce.Starter; c <= ce.Drink; c++ {
		if s.Cards[c] > 0 {
			s.Colours++
		}
	}
	s.Complete = s.Colours == ce.NumColours && len(cards) == ce.NumColours
	return s
}

// chefView is seat 0's view of a three-player game, seat 1 next, with
// the discard pile's top.
func chefView(top ce.Card, me, next ce.SeatPublic) ce.SeatView {
	v := ce.SeatView{Seat: 0}
	v.Players, v.Next, v.DiscardTop = 3, 1, top
	v.Seats = []ce.SeatPublic{me, next, seatOf()}
	return v
}

func TestReasonGift(t *testing.T) {
	// Throwing 🍝 away hands it to a neighbour with no 🍝: 4 colours.
	v := chefView(ce.EmptyPlate, seatOf(ce.Main, ce.Side, ce.Dessert, ce.Dessert), seatOf(ce.Starter, ce.Side, ce.Dessert))
	r, ok := whyBetter(v, ce.DiscardAction(ce.Main), ce.EndAction())
	if !ok || r.Code != reasonGift || r.Dish != ce.Main || r.Seat != 1 || r.Colours != 4 {
		t.Fatalf("got %+v, %v; want gift 🍝 to seat 1, 4 colours", r, ok)
	}
	// A 🍰 the neighbour has already is no gift, but the colour is not
	// lost either (a second 🍰): no reason of those.
	if r, _ := whyBetter(v, ce.DiscardAction(ce.Dessert), ce.EndAction()); r.Code == reasonGift || r.Code == reasonLoseColour {
		t.Fatalf("throwing a second 🍰 away: got %+v", r)
	}
}

func TestReasonLoseColour(t *testing.T) {
	// The neighbour has every colour: throwing the only 🍅 away gives
	// nothing, it loses a colour of the menu.
	v := chefView(ce.Side, seatOf(ce.Sauce, ce.Side, ce.Dessert), seatOf(ce.Starter, ce.Sauce, ce.Main, ce.Side, ce.Dessert, ce.Drink))
	r, ok := whyBetter(v, ce.DiscardAction(ce.Sauce), ce.EndAction())
	if !ok || r.Code != reasonLoseColour || r.Dish != ce.Sauce || r.Colours != 2 {
		t.Fatalf("got %+v, %v; want lose_colour 🍅, 2 colours left", r, ok)
	}
}

func TestReasonThreat(t *testing.T) {
	// A neighbour with five colours, a Diet in front of the seat: playing
	// it now beats drawing.
	v := chefView(ce.Side, seatOf(ce.Sauce, ce.Side, ce.Diet), seatOf(ce.Starter, ce.Sauce, ce.Main, ce.Side, ce.Dessert))
	r, ok := whyBetter(v, ce.DrawAction(), ce.PlayAction(ce.Diet, ce.Main, ce.NoCard))
	if !ok || r.Code != reasonThreat || r.Seat != 1 || r.Colours != 5 {
		t.Fatalf("got %+v, %v; want threat from seat 1, 5 colours", r, ok)
	}
	// A neighbour with two colours is no threat: the Diet is better kept.
	v.Seats[1] = seatOf(ce.Starter, ce.Sauce)
	r, ok = whyBetter(v, ce.PlayAction(ce.Diet, ce.Sauce, ce.NoCard), ce.DrawAction())
	if !ok || r.Code != reasonSpare || r.Colours != 2 {
		t.Fatalf("got %+v, %v; want spare, 2 colours", r, ok)
	}
}

func TestReasonTakeAndExtra(t *testing.T) {
	v := chefView(ce.Drink, seatOf(ce.Sauce, ce.Side, ce.Side), seatOf(ce.Drink))
	r, ok := whyBetter(v, ce.DrawAction(), ce.TakeAction())
	if !ok || r.Code != reasonTakeMissing || r.Dish != ce.Drink || r.Colours != 3 {
		t.Fatalf("got %+v, %v; want take_missing ☕, 3 colours", r, ok)
	}
	r, ok = whyBetter(v, ce.DrawAction(), ce.DiscardAction(ce.Side))
	if !ok || r.Code != reasonExtra || r.Dish != ce.Side {
		t.Fatalf("got %+v, %v; want extra 🥦", r, ok)
	}
	if _, ok := whyBetter(v, ce.DrawAction(), ce.DrawAction()); ok {
		t.Fatal("a move has a reason against itself")
	}
	var none game.Action = -5
	if _, ok := whyBetter(v, none, ce.DrawAction()); ok {
		t.Fatal("an action that does not decode has a reason")
	}
}

func TestReasonActionsAndDraw(t *testing.T) {
	// A Hangover lies in front of the seat: playing it clears the menu.
	v := chefView(ce.Side, seatOf(ce.Sauce, ce.Side, ce.Hangover), seatOf(ce.Starter, ce.Sauce, ce.Main))
	r, ok := whyBetter(v, ce.DrawAction(), ce.PlayAction(ce.Hangover, ce.Starter, ce.Sauce))
	if !ok || r.Code != reasonPlayAction || r.Card != ce.Hangover {
		t.Fatalf("got %+v, %v; want play_action 🥴", r, ok)
	}
	// The same Hangover striking off 🍤 where 🍅 is scarcer in the pile.
	v.PileCards[ce.Sauce], v.PileCards[ce.Starter], v.PileCards[ce.Main] = 1, 6, 6
	r, ok = whyBetter(v, ce.PlayAction(ce.Hangover, ce.Starter, ce.Main), ce.PlayAction(ce.Hangover, ce.Sauce, ce.Main))
	if !ok || r.Code != reasonScarce || r.Dish != ce.Sauce || r.Other != ce.Starter || r.Left != 1 || r.OtherLeft != 6 {
		t.Fatalf("got %+v, %v; want scarce 🍅 (1) over 🍤 (6)", r, ok)
	}
	// One dish apart is told only when the colours left to the neighbour
	// and the dish on top tell the two strikes apart no better: here
	// 🍤 and 🍅 alike.
	v.PileCards[ce.Sauce] = 5
	if r, _ := whyBetter(v, ce.PlayAction(ce.Hangover, ce.Starter, ce.Main), ce.PlayAction(ce.Hangover, ce.Sauce, ce.Main)); r.Code != reasonScarce || r.Left != 5 || r.OtherLeft != 6 {
		t.Fatalf("5 against 6, nothing else apart: got %+v", r)
	}
	// A second 🍤 in front of the neighbour: striking it leaves the
	// colour, so the colours tell the strikes apart first.
	v.Seats[1] = seatOf(ce.Starter, ce.Starter, ce.Sauce, ce.Main)
	if r, _ := whyBetter(v, ce.PlayAction(ce.Hangover, ce.Starter, ce.Main), ce.PlayAction(ce.Hangover, ce.Sauce, ce.Main)); r.Code != reasonStrikeColours {
		t.Fatalf("a strike leaving the colour: got %+v", r)
	}
	// Throwing an extra 🥦 away instead of drawing.
	v = chefView(ce.Side, seatOf(ce.Sauce, ce.Side, ce.Side), seatOf(ce.Side))
	r, ok = whyBetter(v, ce.DiscardAction(ce.Side), ce.DrawAction())
	if !ok || r.Code != reasonDrawFirst || r.Dish != ce.Side {
		t.Fatalf("got %+v, %v; want draw_first 🥦", r, ok)
	}
}

// clockwise is chefView with play going clockwise (seat 1 next, seat 2
// after it, seat 2 before seat 0) and the third seat's cards.
func clockwise(top ce.Card, me, next, third ce.SeatPublic) ce.SeatView {
	v := chefView(top, me, next)
	v.Clockwise = true
	v.Seats[2] = third
	return v
}

func TestReasonStrikes(t *testing.T) {
	me := seatOf(ce.Starter, ce.Sauce, ce.Diet)
	// The neighbour has two 🍰: a Diet on one leaves them 5 colours, on
	// 🍝 4.
	v := clockwise(ce.Side, me, seatOf(ce.Starter, ce.Sauce, ce.Main, ce.Side, ce.Dessert, ce.Dessert), seatOf(ce.Main, ce.Dessert))
	r, ok := whyBetter(v, ce.PlayAction(ce.Diet, ce.Dessert, ce.NoCard), ce.PlayAction(ce.Diet, ce.Main, ce.NoCard))
	if !ok || r.Code != reasonStrikeColours || r.Dish != ce.Dessert || r.Colours != 4 || r.OtherColours != 5 || r.Seat != 1 {
		t.Fatalf("got %+v, %v; want strike_colours: 4 against 5, the second 🍰", r, ok)
	}
	// The struck 🍝 lands on top for seat 2, who has none (the neighbour
	// skips); a struck 🍤 seat 2 has already.
	v = clockwise(ce.Side, me, seatOf(ce.Starter, ce.Main, ce.Side), seatOf(ce.Starter))
	r, ok = whyBetter(v, ce.PlayAction(ce.Diet, ce.Main, ce.NoCard), ce.PlayAction(ce.Diet, ce.Starter, ce.NoCard))
	if !ok || r.Code != reasonStrikeGift || r.Dish != ce.Main || r.Seat != 2 || r.Colours != 2 {
		t.Fatalf("got %+v, %v; want strike_gift 🍝 to seat 2, 2 colours", r, ok)
	}
	// Counter-clockwise the player after the neighbour is the seat itself:
	// no gift to tell.
	v.Clockwise = false
	if r, _ := whyBetter(v, ce.PlayAction(ce.Diet, ce.Main, ce.NoCard), ce.PlayAction(ce.Diet, ce.Starter, ce.NoCard)); r.Code == reasonStrikeGift {
		t.Fatalf("counter-clockwise: got %+v", r)
	}
	// A struck 🥦 the seat lacks and seat 2 has lands on top for the seat;
	// a struck 🍤 the seat has already.
	v = clockwise(ce.Side, me, seatOf(ce.Starter, ce.Side, ce.Dessert), seatOf(ce.Starter, ce.Side, ce.Dessert))
	r, ok = whyBetter(v, ce.PlayAction(ce.Diet, ce.Starter, ce.NoCard), ce.PlayAction(ce.Diet, ce.Side, ce.NoCard))
	if !ok || r.Code != reasonStrikeForMe || r.Dish != ce.Side || r.Seat != 2 {
		t.Fatalf("got %+v, %v; want strike_for_me 🥦, seat 2 has it", r, ok)
	}
	// A Hangover on the same two dishes in the other order: only the top
	// differs.
	v = clockwise(ce.Side, seatOf(ce.Starter, ce.Side, ce.Hangover), seatOf(ce.Starter, ce.Side, ce.Dessert), seatOf(ce.Starter, ce.Side))
	r, ok = whyBetter(v, ce.PlayAction(ce.Hangover, ce.Starter, ce.Side), ce.PlayAction(ce.Hangover, ce.Side, ce.Starter))
	if !ok || r.Code != reasonStrikeTop || r.Dish != ce.Starter || r.Other != ce.Side || r.Colours != 1 {
		t.Fatalf("got %+v, %v; want strike_top 🍤 over 🥦, 1 colour left", r, ok)
	}
}

func TestReasonChefTake(t *testing.T) {
	// A Chef taking 🍝 adds a colour; taking 🍤 does not.
	v := clockwise(ce.Side, seatOf(ce.Starter, ce.Sauce, ce.ChefCard), seatOf(ce.Starter, ce.Main), seatOf())
	r, ok := whyBetter(v, ce.PlayAction(ce.ChefCard, ce.Starter, ce.NoCard), ce.PlayAction(ce.ChefCard, ce.Main, ce.NoCard))
	if !ok || r.Code != reasonChefTake || r.Dish != ce.Main || r.Other != ce.Starter || r.MyColours != 3 || r.OtherColours != 2 {
		t.Fatalf("got %+v, %v; want chef_take 🍝: 3 colours against 2", r, ok)
	}
	// Both dishes new to the seat, both single: the same colours either way.
	v.Seats[0] = seatOf(ce.Sauce, ce.ChefCard)
	r, ok = whyBetter(v, ce.PlayAction(ce.ChefCard, ce.Starter, ce.NoCard), ce.PlayAction(ce.ChefCard, ce.Main, ce.NoCard))
	if !ok || r.Code != reasonChefTakeSame || r.MyColours != 2 || r.Colours != 1 {
		t.Fatalf("got %+v, %v; want chef_take_same: 2 colours, the neighbour 1", r, ok)
	}
}

func TestReasonTurnAndKeep(t *testing.T) {
	// Taking ☕ uncovers 🍰, which the neighbour lacks.
	v := clockwise(ce.Drink, seatOf(ce.Sauce), seatOf(ce.Starter, ce.Drink), seatOf())
	v.Discard = []ce.Card{ce.Dessert, ce.Drink}
	r, ok := whyBetter(v, ce.TakeAction(), ce.DrawAction())
	if !ok || r.Code != reasonUncover || r.Dish != ce.Dessert || r.Other != ce.Drink || r.Seat != 1 || r.Colours != 3 {
		t.Fatalf("got %+v, %v; want uncover 🍰 under ☕ for seat 1, 3 colours", r, ok)
	}
	// A Blank menu just drawn: seat 2, before the seat, holds a Diet and a
	// Hangover, the neighbour none; turning play round turns them away.
	v = clockwise(ce.Side, seatOf(ce.Sauce, ce.BlankMenu), seatOf(ce.Starter), seatOf(ce.Main, ce.Diet, ce.Hangover))
	v.Step, v.Drawn = ce.StepDrawn, ce.BlankMenu
	r, ok = whyBetter(v, ce.EndAction(), ce.PlayAction(ce.BlankMenu, ce.NoCard, ce.NoCard))
	if !ok || r.Code != reasonReverseAway || r.Seat != 2 || len(r.Cards) != 2 {
		t.Fatalf("got %+v, %v; want reverse_away from seat 2, 2 cards", r, ok)
	}
	// The other way: the neighbour's Chefs would hit the seat.
	v = clockwise(ce.Side, seatOf(ce.Sauce, ce.BlankMenu), seatOf(ce.Starter, ce.ChefCard, ce.ChefCard), seatOf(ce.Main))
	v.Step, v.Drawn = ce.StepDrawn, ce.BlankMenu
	r, ok = whyBetter(v, ce.PlayAction(ce.BlankMenu, ce.NoCard, ce.NoCard), ce.EndAction())
	if !ok || r.Code != reasonReverseOnto || r.Seat != 1 || len(r.Cards) != 2 {
		t.Fatalf("got %+v, %v; want reverse_onto from seat 1, 2 cards", r, ok)
	}
	// An Empty plate just drawn and not played stays in front.
	v = clockwise(ce.Side, seatOf(ce.Sauce, ce.EmptyPlate), seatOf(ce.Starter), seatOf(ce.Main))
	v.Step, v.Drawn = ce.StepDrawn, ce.EmptyPlate
	r, ok = whyBetter(v, ce.EndAction(), ce.PlayAction(ce.EmptyPlate, ce.NoCard, ce.NoCard))
	if !ok || r.Code != reasonPlayDrawn || r.Card != ce.EmptyPlate {
		t.Fatalf("got %+v, %v; want play_drawn 🍽", r, ok)
	}
	// A second 🥦 thrown away that «Профи» keeps.
	v = clockwise(ce.Side, seatOf(ce.Sauce, ce.Side, ce.Side), seatOf(ce.Side), seatOf(ce.Side))
	v.Step = ce.StepDrawn
	r, ok = whyBetter(v, ce.DiscardAction(ce.Side), ce.EndAction())
	if !ok || r.Code != reasonKeepDouble || r.Dish != ce.Side {
		t.Fatalf("got %+v, %v; want keep_double 🥦", r, ok)
	}
	// An Empty plate at a neighbour with four colours, «Профи» drawing.
	v = clockwise(ce.Side, seatOf(ce.Sauce, ce.EmptyPlate), seatOf(ce.Starter, ce.Sauce, ce.Main, ce.Side), seatOf(ce.Main))
	r, ok = whyBetter(v, ce.PlayAction(ce.EmptyPlate, ce.NoCard, ce.NoCard), ce.DrawAction())
	if !ok || r.Code != reasonKeepCard || r.Card != ce.EmptyPlate || r.Colours != 4 {
		t.Fatalf("got %+v, %v; want keep_card 🍽, the neighbour at 4 colours", r, ok)
	}
}

func TestReasonChefBack(t *testing.T) {
	// A Шеф drawn onto a complete menu, the neighbour complete too: a Шеф
	// would bring a second dish; throwing 🍤 away and keeping the Шеф, it
	// can take the neighbour's only 🍤 back. The person redraws instead.
	all := []ce.Card{ce.Starter, ce.Sauce, ce.Main, ce.Side, ce.Dessert, ce.Drink}
	v := clockwise(ce.Drink, seatOf(append(all, ce.ChefCard)...), seatOf(all...), seatOf(ce.Main))
	v.Step, v.Drawn = ce.StepDrawn, ce.ChefCard
	r, ok := whyBetter(v, ce.RedrawAction(), ce.DiscardAction(ce.Starter))
	if !ok || r.Code != reasonChefBackLast || r.Dish != ce.Starter || r.Seat != 1 {
		t.Fatalf("got %+v, %v; want chef_back_last 🍤 from seat 1", r, ok)
	}
	// Two Шефs, no 🍝; the neighbour lacks 🍝 and 🍰 and has two 🥦:
	// throwing 🥦 away rather than ending the turn, the colour stays with
	// the neighbour.
	me := seatOf(ce.Starter, ce.Sauce, ce.Side, ce.Dessert, ce.Drink, ce.ChefCard, ce.ChefCard)
	v = clockwise(ce.Starter, me, seatOf(ce.Starter, ce.Sauce, ce.Side, ce.Side, ce.Drink), seatOf(ce.Main))
	v.Step, v.Drawn = ce.StepDrawn, ce.ChefCard
	r, ok = whyBetter(v, ce.EndAction(), ce.DiscardAction(ce.Side))
	if !ok || r.Code != reasonChefBack || r.Dish != ce.Side || r.Seat != 1 {
		t.Fatalf("got %+v, %v; want chef_back 🥦 from seat 1", r, ok)
	}
	// A neighbour with 🍝, which the seat lacks: a Шеф can bring a new
	// colour as it is, so no such reason.
	v.Seats[1] = seatOf(ce.Starter, ce.Main, ce.Side)
	if r, _ := whyBetter(v, ce.EndAction(), ce.DiscardAction(ce.Side)); r.Code == reasonChefBack || r.Code == reasonChefBackLast {
		t.Fatalf("the neighbour has a colour the seat lacks: got %+v", r)
	}
	// No Шеф in front of the seat: nothing to take the dish back with.
	v.Seats[0] = seatOf(ce.Starter, ce.Sauce, ce.Side, ce.Dessert, ce.Drink, ce.EmptyPlate)
	v.Seats[1] = seatOf(ce.Starter, ce.Side)
	v.Drawn = ce.EmptyPlate
	if r, _ := whyBetter(v, ce.EndAction(), ce.DiscardAction(ce.Side)); r.Code == reasonChefBack || r.Code == reasonChefBackLast {
		t.Fatalf("no Шеф: got %+v", r)
	}
}

// Every reason reads as a catalog line in every language: no key shows
// through, no placeholder is left empty.
func TestReasonTexts(t *testing.T) {
	cat := bottest.Catalog(t)
	tv := adapter.View(&record.Table{Seats: []record.Seat{{Name: "Катя"}, {Name: "Робот 1"}, {Name: "Робот 2"}}})
	codes := []reasonCode{reasonAnnounce, reasonRedraw, reasonTakeBill, reasonGift, reasonThreat, reasonLoseColour, reasonTakeMissing, reasonExtra, reasonSpare, reasonPlayAction, reasonDrawFirst, reasonScarce,
		reasonStrikeColours, reasonStrikeGift, reasonUncover, reasonReverseAway, reasonReverseOnto, reasonPlayDrawn, reasonKeepDouble, reasonKeepCard,
		reasonStrikeForMe, reasonStrikeTop, reasonChefTake, reasonChefTakeSame, reasonChefBack, reasonChefBackLast}
	for _, lang := range cat.Langs() {
		l := adapter.NewLoc(cat, lang)
		for _, c := range codes {
			for _, left := range []int{0, 1} {
				r := reason{Code: c, Dish: ce.Main, Other: ce.Drink, Card: ce.Diet, Seat: 1, Colours: 5, Left: left, OtherLeft: 5,
					OtherColours: 6, MyColours: 4, Cards: []ce.Card{ce.Diet, ce.ChefCard}}
				if left == 0 {
					r.Dish = ce.NoCard // strike_colours without a second dish
					if c != reasonStrikeColours {
						r.Dish = ce.Main
					}
				}
				s := r.text(l, tv)
				named := c == reasonGift || c == reasonThreat || c == reasonSpare || c == reasonStrikeColours || c == reasonStrikeGift ||
					c == reasonUncover || c == reasonReverseAway || c == reasonReverseOnto || c == reasonKeepCard || c == reasonStrikeForMe ||
					c == reasonStrikeTop || c == reasonChefTakeSame || c == reasonChefBack || c == reasonChefBackLast
				if s == "" || strings.Contains(s, "chef.reason") || !strings.Contains(s, "Робот 1") && named || strings.Contains(s, "<no value>") {
					t.Errorf("%s %s reads %q", lang, c, s)
				}
			}
		}
	}
}
