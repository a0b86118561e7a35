package trickchef

import (
	"errors"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/game"
)

// Notation: a card is its suit letter (R, Y, B, G) and value, e.g. "R1",
// "Y10". A hand is cards separated by spaces; a deal is hands separated by
// "|", seat 0 first: "R1 R3 ... | Y2 ... | ...". Letters are
// case-insensitive.

// ParseCard parses one card such as "B7".
func ParseCard(s string) (Card, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 {
		return Card{}, errors.New("trickchef: bad card " + strconv.Quote(s))
	}
	i := strings.IndexByte(suitLetters, upper(s[0]))
	v, err := strconv.Atoi(s[1:])
	c := Card{Suit: Suit(i), Value: v}
	if i < 0 || err != nil || !c.Valid() || s[1] == '+' || s[1] == '0' {
		return Card{}, errors.New("trickchef: bad card " + strconv.Quote(s))
	}
	return c, nil
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

// ParseCards parses space-separated cards.
func ParseCards(s string) ([]Card, error) {
	var out []Card
	for _, f := range strings.Fields(s) {
		c, err := ParseCard(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// ParseDeal parses hands separated by "|", seat 0 first.
func ParseDeal(s string) ([][]Card, error) {
	var out [][]Card
	for _, h := range strings.Split(s, "|") {
		cards, err := ParseCards(h)
		if err != nil {
			return nil, err
		}
		out = append(out, cards)
	}
	return out, nil
}

// FormatCards renders cards in notation, space-separated.
func FormatCards(cards []Card) string {
	parts := make([]string, len(cards))
	for i, c := range cards {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

// FormatDeal renders hands in deal notation.
func FormatDeal(hands [][]Card) string {
	parts := make([]string, len(hands))
	for i, h := range hands {
		parts[i] = FormatCards(h)
	}
	return strings.Join(parts, " | ")
}

// ParseMove parses a move in Move.String notation: "R7", "R7+2", "B3-1",
// "chef:G".
func ParseMove(s string) (Move, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "chef:"); ok {
		i := strings.IndexByte(suitLetters, upper(firstByte(rest)))
		if len(rest) != 1 || i < 0 {
			return Move{}, errors.New("trickchef: bad move " + strconv.Quote(s))
		}
		return Move{Kind: KindChef, Suit: Suit(i)}, nil
	}
	cardPart, coins := s, 0
	if i := strings.IndexAny(s, "+-"); i > 0 {
		k, err := strconv.Atoi(s[i+1:])
		if err != nil || k < 0 || k > TotalCoins || s[i+1] == '+' || s[i+1] == '-' {
			return Move{}, errors.New("trickchef: bad move " + strconv.Quote(s))
		}
		cardPart, coins = s[:i], k
		if s[i] == '-' {
			coins = -k
		}
	}
	c, err := ParseCard(cardPart)
	if err != nil {
		return Move{}, err
	}
	return Move{Kind: KindPlay, Card: c, Coins: coins}, nil
}

func firstByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[0]
}

// Action encodes the move.
func (m Move) Action() game.Action {
	if m.Kind == KindChef {
		return ChefAction(m.Suit)
	}
	return PlayAction(m.Card, m.Coins)
}
