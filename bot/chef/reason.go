package chef

import (
	"slices"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// reasonCode names why «Профи»'s move beats the one a person made, in the
// game's own terms (the review's moments; chef.reason.* in the catalog).
type reasonCode string

const (
	// reasonAnnounce: the menu is complete; announcing it lets the next
	// Счёт win.
	reasonAnnounce reasonCode = "announce"
	// reasonRedraw: a Шеф drawn onto a complete menu may be thrown away
	// for another draw.
	reasonRedraw reasonCode = "redraw"
	// reasonTakeBill: the Счёт on the discard pile wins the announced
	// menu.
	reasonTakeBill reasonCode = "take_bill"
	// reasonGift: the person's discard (Dish) lands on top of the pile,
	// and the next player (Seat), who has no dish of that colour, may take
	// it: Colours with it.
	reasonGift reasonCode = "gift"
	// reasonThreat: the next player (Seat) has Colours of six; «Профи»
	// plays an action card at them now.
	reasonThreat reasonCode = "threat"
	// reasonLoseColour: the person discards the only dish of a colour
	// (Dish): Colours are left.
	reasonLoseColour reasonCode = "lose_colour"
	// reasonTakeMissing: the dish on top of the discard pile (Dish) is a
	// colour the menu lacks: Colours with it.
	reasonTakeMissing reasonCode = "take_missing"
	// reasonExtra: «Профи» throws away an extra dish (Dish, a second of
	// its colour), which keeps the menu from being complete.
	reasonExtra reasonCode = "extra"
	// reasonPlayAction: «Профи» plays an action card lying in front of the
	// seat (Card): while it is there the menu cannot be complete.
	reasonPlayAction reasonCode = "play_action"
	// reasonDrawFirst: the person throws away an extra dish (Dish) instead
	// of drawing; after a draw it can still be thrown away.
	reasonDrawFirst reasonCode = "draw_first"
	// reasonScarce: «Профи» takes (a Шеф) or strikes off (a Hangover, a
	// Diet) a dish (Dish) of which fewer are left in the pile (Left) than
	// of the person's (Other, OtherLeft): a colour hard to get again.
	reasonScarce reasonCode = "scarce"
	// reasonSpare: the person spends an action card on the next player
	// (Seat), who has only Colours: no threat yet.
	reasonSpare reasonCode = "spare"
)

// threatColours is how many colours make a neighbour a threat: one dish
// short of a complete menu, or complete.
const threatColours = ce.NumColours - 1

// reason is why «Профи»'s move is better than the person's, computed from
// the seat's view at that moment: a code and its arguments.
type reason struct {
	Code      reasonCode
	Dish      ce.Card
	Other     ce.Card
	Card      ce.Card // an action card
	Seat      game.Seat
	Colours   int
	Left      int // dishes of Dish's colour left in the pile
	OtherLeft int // ... of Other's
}

// whyBetter compares the person's move played with «Профи»'s best in v,
// the seat's view before it. It reports false when it finds no reason to
// tell (the same move, or none of the reasons it knows).
func whyBetter(v ce.SeatView, played, best game.Action) (reason, bool) {
	p, ok1 := ce.DecodeAction(played)
	b, ok2 := ce.DecodeAction(best)
	if !ok1 || !ok2 || played == best {
		return reason{}, false
	}
	me := v.Seats[v.Seat]
	hasNext := v.Next >= 0 && v.Next != v.Seat && int(v.Next) < len(v.Seats)
	var nx ce.SeatPublic
	if hasNext {
		nx = v.Seats[v.Next]
	}
	switch {
	case b.Kind == ce.KindAnnounce:
		return reason{Code: reasonAnnounce}, true
	case b.Kind == ce.KindRedraw:
		return reason{Code: reasonRedraw}, true
	case b.Kind == ce.KindTake && v.DiscardTop == ce.Addition:
		return reason{Code: reasonTakeBill}, true
	}
	if d := onTop(p); hasNext && d != ce.NoCard && nx.Cards[d] == 0 && !gives(b, nx) {
		return reason{Code: reasonGift, Dish: d, Seat: v.Next, Colours: nx.Colours + 1}, true
	}
	if hasNext && threat(nx) && hits(b) && !hits(p) {
		return reason{Code: reasonThreat, Seat: v.Next, Colours: nx.Colours}, true
	}
	if p.Kind == ce.KindDiscard && me.Cards[p.Dish] == 1 && !(b.Kind == ce.KindDiscard && me.Cards[b.Dish] == 1) {
		return reason{Code: reasonLoseColour, Dish: p.Dish, Colours: me.Colours - 1}, true
	}
	if b.Kind == ce.KindTake && v.DiscardTop.IsDish() && me.Cards[v.DiscardTop] == 0 {
		return reason{Code: reasonTakeMissing, Dish: v.DiscardTop, Colours: me.Colours + 1}, true
	}
	if b.Kind == ce.KindDiscard && me.Cards[b.Dish] >= 2 && !(p.Kind == ce.KindDiscard && me.Cards[p.Dish] >= 2) {
		return reason{Code: reasonExtra, Dish: b.Dish}, true
	}
	if p.Kind == ce.KindPlay && b.Kind == ce.KindPlay && p.Card == b.Card {
		if d, o, ok := scarcer(v, p, b); ok {
			return reason{Code: reasonScarce, Card: b.Card, Dish: d, Other: o, Left: v.PileCards[d], OtherLeft: v.PileCards[o]}, true
		}
	}
	if b.Kind == ce.KindPlay && p.Kind != ce.KindPlay && b.Card.IsAction() && !(v.Step == ce.StepDrawn && v.Drawn == b.Card) {
		return reason{Code: reasonPlayAction, Card: b.Card}, true
	}
	if p.Kind == ce.KindDiscard && b.Kind == ce.KindDraw && me.Cards[p.Dish] >= 2 {
		return reason{Code: reasonDrawFirst, Dish: p.Dish}, true
	}
	if hasNext && hits(p) && !hits(b) && nx.Colours < threatColours-1 {
		return reason{Code: reasonSpare, Seat: v.Next, Colours: nx.Colours}, true
	}
	return reason{}, false
}

// scarceGap is how many fewer dishes of a colour must be left in the pile
// for it to be told as the scarcer one.
const scarceGap = 2

// scarcer finds, for the same action card played two ways, the dish
// «Профи» picks that the person did not (d) and the person's instead (o),
// when at least scarceGap fewer of d's colour are left in the pile.
func scarcer(v ce.SeatView, p, b ce.Move) (d, o ce.Card, ok bool) {
	pick := func(m ce.Move) []ce.Card {
		var out []ce.Card
		for _, c := range []ce.Card{m.Dish, m.Dish2} {
			if c.IsDish() {
				out = append(out, c)
			}
		}
		return out
	}
	bs, ps := pick(b), pick(p)
	for _, x := range bs {
		if slices.Contains(ps, x) {
			continue
		}
		for _, y := range ps {
			if !slices.Contains(bs, y) && v.PileCards[x]+scarceGap <= v.PileCards[y] {
				return x, y, true
			}
		}
	}
	return ce.NoCard, ce.NoCard, false
}

// onTop is the dish a move leaves on top of the discard pile: a dish
// thrown away (NoCard for any other move).
func onTop(m ce.Move) ce.Card {
	if m.Kind == ce.KindDiscard {
		return m.Dish
	}
	return ce.NoCard
}

// gives reports whether m too leaves on the discard pile a dish the seat
// nx has none of.
func gives(m ce.Move, nx ce.SeatPublic) bool {
	d := onTop(m)
	return d != ce.NoCard && nx.Cards[d] == 0
}

// threat reports whether a seat is close to winning: a complete menu, or
// one dish short of it.
func threat(s ce.SeatPublic) bool { return s.Complete || s.Colours >= threatColours }

// hits reports whether m plays an action card that sets the next player
// back: loses them a dish or a turn.
func hits(m ce.Move) bool {
	if m.Kind != ce.KindPlay {
		return false
	}
	switch m.Card {
	case ce.Hangover, ce.Diet, ce.EmptyPlate, ce.ChefCard:
		return true
	}
	return false
}

// text puts r into one clause of the language of l (Telegram HTML).
func (r reason) text(l adapter.Loc, t adapter.TableView) string {
	key := "chef.reason." + string(r.Code)
	colours := l.T("chef.colours", "Count", r.Colours)
	switch r.Code {
	case reasonGift:
		return l.T(key, "Dish", chefDishEmoji(r.Dish), "Name", adapter.SeatName(t, r.Seat), "Colours", colours)
	case reasonThreat, reasonSpare:
		return l.T(key, "Name", adapter.SeatName(t, r.Seat), "Colours", colours)
	case reasonScarce:
		if r.Left == 0 {
			key += "_none"
		}
		return l.T(key, "Dish", chefDishEmoji(r.Dish), "Other", chefDishEmoji(r.Other),
			"Left", l.T("chef.reason.left", "Count", r.Left), "OtherLeft", l.T("chef.reason.left", "Count", r.OtherLeft))
	case reasonPlayAction:
		return l.T(key, "Card", chefCardText(l, r.Card))
	case reasonLoseColour, reasonTakeMissing, reasonExtra, reasonDrawFirst:
		return l.T(key, "Dish", chefDishEmoji(r.Dish), "Colours", colours)
	}
	return l.T(key)
}
