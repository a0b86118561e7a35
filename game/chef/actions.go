package chef

import "github.com/trickchef/trickchef/game"

// Action encoding. Every choice of a turn is one action, so the bot can
// compose it with buttons and the state never holds a half-move:
//
//	0          draw the top card of the pile       DrawAction()
//	1          take the top of the discard pile    TakeAction()
//	2          end the turn after drawing          EndAction()
//	3          announce «Счёт!»                    AnnounceAction()
//	4          discard the drawn Chef, draw again  RedrawAction()
//	5          play Empty plate                    PlayAction(EmptyPlate, 0, 0)
//	6          play Blank menu                     PlayAction(BlankMenu, 0, 0)
//	7..12      discard a dish of colour 0..5       DiscardAction(dish)
//	13..18     play Diet: the victim loses dish    PlayAction(Diet, dish, 0)
//	19..24     play Chef: take this dish           PlayAction(ChefCard, dish, 0)
//	25..60     play Hangover: the victim loses     PlayAction(Hangover, d1, d2)
//	           d1 then d2 (d2 ends on the discard top): 25 + 6·(d1−1) + (d2−1)
//
// Dishes are Starter..Drink (colour index 0..5 = Card−1). MaxAction is 60;
// everything else decodes as invalid (unknown_action).
const (
	actDraw       = 0
	actTake       = 1
	actEnd        = 2
	actAnnounce   = 3
	actRedraw     = 4
	actEmptyPlate = 5
	actBlankMenu  = 6
	discardBase   = 7
	dietBase      = discardBase + NumColours
	chefBase      = dietBase + NumColours
	hangoverBase  = chefBase + NumColours
	numActions    = hangoverBase + NumColours*NumColours
)

// MaxAction is the largest action any state can accept.
const MaxAction = game.Action(numActions - 1)

// Kind tells the moves apart.
type Kind uint8

const (
	KindDraw     Kind = iota + 1 // draw the top card of the pile
	KindTake                     // take the top card of the discard pile
	KindEnd                      // after drawing: keep everything, end the turn
	KindAnnounce                 // announce the complete menu («Счёт!»); the turn goes on
	KindRedraw                   // after drawing a Chef onto a complete menu: discard it, draw again
	KindDiscard                  // Dish: discard a dish (a duplicate, or any dish after drawing)
	KindPlay                     // Card (Dish, Dish2): play an action card at the next player
)

// String names the kind as in notation.
func (k Kind) String() string {
	switch k {
	case KindDraw:
		return "draw"
	case KindTake:
		return "take"
	case KindEnd:
		return "end"
	case KindAnnounce:
		return "announce"
	case KindRedraw:
		return "redraw"
	case KindDiscard:
		return "discard"
	case KindPlay:
		return "play"
	}
	return "?"
}

// Move is a decoded action; only the fields its Kind uses are set.
type Move struct {
	Kind Kind
	// Card is the action card played (KindPlay).
	Card Card
	// Dish is the dish discarded (KindDiscard), the dish the victim loses
	// (Diet; Hangover's first) or the dish taken (ChefCard).
	Dish Card
	// Dish2 is Hangover's second dish, which ends on top of the discard.
	Dish2 Card
}

// DrawAction draws the top card of the pile.
func DrawAction() game.Action { return actDraw }

// TakeAction takes the top card of the discard pile.
func TakeAction() game.Action { return actTake }

// EndAction ends the turn after drawing, without discarding or playing.
func EndAction() game.Action { return actEnd }

// AnnounceAction announces a complete menu («Счёт!»).
func AnnounceAction() game.Action { return actAnnounce }

// RedrawAction discards the Chef just drawn onto a complete menu and draws
// once more.
func RedrawAction() game.Action { return actRedraw }

// DiscardAction discards a dish of d's colour (-1 if d is not a dish).
func DiscardAction(d Card) game.Action {
	if !d.IsDish() {
		return -1
	}
	return game.Action(discardBase + int(d-Starter))
}

// PlayAction plays action card c at the next player: Hangover takes two
// dishes d1, d2 (d2 ends on top of the discard pile), Diet one dish d1,
// ChefCard takes dish d1; EmptyPlate and BlankMenu take none (pass
// NoCard). -1 if the combination is not a valid move.
func PlayAction(c, d1, d2 Card) game.Action {
	return Move{Kind: KindPlay, Card: c, Dish: d1, Dish2: d2}.Action()
}

// DecodeAction reverses Move.Action; false if a is no valid encoding.
func DecodeAction(a game.Action) (Move, bool) {
	switch {
	case a < 0 || a >= numActions:
		return Move{}, false
	case a == actDraw:
		return Move{Kind: KindDraw}, true
	case a == actTake:
		return Move{Kind: KindTake}, true
	case a == actEnd:
		return Move{Kind: KindEnd}, true
	case a == actAnnounce:
		return Move{Kind: KindAnnounce}, true
	case a == actRedraw:
		return Move{Kind: KindRedraw}, true
	case a == actEmptyPlate:
		return Move{Kind: KindPlay, Card: EmptyPlate}, true
	case a == actBlankMenu:
		return Move{Kind: KindPlay, Card: BlankMenu}, true
	case a < dietBase:
		return Move{Kind: KindDiscard, Dish: Starter + Card(a-discardBase)}, true
	case a < chefBase:
		return Move{Kind: KindPlay, Card: Diet, Dish: Starter + Card(a-dietBase)}, true
	case a < hangoverBase:
		return Move{Kind: KindPlay, Card: ChefCard, Dish: Starter + Card(a-chefBase)}, true
	}
	i := int(a - hangoverBase)
	return Move{Kind: KindPlay, Card: Hangover, Dish: Starter + Card(i/NumColours), Dish2: Starter + Card(i%NumColours)}, true
}

// Action encodes the move (-1 if it is not a valid move: unused fields
// must be NoCard).
func (m Move) Action() game.Action {
	none := m.Card == NoCard && m.Dish == NoCard && m.Dish2 == NoCard
	switch m.Kind {
	case KindDraw, KindTake, KindEnd, KindAnnounce, KindRedraw:
		if !none {
			return -1
		}
		return game.Action(m.Kind - KindDraw) // 0..4 in Kind order
	case KindDiscard:
		if m.Card != NoCard || m.Dish2 != NoCard {
			return -1
		}
		return DiscardAction(m.Dish)
	case KindPlay:
		switch m.Card {
		case EmptyPlate, BlankMenu:
			if m.Dish != NoCard || m.Dish2 != NoCard {
				return -1
			}
			if m.Card == EmptyPlate {
				return actEmptyPlate
			}
			return actBlankMenu
		case Diet, ChefCard:
			if !m.Dish.IsDish() || m.Dish2 != NoCard {
				return -1
			}
			if m.Card == Diet {
				return game.Action(dietBase + int(m.Dish-Starter))
			}
			return game.Action(chefBase + int(m.Dish-Starter))
		case Hangover:
			if !m.Dish.IsDish() || !m.Dish2.IsDish() {
				return -1
			}
			return game.Action(hangoverBase + NumColours*int(m.Dish-Starter) + int(m.Dish2-Starter))
		}
	}
	return -1
}

// String renders the move in notation: "draw", "take", "end", "announce",
// "redraw", "discard:r", "play:E", "play:M", "play:D:r", "play:C:g",
// "play:H:rb" (see notation.go).
func (m Move) String() string {
	switch m.Kind {
	case KindDraw, KindTake, KindEnd, KindAnnounce, KindRedraw:
		return m.Kind.String()
	case KindDiscard:
		return "discard:" + m.Dish.String()
	case KindPlay:
		s := "play:" + m.Card.String()
		switch m.Card {
		case Diet, ChefCard:
			s += ":" + m.Dish.String()
		case Hangover:
			s += ":" + m.Dish.String() + m.Dish2.String()
		}
		return s
	}
	return "?"
}
