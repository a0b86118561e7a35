package chef

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Notation. A card is one letter (see Card.String): o r p g b n for the
// orange, red, purple, green, blue and brown dishes (lower case), and H
// (Hangover), D (Diet), E (EmptyPlate), M (BlankMenu), C (ChefCard), A
// (Addition) in upper case. A set of cards is a string of letters,
// "orpgbnH"; "-" is none. Moves are written as Move.String renders them:
//
//	draw  take  end  announce  redraw  discard:r
//	play:E  play:M  play:D:r  play:C:g  play:H:rb
//
// A deal (ParseDeal) describes a position at the start of a turn, for
// tests and examples.

// ParseCards parses a string of card letters such as "oorH"; "-" or ""
// is no card.
func ParseCards(s string) ([]Card, error) {
	if s == "-" {
		return nil, nil
	}
	out := make([]Card, 0, len(s))
	for i := 0; i < len(s); i++ {
		c, ok := parseCard(s[i])
		if !ok {
			return nil, errors.New("chef: bad cards " + strconv.Quote(s))
		}
		out = append(out, c)
	}
	return out, nil
}

// FormatCards renders cards as letters in the given order ("-" if none).
func FormatCards(cards []Card) string {
	if len(cards) == 0 {
		return "-"
	}
	var sb strings.Builder
	for _, c := range cards {
		sb.WriteString(c.String())
	}
	return sb.String()
}

// FormatCounts renders counts by kind (as in SeatPublic.Cards) as letters
// in kind order, dishes first: "oorH"; "-" if none.
func FormatCounts(n [NumKinds]int) string {
	var sb strings.Builder
	for c := Starter; c <= Addition; c++ {
		for k := 0; k < n[c]; k++ {
			sb.WriteString(c.String())
		}
	}
	if sb.Len() == 0 {
		return "-"
	}
	return sb.String()
}

// ParseMove parses a move in Move.String notation (the keywords in any
// case; card letters as written, since case tells dishes from actions).
func ParseMove(s string) (Move, error) {
	s = strings.TrimSpace(s)
	fail := errors.New("chef: bad move " + strconv.Quote(s))
	parts := strings.Split(s, ":")
	var m Move
	switch kw := strings.ToLower(parts[0]); kw {
	case "draw", "take", "end", "announce", "redraw":
		if len(parts) != 1 {
			return Move{}, fail
		}
		m.Kind = map[string]Kind{"draw": KindDraw, "take": KindTake, "end": KindEnd, "announce": KindAnnounce, "redraw": KindRedraw}[kw]
	case "discard":
		if len(parts) != 2 || len(parts[1]) != 1 {
			return Move{}, fail
		}
		m.Kind = KindDiscard
		m.Dish, _ = parseCard(parts[1][0])
	case "play":
		if len(parts) < 2 || len(parts) > 3 || len(parts[1]) != 1 {
			return Move{}, fail
		}
		m.Kind = KindPlay
		m.Card, _ = parseCard(parts[1][0])
		if len(parts) == 3 {
			d := parts[2]
			if len(d) < 1 || len(d) > 2 {
				return Move{}, fail
			}
			m.Dish, _ = parseCard(d[0])
			if len(d) == 2 {
				m.Dish2, _ = parseCard(d[1])
			}
		}
	default:
		return Move{}, fail
	}
	if m.Action() < 0 {
		return Move{}, fail
	}
	return m, nil
}

// ParseDeal builds a position at the start of a turn from a deal string,
// for tests and examples. Fields, separated by spaces, in any order:
//
//	0:orpgbn 1:ooH 2:-   the cards in front of each seat, from 0, all seats
//	discard:rgA          the discard pile, bottom to top (required)
//	pile:Ao              the next cards of the pile, top first; the rest of
//	                     the box is shuffled (by the seed) beneath them
//	rest:discard         put the rest of the box under the discard pile
//	                     instead, so the pile is exactly what pile: says
//	turn:1               the seat to act (default 0; it is also Config.First)
//	ccw                  play goes counter-clockwise
//	auto                 Config.AutoAnnounce
//	announced:0,2        seats that have announced (their menus must be complete)
//	rebuilds:2           times the pile was rebuilt already
//	removed:rr           dishes out of the game (two players only)
//	seed:7               the seed (default 1)
//
// The position must be valid (every card of the box accounted for once,
// the pile not empty); Apply and the views then work as in a real game.
func ParseDeal(deal string) (*State, error) {
	fail := func(why string) (*State, error) { return nil, errors.New("chef: deal: " + why) }
	var hands [][]Card
	var disc, pile, removed []Card
	var announced []int
	turn, seed, rebuilds := 0, uint64(1), 0
	auto, ccw, restDiscard := false, false, false
	for _, f := range strings.Fields(deal) {
		k, v, _ := strings.Cut(f, ":")
		var err error
		switch {
		case k == "ccw" && v == "":
			ccw = true
		case k == "auto" && v == "":
			auto = true
		case k == "rest":
			if v != "discard" && v != "pile" {
				return fail("rest must be discard or pile")
			}
			restDiscard = v == "discard"
		case k == "discard":
			disc, err = ParseCards(v)
		case k == "pile":
			pile, err = ParseCards(v)
		case k == "removed":
			removed, err = ParseCards(v)
		case k == "turn":
			turn, err = strconv.Atoi(v)
		case k == "rebuilds":
			rebuilds, err = strconv.Atoi(v)
		case k == "seed":
			seed, err = strconv.ParseUint(v, 10, 64)
		case k == "announced":
			for _, p := range strings.Split(v, ",") {
				i, e := strconv.Atoi(p)
				if e != nil {
					err = e
				}
				announced = append(announced, i)
			}
		default:
			i, e := strconv.Atoi(k)
			if e != nil || i != len(hands) {
				return fail("unknown or out-of-order field " + strconv.Quote(f))
			}
			var h []Card
			h, err = ParseCards(v)
			hands = append(hands, h)
		}
		if err != nil {
			return fail(f + ": " + err.Error())
		}
	}
	n := len(hands)
	if n < MinPlayers || n > MaxPlayers || turn < 0 || turn >= n || rebuilds < 0 || rebuilds > MaxRebuilds || len(disc) == 0 {
		return fail("players, turn, rebuilds or discard out of range")
	}
	st := &State{
		players: uint8(n), first: uint8(turn), auto: auto, seed: seed, rng: rng(seed),
		turn: uint8(turn), ccw: ccw, turnNo: 1, rebuilds: uint8(rebuilds),
	}
	var left [NumKinds]int
	for c := Starter; c <= Addition; c++ {
		left[c] = BoxCount(c)
	}
	take := func(cs []Card) bool {
		for _, c := range cs {
			if left[c]--; left[c] < 0 {
				return false
			}
		}
		return true
	}
	for i, h := range hands {
		if !take(h) {
			return fail("more cards than the box holds")
		}
		for _, c := range h {
			st.seats[i].n[c]++
		}
	}
	for _, i := range announced {
		if i < 0 || i >= n {
			return fail("announced seat out of range")
		}
		st.seats[i].flags |= flagAnnounced
	}
	for _, c := range removed {
		st.removed[c]++
	}
	if !take(disc) || !take(pile) || !take(removed) {
		return fail("more cards than the box holds")
	}
	var rest []Card
	for c := Starter; c <= Addition; c++ {
		for k := 0; k < left[c]; k++ {
			rest = append(rest, c)
		}
	}
	st.shuffle(rest)
	if restDiscard {
		disc = append(rest, disc...)
		rest = nil
	}
	top := slices.Clone(pile)
	slices.Reverse(top)
	for _, c := range append(rest, top...) {
		st.pile[st.npile] = c
		st.npile++
	}
	for _, c := range disc {
		st.pushDisc(c)
	}
	if auto {
		st.autoAnnounce()
		st.nev, st.ev = 0, [MaxEvents]event{}
	}
	if err := st.validate(); err != nil {
		return nil, err
	}
	return st, nil
}
