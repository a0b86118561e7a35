package chef

import (
	"slices"
	"strings"

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
	// reasonStrikeColours: both moves play the same Diet, Hangover or
	// Chef at the next player (Seat); after «Профи»'s they have Colours
	// left, after the person's OtherColours (more). Dish, when set, is the
	// dish the person took of which the neighbour has exactly two.
	reasonStrikeColours reasonCode = "strike_colours"
	// reasonStrikeGift: the dish the person's Diet or Hangover leaves on
	// top of the discard pile (Dish) is a colour the player after the
	// neighbour (Seat) lacks: Colours with it.
	reasonStrikeGift reasonCode = "strike_gift"
	// reasonUncover: taking the discard pile's top (Other) uncovers the
	// dish under it (Dish), a colour the next player (Seat) lacks: Colours
	// with it.
	reasonUncover reasonCode = "uncover"
	// reasonReverseAway: «Профи»'s Blank menu turns play round, and the
	// action cards (Cards) in front of the player before the seat (Seat)
	// no longer hit it; reasonReverseOnto: the person's Blank menu turns
	// the next player's action cards (Cards, of Seat) onto the seat.
	reasonReverseAway reasonCode = "reverse_away"
	reasonReverseOnto reasonCode = "reverse_onto"
	// reasonPlayDrawn: the action card just drawn (Card), if not played
	// now, stays in front of the seat and keeps the menu incomplete.
	reasonPlayDrawn reasonCode = "play_drawn"
	// reasonKeepDouble: the person throws away a second dish (Dish) that
	// «Профи» keeps: with two of a colour, a Diet or a Hangover on it
	// does not take the colour away.
	reasonKeepDouble reasonCode = "keep_double"
	// reasonKeepCard: the person plays an action card (Card) at the next
	// player (Seat), who has Colours; «Профи» keeps it for later.
	reasonKeepCard reasonCode = "keep_card"
	// reasonStrikeForMe: «Профи»'s Diet or Hangover leaves on top of the
	// discard pile a dish (Dish) the seat lacks and the player after the
	// neighbour (Seat) has: unless it is covered, the seat may take it on
	// its next turn.
	reasonStrikeForMe reasonCode = "strike_for_me"
	// reasonStrikeTop: both moves strike as many colours off the next
	// player (Seat), who keeps Colours either way; «Профи»'s leaves Dish on
	// top of the discard pile, the person's Other. A general reason.
	reasonStrikeTop reasonCode = "strike_top"
	// reasonChefTake: both moves take a dish from the next player (Seat)
	// with a Chef; «Профи»'s (Dish) gives the seat MyColours, the
	// person's (Other) OtherColours (fewer: a colour the seat has).
	reasonChefTake reasonCode = "chef_take"
	// reasonChefTakeSame: both leave the seat MyColours and the next
	// player (Seat) Colours; «Профи»'s takes Dish, the person's Other. A
	// general reason.
	reasonChefTakeSame reasonCode = "chef_take_same"
	// reasonChefBack: a Шеф lies in front of the seat, and the next player
	// (Seat) has no colour the seat lacks, so the Шеф would bring only a
	// second dish of a colour; «Профи» throws away the seat's only dish of
	// a colour (Dish) that the next player has too, which the Шеф can take
	// back from them, the person keeps it. reasonChefBackLast: the next
	// player has only one such dish, and would lose the colour to it.
	reasonChefBack     reasonCode = "chef_back"
	reasonChefBackLast reasonCode = "chef_back_last"
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
	// OtherColours is the next player's colours after the person's move
	// (reasonStrikeColours).
	OtherColours int
	MyColours    int       // the seat's colours after «Профи»'s move
	Cards        []ce.Card // action cards in front of Seat
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
		if d, o, ok := scarcerBy(v, p, b, scarceGap); ok {
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
	return laterReason(v, p, b)
}

// laterReason is whyBetter's second round: what the moves do to the
// next player's menu and the discard pile, which way play turns, and
// which cards stay in front of the seat.
func laterReason(v ce.SeatView, p, b ce.Move) (reason, bool) {
	me := v.Seats[v.Seat]
	hasNext := v.Next >= 0 && v.Next != v.Seat && int(v.Next) < len(v.Seats)
	var nx ce.SeatPublic
	if hasNext {
		nx = v.Seats[v.Next]
	}
	if hasNext && p.Kind == ce.KindPlay && b.Kind == ce.KindPlay && p.Card == b.Card {
		if cp, cb := coloursAfter(nx, p), coloursAfter(nx, b); cb < cp {
			r := reason{Code: reasonStrikeColours, Seat: v.Next, Colours: cb, OtherColours: cp}
			for _, d := range []ce.Card{p.Dish, p.Dish2} {
				if d.IsDish() && nx.Cards[d] == 2 && p.Dish != p.Dish2 {
					r.Dish = d
				}
			}
			return r, true
		}
		if f, ok := following(v); ok {
			fs := v.Seats[f]
			if d := struckTop(p); d != ce.NoCard && fs.Cards[d] == 0 && !(struckTop(b) != ce.NoCard && fs.Cards[struckTop(b)] == 0) {
				return reason{Code: reasonStrikeGift, Dish: d, Seat: f, Colours: fs.Colours + 1}, true
			}
		}
		if d, o, ok := scarcerBy(v, p, b, 1); ok {
			return reason{Code: reasonScarce, Card: b.Card, Dish: d, Other: o, Left: v.PileCards[d], OtherLeft: v.PileCards[o]}, true
		}
		if f, ok := following(v); ok {
			db, dp := struckTop(b), struckTop(p)
			if db != ce.NoCard && me.Cards[db] == 0 && v.Seats[f].Cards[db] > 0 && !(dp != ce.NoCard && me.Cards[dp] == 0) {
				return reason{Code: reasonStrikeForMe, Dish: db, Seat: f}, true
			}
		}
		if b.Card == ce.ChefCard && b.Dish.IsDish() && p.Dish.IsDish() {
			mb, mp := me.Colours, me.Colours
			if me.Cards[b.Dish] == 0 {
				mb++
			}
			if me.Cards[p.Dish] == 0 {
				mp++
			}
			if mb > mp {
				return reason{Code: reasonChefTake, Seat: v.Next, Dish: b.Dish, Other: p.Dish, MyColours: mb, OtherColours: mp}, true
			}
			if mb == mp && coloursAfter(nx, b) == coloursAfter(nx, p) {
				return reason{Code: reasonChefTakeSame, Seat: v.Next, Dish: b.Dish, Other: p.Dish, MyColours: mb, Colours: coloursAfter(nx, b)}, true
			}
		}
		if db, dp := struckTop(b), struckTop(p); db != ce.NoCard && dp != ce.NoCard && db != dp && coloursAfter(nx, b) == coloursAfter(nx, p) {
			return reason{Code: reasonStrikeTop, Seat: v.Next, Dish: db, Other: dp, Colours: coloursAfter(nx, b)}, true
		}
	}
	if hasNext && p.Kind == ce.KindTake && b.Kind != ce.KindTake && len(v.Discard) >= 2 {
		if d := v.Discard[len(v.Discard)-2]; d.IsDish() && nx.Cards[d] == 0 {
			return reason{Code: reasonUncover, Dish: d, Other: v.DiscardTop, Seat: v.Next, Colours: nx.Colours + 1}, true
		}
	}
	if hasNext && v.Players > 2 {
		prev := previous(v)
		pb, bb := p.Kind == ce.KindPlay && p.Card == ce.BlankMenu, b.Kind == ce.KindPlay && b.Card == ce.BlankMenu
		switch {
		case bb && !pb && len(hitCards(v.Seats[prev])) > len(hitCards(nx)):
			return reason{Code: reasonReverseAway, Seat: prev, Cards: hitCards(v.Seats[prev])}, true
		case pb && !bb && len(hitCards(nx)) > len(hitCards(v.Seats[prev])):
			return reason{Code: reasonReverseOnto, Seat: v.Next, Cards: hitCards(nx)}, true
		}
	}
	if v.Step == ce.StepDrawn && v.Drawn.IsAction() && b.Kind == ce.KindPlay && b.Card == v.Drawn && !(p.Kind == ce.KindPlay && p.Card == v.Drawn) {
		return reason{Code: reasonPlayDrawn, Card: v.Drawn}, true
	}
	if p.Kind == ce.KindDiscard && me.Cards[p.Dish] >= 2 && !(b.Kind == ce.KindDiscard && b.Dish == p.Dish) {
		return reason{Code: reasonKeepDouble, Dish: p.Dish}, true
	}
	if hasNext && p.Kind == ce.KindPlay && p.Card.IsAction() && !(b.Kind == ce.KindPlay && b.Card == p.Card) {
		return reason{Code: reasonKeepCard, Card: p.Card, Seat: v.Next, Colours: nx.Colours}, true
	}
	if hasNext && chefBack(me, nx, b) && p.Kind != ce.KindDiscard {
		r := reason{Code: reasonChefBack, Dish: b.Dish, Seat: v.Next}
		if nx.Cards[b.Dish] == 1 {
			r.Code = reasonChefBackLast
		}
		return r, true
	}
	return reason{}, false
}

// chefBack reports whether m throws away the seat me's only dish of a
// colour that the next player nx has too, while a Шеф stays in front of
// me and nx has no colour me lacks: a Шеф played at nx would bring only
// a second dish of a colour, after m it can take that colour back.
func chefBack(me, nx ce.SeatPublic, m ce.Move) bool {
	if m.Kind != ce.KindDiscard || !m.Dish.IsDish() || me.Cards[m.Dish] != 1 || nx.Cards[m.Dish] == 0 || me.Cards[ce.ChefCard] == 0 {
		return false
	}
	for c := ce.Starter; c <= ce.Drink; c++ {
		if nx.Cards[c] > 0 && me.Cards[c] == 0 {
			return false
		}
	}
	return true
}

// coloursAfter is how many colours the seat s has after m strikes or
// takes its dishes (m a Diet, Hangover or Chef at it).
func coloursAfter(s ce.SeatPublic, m ce.Move) int {
	switch m.Card {
	case ce.Diet, ce.Hangover, ce.ChefCard:
	default:
		return s.Colours
	}
	for _, d := range []ce.Card{m.Dish, m.Dish2} {
		if d.IsDish() && s.Cards[d] > 0 {
			s.Cards[d]--
		}
	}
	n := 0
	for c := ce.Starter; c <= ce.Drink; c++ {
		if s.Cards[c] > 0 {
			n++
		}
	}
	return n
}

// struckTop is the dish a Diet or a Hangover leaves on top of the discard
// pile (NoCard for any other move).
func struckTop(m ce.Move) ce.Card {
	switch {
	case m.Kind != ce.KindPlay:
	case m.Card == ce.Diet:
		return m.Dish
	case m.Card == ce.Hangover:
		return m.Dish2
	}
	return ce.NoCard
}

// following is the player after the next one, who may take what a
// penalty leaves on the discard pile (the next one skips); false with two
// players, whose penalties leave the game.
func following(v ce.SeatView) (game.Seat, bool) {
	if v.Players <= 2 || len(v.Seats) != v.Players {
		return 0, false
	}
	f := stepFrom(v, v.Next, v.Clockwise)
	return f, f != v.Seat && f != v.Next
}

// previous is the player before the seat in the direction of play: the
// one whose action cards hit it.
func previous(v ce.SeatView) game.Seat { return stepFrom(v, v.Seat, !v.Clockwise) }

// stepFrom is the seat after s going clockwise (seat+1) or not.
func stepFrom(v ce.SeatView, s game.Seat, clockwise bool) game.Seat {
	n := game.Seat(v.Players)
	if clockwise {
		return (s + 1) % n
	}
	return (s + n - 1) % n
}

// hitCards are the action cards in front of s that hit the player after
// it: a Hangover, a Diet, an Empty plate, a Chef.
func hitCards(s ce.SeatPublic) []ce.Card {
	var out []ce.Card
	for _, c := range []ce.Card{ce.Hangover, ce.Diet, ce.EmptyPlate, ce.ChefCard} {
		for range s.Cards[c] {
			out = append(out, c)
		}
	}
	return out
}

// scarceGap is how many fewer dishes of a colour must be left in the pile
// for it to be told as the scarcer one.
const scarceGap = 2

// scarcerBy finds, for the same action card played two ways, the dish
// «Профи» picks that the person did not (d) and the person's instead (o),
// when at least gap fewer of d's colour are left in the pile.
func scarcerBy(v ce.SeatView, p, b ce.Move, gap int) (d, o ce.Card, ok bool) {
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
			if !slices.Contains(bs, y) && v.PileCards[x]+gap <= v.PileCards[y] {
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
	case reasonLoseColour, reasonTakeMissing, reasonExtra, reasonDrawFirst, reasonKeepDouble:
		return l.T(key, "Dish", chefDishEmoji(r.Dish), "Colours", colours)
	case reasonStrikeColours:
		if r.Dish != ce.NoCard {
			key += "_double"
		}
		return l.T(key, "Name", adapter.SeatName(t, r.Seat), "Colours", colours, "Dish", chefDishEmoji(r.Dish),
			"OtherColours", l.T("chef.colours", "Count", r.OtherColours))
	case reasonStrikeForMe, reasonStrikeTop:
		return l.T(key, "Name", adapter.SeatName(t, r.Seat), "Colours", colours, "Dish", chefDishEmoji(r.Dish), "Other", chefDishEmoji(r.Other))
	case reasonChefTake, reasonChefTakeSame:
		return l.T(key, "Name", adapter.SeatName(t, r.Seat), "Colours", colours, "Dish", chefDishEmoji(r.Dish), "Other", chefDishEmoji(r.Other),
			"MyColours", l.T("chef.colours", "Count", r.MyColours), "OtherColours", l.T("chef.colours", "Count", r.OtherColours))
	case reasonChefBack, reasonChefBackLast:
		return l.T(key, "Name", adapter.SeatName(t, r.Seat), "Dish", chefDishEmoji(r.Dish))
	case reasonStrikeGift, reasonUncover:
		return l.T(key, "Name", adapter.SeatName(t, r.Seat), "Colours", colours, "Dish", chefDishEmoji(r.Dish), "Other", chefDishEmoji(r.Other))
	case reasonReverseAway, reasonReverseOnto:
		cards := make([]string, len(r.Cards))
		for i, c := range r.Cards {
			cards[i] = chefCardText(l, c)
		}
		return l.T(key, "Name", adapter.SeatName(t, r.Seat), "Cards", strings.Join(cards, ", "))
	case reasonPlayDrawn:
		return l.T(key, "Card", chefCardText(l, r.Card))
	case reasonKeepCard:
		return l.T(key, "Card", chefCardAcc(l, r.Card), "Name", adapter.SeatName(t, r.Seat), "Colours", colours)
	}
	return l.T(key)
}
