package trickchef

import (
	"strconv"

	"github.com/trickchef/trickchef/game"
)

// Action encoding (all small non-negative ints, so they fit Telegram
// callback data):
//
//	0..3        ChefAction(suit): take a chef of that suit
//	4..1643     PlayAction(card, coins) = 4 + index(card)*41 + (coins+20),
//	            index(card) = suit*10 + value-1, coins in -20..+20
//
// One played card with its coins is one action.
const (
	chefBase   = 0
	playBase   = NumSuits
	coinSpan   = 2*TotalCoins + 1
	numActions = playBase + NumSuits*MaxValue*coinSpan
)

// TotalCoins is the number of coin tokens in the box.
const TotalCoins = 20

// MaxAction is the largest action any state can accept.
const MaxAction = game.Action(numActions - 1)

// Kind tells a chef choice from a card play.
type Kind uint8

const (
	KindPlay Kind = iota + 1
	KindChef
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindPlay:
		return "play"
	case KindChef:
		return "chef"
	}
	return "?"
}

// Move is a decoded action.
type Move struct {
	Kind  Kind
	Card  Card // KindPlay
	Coins int  // KindPlay: +k = k coins on the +2 side, -k on the -2 side
	Suit  Suit // KindChef
}

// PlayAction encodes playing c with coins on it (+k: +2 side, −k: −2 side).
// An impossible card or coin count encodes as -1, which every state refuses
// with unknown_action.
func PlayAction(c Card, coins int) game.Action {
	if !c.Valid() || coins < -TotalCoins || coins > TotalCoins {
		return -1
	}
	return game.Action(playBase + int(c.index())*coinSpan + coins + TotalCoins)
}

// ChefAction encodes taking a chef of suit s, both for the round-start pick
// and for the trick award.
func ChefAction(s Suit) game.Action {
	if s >= NumSuits {
		return -1
	}
	return game.Action(chefBase + int(s))
}

// Decode reverses PlayAction and ChefAction; false if a is no valid encoding.
func Decode(a game.Action) (Move, bool) {
	switch {
	case a < 0 || a >= numActions:
		return Move{}, false
	case a < playBase:
		return Move{Kind: KindChef, Suit: Suit(a - chefBase)}, true
	}
	x := int(a) - playBase
	return Move{Kind: KindPlay, Card: cardAt(uint8(x / coinSpan)), Coins: x%coinSpan - TotalCoins}, true
}

// String renders a move in notation: "R7+2" (two coins on the +2 side),
// "B3-1", "Y10", or "chef:G".
func (m Move) String() string {
	switch m.Kind {
	case KindChef:
		return "chef:" + m.Suit.String()
	case KindPlay:
		s := m.Card.String()
		if m.Coins > 0 {
			s += "+" + strconv.Itoa(m.Coins)
		} else if m.Coins < 0 {
			s += "-" + strconv.Itoa(-m.Coins)
		}
		return s
	}
	return "?"
}
