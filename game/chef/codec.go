package chef

import (
	"encoding/binary"
	"errors"

	"github.com/trickchef/trickchef/game/internal/wire"
)

// codecVersion is the first byte of every encoding; bump it when the layout
// changes.
const codecVersion = 1

// ErrCorrupt is returned for an encoding this package could not have
// produced (truncated, trailing or non-canonical bytes, impossible values).
const ErrCorrupt wire.Error = "chef: corrupt state encoding"

// Layout (version 1), all bytes unless noted; cards are 4-bit nibbles
// (low nibble first):
//
//	version players first flags(auto | ccw<<1 | closed<<2)
//	seed:u64le rng:u64le step turn drawn rebuilds winners turnNo:u32le
//	npile ndisc, then the pile bottom to top and the discard pile bottom
//	to top as (npile+ndisc) nibbles, padded to a whole byte with 0
//	removed: the six dish counts, 3 bytes of nibbles
//	per seat: its 12 card counts Starter..Addition, 6 bytes of nibbles,
//	          then its flags byte
//	nev:u32le, then the last min(nev, MaxEvents) events, oldest first,
//	5 bytes each: kind seat target card d1|d2<<4
//
// A 6-player state mid-game is about 130 bytes.

// MarshalBinary encodes the state compactly.
func (st *State) MarshalBinary() ([]byte, error) {
	return st.AppendBinary(make([]byte, 0, 256))
}

// AppendBinary appends the encoding of the state to b.
func (st *State) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, codecVersion, st.players, st.first, boolByte(st.auto)|boolByte(st.ccw)<<1|boolByte(st.closed)<<2)
	b = binary.LittleEndian.AppendUint64(b, st.seed)
	b = binary.LittleEndian.AppendUint64(b, uint64(st.rng))
	b = append(b, byte(st.step), st.turn, byte(st.drawn), st.rebuilds, st.winners)
	b = binary.LittleEndian.AppendUint32(b, st.turnNo)
	np, nd := min(int(st.npile), DeckSize), min(int(st.ndisc), DeckSize)
	b = append(b, byte(np), byte(nd))
	var half byte
	odd := false
	put := func(c Card) {
		if odd {
			b = append(b, half|byte(c)<<4)
		} else {
			half = byte(c) & 15
		}
		odd = !odd
	}
	for _, c := range st.pile[:np] {
		put(c)
	}
	for _, c := range st.disc[:nd] {
		put(c)
	}
	if odd {
		put(NoCard)
	}
	for c := Starter; c <= Drink; c += 2 {
		b = append(b, st.removed[c]&15|st.removed[c+1]<<4)
	}
	for i := 0; i < int(st.players) && i < MaxPlayers; i++ {
		s := &st.seats[i]
		for c := Starter; c <= Addition; c += 2 {
			b = append(b, s.n[c]&15|s.n[c+1]<<4)
		}
		b = append(b, s.flags)
	}
	b = binary.LittleEndian.AppendUint32(b, st.nev)
	k := min(st.nev, MaxEvents)
	for i := st.nev - k; i < st.nev; i++ {
		e := &st.ev[i%MaxEvents]
		b = append(b, byte(e.kind), e.seat, e.target, byte(e.card), byte(e.d1)&15|byte(e.d2)<<4)
	}
	return b, nil
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// Unmarshal decodes and validates a state.
func Unmarshal(data []byte) (*State, error) {
	st := new(State)
	if err := st.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return st, nil
}

// UnmarshalBinary decodes data into st after checking that it is a
// consistent state (card accounting against the box, step, turn, flags,
// winners, events; canonical encoding). On error st is unchanged. It never
// panics, whatever the bytes.
func (st *State) UnmarshalBinary(data []byte) error {
	r := wire.Reader{B: data}
	var x State
	if r.Byte() != codecVersion {
		return errors.New("chef: unknown state encoding version")
	}
	x.players, x.first = r.Byte(), r.Byte()
	flags := r.Byte()
	x.auto, x.ccw, x.closed = flags&1 != 0, flags&2 != 0, flags&4 != 0
	if x.players > MaxPlayers || flags > 7 {
		return ErrCorrupt
	}
	x.seed = r.U64()
	x.rng = rng(r.U64())
	x.step, x.turn, x.drawn, x.rebuilds, x.winners = Step(r.Byte()), r.Byte(), Card(r.Byte()), r.Byte(), r.Byte()
	x.turnNo = u32(&r)
	x.npile, x.ndisc = r.Byte(), r.Byte()
	if int(x.npile)+int(x.ndisc) > DeckSize {
		return ErrCorrupt
	}
	nc := int(x.npile) + int(x.ndisc)
	var cards [DeckSize + 1]Card
	for i := 0; i < nc; i += 2 {
		v := r.Byte()
		cards[i], cards[i+1] = Card(v&15), Card(v>>4)
	}
	if nc%2 == 1 && cards[nc] != NoCard {
		return ErrCorrupt
	}
	copy(x.pile[:x.npile], cards[:x.npile])
	copy(x.disc[:x.ndisc], cards[x.npile:nc])
	for c := Starter; c <= Drink; c += 2 {
		v := r.Byte()
		x.removed[c], x.removed[c+1] = v&15, v>>4
	}
	for i := 0; i < int(x.players); i++ {
		s := &x.seats[i]
		for c := Starter; c <= Addition; c += 2 {
			v := r.Byte()
			s.n[c], s.n[c+1] = v&15, v>>4
		}
		s.flags = r.Byte()
	}
	x.nev = u32(&r)
	k := min(x.nev, MaxEvents)
	for i := x.nev - k; i < x.nev; i++ {
		e := &x.ev[i%MaxEvents]
		e.kind, e.seat, e.target, e.card = EventKind(r.Byte()), r.Byte(), r.Byte(), Card(r.Byte())
		v := r.Byte()
		e.d1, e.d2 = Card(v&15), Card(v>>4)
	}
	if r.Bad || len(r.B) != 0 {
		return ErrCorrupt
	}
	if err := x.validate(); err != nil {
		return err
	}
	// Reject anything that would not re-encode to the same bytes.
	again, _ := x.MarshalBinary()
	if string(again) != string(data) {
		return ErrCorrupt
	}
	*st = x
	return nil
}

func u32(r *wire.Reader) uint32 {
	var b [4]byte
	r.Bytes(b[:])
	return binary.LittleEndian.Uint32(b[:])
}

// validate checks that x is a state the engine could have reached, closely
// enough that Apply and the views can trust it: the seat to act always has
// a legal action and every legal action leads to another valid state.
func (x *State) validate() error {
	bad := func(what string) error { return errors.New("chef: invalid state: " + what) }
	n := int(x.players)
	if n < MinPlayers || n > MaxPlayers || int(x.first) >= n || int(x.turn) >= n {
		return bad("players")
	}
	if x.step > StepOver || x.rebuilds > MaxRebuilds || x.turnNo == 0 {
		return bad("header")
	}
	// Card accounting: every card of the box is somewhere, once.
	var count [NumKinds]int
	for i := 0; i < DeckSize; i++ {
		pc, dc := x.pile[i], x.disc[i]
		if (i < int(x.npile)) != (pc != NoCard) || (i < int(x.ndisc)) != (dc != NoCard) || pc > Addition || dc > Addition {
			return bad("piles")
		}
		count[pc]++
		count[dc]++
	}
	for c := Starter; c <= Addition; c++ {
		if x.removed[c] != 0 && (!c.IsDish() || n != 2) {
			return bad("removed")
		}
		count[c] += int(x.removed[c])
	}
	if x.removed[NoCard] != 0 {
		return bad("removed")
	}
	billWinner := -1
	for i := 0; i < MaxPlayers; i++ {
		s := &x.seats[i]
		if i >= n {
			if *s != (seat{}) {
				return bad("unused seat")
			}
			continue
		}
		if s.n[NoCard] != 0 || s.flags&^(flagAnnounced|flagSkipped) != 0 {
			return bad("seat")
		}
		for c := Starter; c <= Addition; c++ {
			count[c] += int(s.n[c])
		}
		switch {
		case s.n[Addition] > 1 || s.n[Addition] == 1 && billWinner >= 0:
			return bad("additions in front")
		case s.n[Addition] == 1:
			billWinner = i
		}
	}
	for c := Starter; c <= Addition; c++ {
		if count[c] != BoxCount(c) {
			return bad("card count of " + c.Key())
		}
	}
	if x.winners>>n != 0 || (x.step == StepOver) != (x.winners != 0) {
		return bad("winners")
	}
	// Announcements lapse at every turn end; only the seat drawing may
	// hold one over an incomplete menu for a moment.
	for i := 0; i < n; i++ {
		s := &x.seats[i]
		if s.announced() && !s.complete() && !(x.step == StepDrawn && i == int(x.turn)) {
			return bad("announcement of an incomplete menu")
		}
		if x.auto && x.step != StepOver && s.complete() && !s.announced() {
			return bad("complete menu not announced automatically")
		}
	}
	switch x.step {
	case StepTurn, StepDrawn:
		if x.closed || billWinner >= 0 || x.seats[x.turn].flags&flagSkipped != 0 {
			return bad("turn")
		}
		if x.step == StepTurn && (x.npile == 0 || x.drawn != NoCard) {
			return bad("turn start")
		}
		if x.step == StepDrawn && (x.drawn == Addition || !x.drawn.Valid() || x.seats[x.turn].n[x.drawn] == 0) {
			return bad("drawn card")
		}
	case StepOver:
		if x.drawn != NoCard {
			return bad("over")
		}
		if x.closed {
			if billWinner >= 0 || x.npile != 0 || x.rebuilds != MaxRebuilds || x.winners != closingWinners(x.seats[:n]) {
				return bad("closing")
			}
		} else {
			w := &x.seats[x.turn]
			if billWinner != int(x.turn) || x.winners != 1<<x.turn || !w.announced() || !w.complete() {
				return bad("bill winner")
			}
		}
	}
	// The event log: kinds and seats in range; table events have no seat.
	k := min(x.nev, MaxEvents)
	for i := uint32(0); i < MaxEvents; i++ {
		e := &x.ev[i]
		if i >= k {
			if *e != (event{}) {
				return bad("unused event")
			}
			continue
		}
		table := e.kind == EventRebuild || e.kind == EventClosing
		switch {
		case e.kind < EventDraw || e.kind > EventClosing,
			table != (e.seat == noSeat), !table && int(e.seat) >= n,
			(e.kind == EventPlay) != (e.target != noSeat), e.kind == EventPlay && int(e.target) >= n,
			e.card > Addition, e.d1 > Drink, e.d2 > Drink:
			return bad("event")
		}
	}
	return nil
}
