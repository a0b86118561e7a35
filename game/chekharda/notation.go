package chekharda

import (
	"errors"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/game"
)

// Notation. A kind is its letter (Kind.String, case-insensitive):
//
//	C champion  T tea  M monkey  P pig  F fishman  H monster
//	B block  S solar  J jump  R robot  A alien  Z zone
//
// A table is seat specs separated by "|", seat 0 first, optionally
// followed by "; deck" and the top of the deck:
//
//	"CT / PP MMM | A / TT | SJ ; deck P C"
//
// A seat spec is the hand (letters; spaces ignored), then optionally "/"
// and the seat's sets as groups of one repeated letter. Every card not
// named is in the deck: those after "deck" on top, first named dealt
// first, the rest below them in Kind order. Moves are written as
// Move.String renders them: "steal:P@2", "add:P", "draw", "deal", "next".

// ParseKind parses one kind letter.
func ParseKind(b byte) (Kind, bool) {
	if b >= 'a' && b <= 'z' {
		b -= 'a' - 'A'
	}
	for k := Champion; k <= Zone; k++ {
		if kindTable[k].Letter == b {
			return k, true
		}
	}
	return NoKind, false
}

func parseKinds(s string) ([]Kind, error) {
	var out []Kind
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			continue
		}
		k, ok := ParseKind(s[i])
		if !ok {
			return nil, errors.New("chekharda: bad kind letters " + strconv.Quote(s))
		}
		out = append(out, k)
	}
	return out, nil
}

// NewFromDeal starts round 1 of a game from a table in notation (for tests
// and puzzles): hands, sets and the top of the deck as given. As after a
// real deal, pairs in a hand are laid at once and an empty hand ends the
// round.
func NewFromDeal(cfg Config, table string) (*State, error) {
	if err := cfg.normalize(); err != nil {
		return nil, err
	}
	st := newEmpty(cfg)
	st.round, st.dealer, st.phase = 1, uint8(cfg.Dealer), PhasePlay
	spec, top, hasDeck := strings.Cut(table, ";")
	seats := strings.Split(spec, "|")
	if len(seats) != cfg.Players {
		return nil, errors.New("chekharda: table has " + strconv.Itoa(len(seats)) + " seats")
	}
	var used [kindSlots]int
	for i, s := range seats {
		hand, sets, _ := strings.Cut(s, "/")
		cards, err := parseKinds(hand)
		if err != nil {
			return nil, err
		}
		p := &st.seats[i]
		for _, k := range cards {
			p.hand[k]++
			used[k]++
		}
		for _, g := range strings.Fields(sets) {
			ks, err := parseKinds(g)
			if err != nil {
				return nil, err
			}
			k := ks[0]
			for _, x := range ks {
				if x != k {
					return nil, errors.New("chekharda: mixed set " + strconv.Quote(g))
				}
			}
			if len(ks) < 2 || p.set[k] != 0 {
				return nil, errors.New("chekharda: bad set " + strconv.Quote(g))
			}
			p.set[k] = uint8(len(ks))
			used[k] += len(ks)
		}
	}
	var deck []Kind
	if hasDeck {
		f := strings.Fields(top)
		if len(f) == 0 || f[0] != "deck" {
			return nil, errors.New("chekharda: want \"; deck ...\"")
		}
		ks, err := parseKinds(strings.Join(f[1:], ""))
		if err != nil {
			return nil, err
		}
		deck = ks
		for _, k := range ks {
			used[k]++
		}
	}
	for k := Champion; k <= Zone; k++ {
		if used[k] > CopiesPerKind {
			return nil, errors.New("chekharda: more than 6 of " + k.String())
		}
		for c := used[k]; c < CopiesPerKind; c++ {
			deck = append(deck, k)
		}
	}
	// deck lists the cards top first; the array keeps the top last.
	st.deckN = uint8(len(deck))
	for i, k := range deck {
		st.deck[len(deck)-1-i] = k
	}
	st.logEvent(event{typ: EventRound, seat: st.dealer, victim: noSeat, n: HandSize})
	st.afterDeal()
	if err := st.validate(); err != nil {
		return nil, err
	}
	return st, nil
}

// Notation renders the whole table, hidden cards included, in the
// notation NewFromDeal reads (the full deck, top first). It is for tests
// and debugging: never show it to players.
func (st *State) Notation() string {
	var sb strings.Builder
	for i := 0; i < int(st.players); i++ {
		if i > 0 {
			sb.WriteString(" | ")
		}
		p := &st.seats[i]
		for k := Kind(1); k < kindSlots; k++ {
			sb.WriteString(strings.Repeat(k.String(), int(p.hand[k])))
		}
		sb.WriteString(" /")
		for k := Kind(1); k < kindSlots; k++ {
			if p.set[k] != 0 {
				sb.WriteString(" " + strings.Repeat(k.String(), int(p.set[k])))
			}
		}
	}
	sb.WriteString(" ; deck ")
	for i := int(st.deckN) - 1; i >= 0; i-- {
		sb.WriteString(st.deck[i].String())
	}
	return sb.String()
}

// ParseMove parses a move in Move.String notation.
func ParseMove(s string) (Move, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	fail := errors.New("chekharda: bad move " + strconv.Quote(s))
	switch s {
	case "draw":
		return Move{Type: MoveDraw}, nil
	case "deal":
		return Move{Type: MoveDeal}, nil
	case "next":
		return Move{Type: MoveNextRound}, nil
	}
	typ, arg, ok := strings.Cut(s, ":")
	if !ok || arg == "" {
		return Move{}, fail
	}
	k, ok := ParseKind(arg[0])
	if !ok {
		return Move{}, fail
	}
	switch {
	case typ == "add" && len(arg) == 1:
		return Move{Type: MoveAdd, Kind: k}, nil
	case typ == "steal" && len(arg) == 3 && arg[1] == '@' && arg[2] >= '0' && arg[2] < '0'+MaxPlayers:
		return Move{Type: MoveSteal, Kind: k, Victim: game.Seat(arg[2] - '0')}, nil
	}
	return Move{}, fail
}
