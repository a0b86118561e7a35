package chekharda

import "github.com/trickchef/trickchef/game"

// rehide returns a copy of st in which everything seat s cannot see is
// redrawn from seed: the other seats' hands (game.System: every hand) and
// the order of the deck, and the generator that will shuffle the next
// round. What s can see stays: its own hand, every set, every hand size,
// the deck size, the log. The redraw also keeps what the table reveals
// through the platform's behaviour: no hand holds a pair, and every seat
// that could (or could not) act still can (cannot), so Stuck and ToAct do
// not change either. st itself is not changed.
//
// It shuffles by random swaps of hidden cards between the hidden hands and
// the deck, each kept only if the constraints still hold (a symmetric
// walk, so it samples the consistent deals uniformly enough for tests).
func rehide(st *State, s game.Seat, seed uint64) *State {
	c := st.Clone()
	r := rng(seed)
	n := c.Seats()
	table := c.tableMask()
	type item struct {
		owner int // seat, or -1 for the deck
		kind  Kind
	}
	var items []item
	var masks [MaxPlayers]uint16
	var acts [MaxPlayers]bool
	for i := 0; i < n; i++ {
		if game.Seat(i) == s {
			continue
		}
		masks[i] = c.seats[i].handMask()
		acts[i] = masks[i]&table != 0
		for k := Kind(1); k < kindSlots; k++ {
			if c.seats[i].hand[k] != 0 {
				items = append(items, item{i, k})
			}
		}
	}
	for i := 0; i < int(c.deckN); i++ {
		items = append(items, item{-1, c.deck[i]})
	}
	if len(items) < 2 {
		c.rng = rng(seed ^ 0x9e3779b97f4a7c15)
		return c
	}
	// ok reports whether owner o may hold mask m.
	ok := func(o int, m uint16) bool { return o < 0 || m&table != 0 == acts[o] }
	for step := 0; step < 12*len(items); step++ {
		i, j := r.Below(len(items)), r.Below(len(items))
		a, b := items[i], items[j]
		if a.owner == b.owner || a.kind == b.kind {
			continue
		}
		// a's card goes to b's owner and b's to a's.
		ma, mb := masks[max(a.owner, 0)], masks[max(b.owner, 0)]
		if a.owner >= 0 {
			if ma&(1<<b.kind) != 0 {
				continue
			}
			ma = ma&^(1<<a.kind) | 1<<b.kind
		}
		if b.owner >= 0 {
			if mb&(1<<a.kind) != 0 {
				continue
			}
			mb = mb&^(1<<b.kind) | 1<<a.kind
		}
		if !ok(a.owner, ma) || !ok(b.owner, mb) {
			continue
		}
		if a.owner >= 0 {
			masks[a.owner] = ma
		}
		if b.owner >= 0 {
			masks[b.owner] = mb
		}
		items[i].kind, items[j].kind = b.kind, a.kind
	}
	var deck []Kind
	for i := 0; i < n; i++ {
		if game.Seat(i) != s {
			c.seats[i].hand = [kindSlots]uint8{}
		}
	}
	for _, it := range items {
		if it.owner < 0 {
			deck = append(deck, it.kind)
		} else {
			c.seats[it.owner].hand[it.kind] = 1
		}
	}
	for i := len(deck) - 1; i > 0; i-- {
		j := r.Below(i + 1)
		deck[i], deck[j] = deck[j], deck[i]
	}
	copy(c.deck[:], deck)
	c.rng = rng(r.Next())
	return c
}
