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
	// One dish apart is no scarcity to tell.
	v.PileCards[ce.Sauce] = 5
	if r, _ := whyBetter(v, ce.PlayAction(ce.Hangover, ce.Starter, ce.Main), ce.PlayAction(ce.Hangover, ce.Sauce, ce.Main)); r.Code == reasonScarce {
		t.Fatalf("5 against 6 read as scarce: %+v", r)
	}
	// Throwing an extra 🥦 away instead of drawing.
	v = chefView(ce.Side, seatOf(ce.Sauce, ce.Side, ce.Side), seatOf(ce.Side))
	r, ok = whyBetter(v, ce.DiscardAction(ce.Side), ce.DrawAction())
	if !ok || r.Code != reasonDrawFirst || r.Dish != ce.Side {
		t.Fatalf("got %+v, %v; want draw_first 🥦", r, ok)
	}
}

// Every reason reads as a catalog line in every language: no key shows
// through, no placeholder is left empty.
func TestReasonTexts(t *testing.T) {
	cat := bottest.Catalog(t)
	tv := adapter.View(&record.Table{Seats: []record.Seat{{Name: "Катя"}, {Name: "Робот 1"}, {Name: "Робот 2"}}})
	codes := []reasonCode{reasonAnnounce, reasonRedraw, reasonTakeBill, reasonGift, reasonThreat, reasonLoseColour, reasonTakeMissing, reasonExtra, reasonSpare, reasonPlayAction, reasonDrawFirst, reasonScarce}
	for _, lang := range cat.Langs() {
		l := adapter.NewLoc(cat, lang)
		for _, c := range codes {
			for _, left := range []int{0, 1} {
				s := reason{Code: c, Dish: ce.Main, Other: ce.Drink, Card: ce.Diet, Seat: 1, Colours: 5, Left: left, OtherLeft: 5}.text(l, tv)
				if s == "" || strings.Contains(s, "chef.reason") || !strings.Contains(s, "Робот 1") && (c == reasonGift || c == reasonThreat || c == reasonSpare) || strings.Contains(s, "<no value>") {
					t.Errorf("%s %s reads %q", lang, c, s)
				}
			}
		}
	}
}
