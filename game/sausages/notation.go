package sausages

import (
	"errors"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/game"
)

// Notation. A card is "S" (sausage) or "B" (boot); a stack or hand is a
// string of them, a stack written bottom to top: "SSB" has the boot on top.
// Moves are written as Move.String renders them:
//
//	place:S  place:B  bid:3  pass  reveal:2  pick:0  lose:S  lose:B  name:1
//
// Letters are case-insensitive.

// ParseCards parses a string of card letters such as "SSSB".
func ParseCards(s string) ([]Card, error) {
	out := make([]Card, 0, len(s))
	for i := 0; i < len(s); i++ {
		c, ok := parseCard(s[i])
		if !ok {
			return nil, errors.New("sausages: bad cards " + strconv.Quote(s))
		}
		out = append(out, c)
	}
	return out, nil
}

func parseCard(b byte) (Card, bool) {
	switch b {
	case 'S', 's':
		return Sausage, true
	case 'B', 'b':
		return Boot, true
	}
	return NoCard, false
}

// FormatCards renders cards as letters, e.g. "SSB".
func FormatCards(cards []Card) string {
	var sb strings.Builder
	for _, c := range cards {
		sb.WriteString(c.String())
	}
	return sb.String()
}

// FormatHand renders a hand as letters, sausages first: "SSB".
func FormatHand(h Hand) string {
	return strings.Repeat("S", max(h.Sausages, 0)) + strings.Repeat("B", max(h.Boots, 0))
}

// ParseMove parses a move in Move.String notation.
func ParseMove(s string) (Move, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	fail := errors.New("sausages: bad move " + strconv.Quote(s))
	if s == "pass" {
		return Move{Kind: KindPass}, nil
	}
	kind, arg, ok := strings.Cut(s, ":")
	if !ok || arg == "" {
		return Move{}, fail
	}
	switch kind {
	case "place", "lose":
		c, ok := parseCard(arg[0])
		if len(arg) != 1 || !ok {
			return Move{}, fail
		}
		k := KindPlace
		if kind == "lose" {
			k = KindLose
		}
		return Move{Kind: k, Card: c}, nil
	}
	v, err := strconv.Atoi(arg)
	if err != nil || arg[0] == '+' || arg[0] == '-' || len(arg) > 2 {
		return Move{}, fail
	}
	var m Move
	switch kind {
	case "bid":
		m = Move{Kind: KindBid, N: v}
	case "reveal":
		m = Move{Kind: KindReveal, Seat: game.Seat(v)}
	case "name":
		m = Move{Kind: KindName, Seat: game.Seat(v)}
	case "pick":
		m = Move{Kind: KindPick, Index: v}
	default:
		return Move{}, fail
	}
	if m.Action() < 0 {
		return Move{}, fail
	}
	return m, nil
}
