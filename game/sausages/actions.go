package sausages

import (
	"strconv"

	"github.com/trickchef/trickchef/game"
)

// Action encoding (small non-negative ints, so they fit Telegram callback
// data next to a table id and a version):
//
//	0         place a sausage (setup and add)     PlaceAction(Sausage)
//	1         place the boot (setup and add)      PlaceAction(Boot)
//	2         pass (bidding)                      PassAction()
//	3         lose a sausage (own boot)           LoseAction(Sausage)
//	4         lose the boot (own boot)            LoseAction(Boot)
//	5..10     reveal the top card of seat 0..5    RevealAction(seat)
//	11..16    name seat 0..5 the next first       NameAction(seat)
//	17..20    blind pick of card 0..3             PickAction(index)
//	21..44    bid n = 1..24 (open or raise)       BidAction(n) = 20+n
//
// MaxAction is 44; everything else decodes as invalid (unknown_action).
const (
	actPlaceSausage = 0
	actPlaceBoot    = 1
	actPass         = 2
	actLoseSausage  = 3
	actLoseBoot     = 4
	revealBase      = 5
	nameBase        = revealBase + MaxPlayers
	pickBase        = nameBase + MaxPlayers
	bidBase         = pickBase + CardsPerPlayer - 1 // BidAction(n) = bidBase + n
	numActions      = bidBase + MaxCards + 1
)

// MaxAction is the largest action any state can accept.
const MaxAction = game.Action(numActions - 1)

// Kind tells the actions apart.
type Kind uint8

const (
	KindPlace  Kind = iota + 1 // Card: place it face down (setup or add)
	KindBid                    // N: open the bidding or raise to N
	KindPass                   // pass in the bidding
	KindReveal                 // Seat: turn the top face-down card of that stack
	KindPick                   // Index: blind pick among the challenger's cards
	KindLose                   // Card: after an own boot, lose a card of that kind
	KindName                   // Seat: name the next round's first player
)

// String names the kind as in notation.
func (k Kind) String() string {
	switch k {
	case KindPlace:
		return "place"
	case KindBid:
		return "bid"
	case KindPass:
		return "pass"
	case KindReveal:
		return "reveal"
	case KindPick:
		return "pick"
	case KindLose:
		return "lose"
	case KindName:
		return "name"
	}
	return "?"
}

// Move is a decoded action; only the field its Kind uses is set.
type Move struct {
	Kind  Kind
	Card  Card      // KindPlace, KindLose
	N     int       // KindBid
	Seat  game.Seat // KindReveal, KindName
	Index int       // KindPick
}

// PlaceAction places a card of kind c face down (setup or add). An invalid
// card encodes as -1, which every state refuses with unknown_action.
func PlaceAction(c Card) game.Action {
	switch c {
	case Sausage:
		return actPlaceSausage
	case Boot:
		return actPlaceBoot
	}
	return -1
}

// LoseAction loses a card of kind c after revealing one's own boot.
func LoseAction(c Card) game.Action {
	switch c {
	case Sausage:
		return actLoseSausage
	case Boot:
		return actLoseBoot
	}
	return -1
}

// PassAction passes in the bidding.
func PassAction() game.Action { return actPass }

// BidAction opens the bidding with n or raises to n (1..MaxCards).
func BidAction(n int) game.Action {
	if n < 1 || n > MaxCards {
		return -1
	}
	return game.Action(bidBase + n)
}

// RevealAction turns over the top face-down card of seat s's stack.
func RevealAction(s game.Seat) game.Action {
	if s < 0 || s >= MaxPlayers {
		return -1
	}
	return game.Action(revealBase + int(s))
}

// NameAction names seat s the next round's first player.
func NameAction(s game.Seat) game.Action {
	if s < 0 || s >= MaxPlayers {
		return -1
	}
	return game.Action(nameBase + int(s))
}

// PickAction picks the challenger's card at index i (0-based) blind.
func PickAction(i int) game.Action {
	if i < 0 || i >= CardsPerPlayer {
		return -1
	}
	return game.Action(pickBase + i)
}

// Decode reverses the constructors; false if a is no valid encoding.
func Decode(a game.Action) (Move, bool) {
	switch {
	case a < 0 || a >= numActions:
		return Move{}, false
	case a == actPlaceSausage:
		return Move{Kind: KindPlace, Card: Sausage}, true
	case a == actPlaceBoot:
		return Move{Kind: KindPlace, Card: Boot}, true
	case a == actPass:
		return Move{Kind: KindPass}, true
	case a == actLoseSausage:
		return Move{Kind: KindLose, Card: Sausage}, true
	case a == actLoseBoot:
		return Move{Kind: KindLose, Card: Boot}, true
	case a < nameBase:
		return Move{Kind: KindReveal, Seat: game.Seat(a - revealBase)}, true
	case a < pickBase:
		return Move{Kind: KindName, Seat: game.Seat(a - nameBase)}, true
	case a <= bidBase:
		return Move{Kind: KindPick, Index: int(a - pickBase)}, true
	}
	return Move{Kind: KindBid, N: int(a - bidBase)}, true
}

// Action encodes the move (-1 if it is not a valid move).
func (m Move) Action() game.Action {
	switch m.Kind {
	case KindPlace:
		return PlaceAction(m.Card)
	case KindBid:
		return BidAction(m.N)
	case KindPass:
		return PassAction()
	case KindReveal:
		return RevealAction(m.Seat)
	case KindPick:
		return PickAction(m.Index)
	case KindLose:
		return LoseAction(m.Card)
	case KindName:
		return NameAction(m.Seat)
	}
	return -1
}

// String renders the move in notation: "place:S", "place:B", "bid:3",
// "pass", "reveal:2", "pick:0", "lose:S", "name:1".
func (m Move) String() string {
	switch m.Kind {
	case KindPlace, KindLose:
		return m.Kind.String() + ":" + m.Card.String()
	case KindBid:
		return "bid:" + strconv.Itoa(m.N)
	case KindPass:
		return "pass"
	case KindReveal, KindName:
		return m.Kind.String() + ":" + strconv.Itoa(int(m.Seat))
	case KindPick:
		return "pick:" + strconv.Itoa(m.Index)
	}
	return "?"
}
