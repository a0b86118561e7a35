package chekharda

import (
	"encoding/binary"
	"errors"

	"github.com/trickchef/trickchef/game/internal/wire"
)

// codecVersion is the first byte of every encoding; bump it when the layout
// changes.
const codecVersion = 1

// ErrCorrupt is returned for an encoding this package could not have
// produced (truncated, trailing or non-canonical bytes, values out of
// range).
const ErrCorrupt wire.Error = "chekharda: corrupt state encoding"

// Layout (version 1), bytes unless noted, integers little-endian:
//
//	version  players | variant<<3 | phase<<4  target:u16  dealer0 dealer
//	seed:u64 rng:u64 round:u16 lastOut winners
//	per seat (players ×): total:u16 lastSets lastHand, then 6 bytes: one
//	    nibble per kind 1..12 (low nibble first) = hand | set<<1
//	deckN, then deckN kinds as nibbles (low first, bottom card first,
//	    a zero nibble pads an odd count)
//	seq:u32 nLog, per event: type<<4|kind  seat<<4|victim (15 = none)
//	    n<<4|size  round − event round
//
// A 4-player state mid-round is about 150 bytes, most of it the log.

// MarshalBinary encodes the state compactly.
func (st *State) MarshalBinary() ([]byte, error) {
	return st.AppendBinary(make([]byte, 0, 192))
}

// AppendBinary appends the encoding of the state to b.
func (st *State) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, codecVersion, st.players|boolByte(st.variant)<<3|byte(st.phase)<<4)
	b = binary.LittleEndian.AppendUint16(b, st.target)
	b = append(b, st.dealer0, st.dealer)
	b = binary.LittleEndian.AppendUint64(b, st.seed)
	b = binary.LittleEndian.AppendUint64(b, uint64(st.rng))
	b = binary.LittleEndian.AppendUint16(b, st.round)
	b = append(b, st.lastOut, st.winners)
	for i := 0; i < int(st.players) && i < MaxPlayers; i++ {
		p := &st.seats[i]
		b = binary.LittleEndian.AppendUint16(b, p.total)
		b = append(b, p.lastSets, p.lastHand)
		for k := 1; k < kindSlots; k += 2 {
			b = append(b, (p.hand[k]&1|p.set[k]<<1)&0xF|(p.hand[k+1]&1|p.set[k+1]<<1)<<4)
		}
	}
	n := min(int(st.deckN), NumCards)
	b = append(b, byte(n))
	for i := 0; i < n; i += 2 {
		x := byte(st.deck[i]) & 0xF
		if i+1 < n {
			x |= byte(st.deck[i+1]) << 4
		}
		b = append(b, x)
	}
	b = binary.LittleEndian.AppendUint32(b, st.seq)
	b = append(b, st.nLog)
	for i := 0; i < int(st.nLog) && i < LogSize; i++ {
		e := &st.log[i]
		b = append(b, byte(e.typ)<<4|byte(e.kind)&0xF, nib(e.seat)<<4|nib(e.victim), e.n<<4|e.size&0xF,
			byte(st.round-e.round))
	}
	return b, nil
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// nib packs a seat into a nibble (15 for none).
func nib(s uint8) byte {
	if s == noSeat {
		return 0xF
	}
	return s & 0xF
}

func unnib(x byte) uint8 {
	if x == 0xF {
		return noSeat
	}
	return x
}

// reader adds little-endian u16/u32 to wire.Reader.
type reader struct{ wire.Reader }

func (r *reader) u16() uint16 { return uint16(r.Byte()) | uint16(r.Byte())<<8 }
func (r *reader) u32() uint32 { return uint32(r.u16()) | uint32(r.u16())<<16 }

// Unmarshal decodes and validates a state.
func Unmarshal(data []byte) (*State, error) {
	st := new(State)
	if err := st.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return st, nil
}

// UnmarshalBinary decodes data into st after checking that it is a state
// the engine could be in (every card accounted for, no pair in a hand,
// sets of two or more, phase, scores, winners and log in agreement;
// canonical encoding). On error st is unchanged. It never panics,
// whatever the bytes.
func (st *State) UnmarshalBinary(data []byte) error {
	r := reader{wire.Reader{B: data}}
	if r.Byte() != codecVersion {
		return errors.New("chekharda: unknown state encoding version")
	}
	var x State
	h := r.Byte()
	x.players, x.variant, x.phase = h&7, h>>3&1 == 1, Phase(h>>4)
	x.target = r.u16()
	x.dealer0, x.dealer = r.Byte(), r.Byte()
	x.seed = r.U64()
	x.rng = rng(r.U64())
	x.round = r.u16()
	x.lastOut, x.winners = r.Byte(), r.Byte()
	if x.players > MaxPlayers {
		return ErrCorrupt
	}
	for i := 0; i < int(x.players); i++ {
		p := &x.seats[i]
		p.total = r.u16()
		p.lastSets, p.lastHand = r.Byte(), r.Byte()
		for k := 1; k < kindSlots; k += 2 {
			c := r.Byte()
			p.hand[k], p.set[k] = c&1, c>>1&7
			p.hand[k+1], p.set[k+1] = c>>4&1, c>>5
		}
	}
	x.deckN = r.Byte()
	if x.deckN > NumCards {
		return ErrCorrupt
	}
	for i := 0; i < int(x.deckN); i += 2 {
		c := r.Byte()
		x.deck[i] = Kind(c & 0xF)
		if i+1 < int(x.deckN) {
			x.deck[i+1] = Kind(c >> 4)
		}
	}
	x.seq = r.u32()
	x.nLog = r.Byte()
	if x.nLog > LogSize {
		return ErrCorrupt
	}
	for i := 0; i < int(x.nLog); i++ {
		b0, b1, b2, b3 := r.Byte(), r.Byte(), r.Byte(), r.Byte()
		x.log[i] = event{typ: EventType(b0 >> 4), kind: Kind(b0 & 0xF), seat: unnib(b1 >> 4), victim: unnib(b1 & 0xF),
			n: b2 >> 4, size: b2 & 0xF, round: x.round - uint16(b3)}
		if uint16(b3) > x.round {
			return ErrCorrupt
		}
	}
	if r.Bad || len(r.B) != 0 {
		return ErrCorrupt
	}
	if err := x.validate(); err != nil {
		return err
	}
	// Reject anything that would not re-encode to the same bytes (padding
	// nibbles, flag bits).
	again, _ := x.MarshalBinary()
	if string(again) != string(data) {
		return ErrCorrupt
	}
	*st = x
	return nil
}

// validate checks that x is a state the engine could be in, closely enough
// that Apply and the views can trust it: every card accounted for, every
// seat in ToAct has a legal action, and every legal action leads to
// another valid state.
func (x *State) validate() error {
	bad := func(what string) error { return errors.New("chekharda: invalid state: " + what) }
	n := int(x.players)
	if n < MinPlayers || n > MaxPlayers {
		return bad("players")
	}
	if x.target < 1 || x.target > MaxTarget || x.phase > PhaseOver || x.round == 0 {
		return bad("header")
	}
	if int(x.dealer0) >= n || int(x.dealer) != (int(x.dealer0)+int(x.round)-1)%n {
		return bad("dealer")
	}
	// Cards: each kind's six copies are in hands, sets and the deck.
	var count [kindSlots]int
	for i := 0; i < MaxPlayers; i++ {
		p := &x.seats[i]
		if i >= n {
			if *p != (seat{}) {
				return bad("unused seat")
			}
			continue
		}
		if p.hand[0] != 0 || p.set[0] != 0 {
			return bad("kind 0")
		}
		for k := 1; k < kindSlots; k++ {
			if p.hand[k] > 1 || p.set[k] == 1 || p.set[k] > CopiesPerKind {
				return bad("hand or set")
			}
			count[k] += int(p.hand[k]) + int(p.set[k])
		}
	}
	for i := 0; i < NumCards; i++ {
		k := x.deck[i]
		if i >= int(x.deckN) {
			if k != NoKind {
				return bad("deck")
			}
			continue
		}
		if !k.Valid() {
			return bad("deck card")
		}
		count[k]++
	}
	for k := 1; k < kindSlots; k++ {
		if count[k] != CopiesPerKind {
			return bad("cards not accounted for")
		}
	}
	if err := x.validateScores(); err != nil {
		return err
	}
	return x.validateLog()
}

// validateScores checks the phase against the table, the last round's
// breakdown and the totals.
func (x *State) validateScores() error {
	bad := func(what string) error { return errors.New("chekharda: invalid state: " + what) }
	n := int(x.players)
	finished := x.phase != PhasePlay || x.round > 1
	if x.lastOut != noSeat && (int(x.lastOut) >= n || !finished) {
		return bad("last out")
	}
	best := uint16(0)
	for i := 0; i < n; i++ {
		p := &x.seats[i]
		best = max(best, p.total)
		score := roundScore(int(p.lastSets), int(p.lastHand), i == int(x.lastOut))
		switch {
		case !finished && (p.total != 0 || p.lastSets != 0 || p.lastHand != 0):
			return bad("score before a round ended")
		case finished && int(p.total) < score,
			x.round == 1 && x.phase != PhasePlay && int(p.total) != score,
			int(p.lastSets)+int(p.lastHand) > NumCards:
			return bad("totals")
		}
		if x.phase != PhasePlay && (int(p.lastSets) != p.setCards() || int(p.lastHand) != p.handCards()) {
			return bad("breakdown")
		}
		if x.phase == PhasePlay && p.handCards() == 0 {
			return bad("empty hand in play")
		}
	}
	if x.winners>>n != 0 {
		return bad("winners")
	}
	switch x.phase {
	case PhasePlay:
		if x.winners != 0 || best >= x.target || x.deckN == 0 && !x.anyCanAct() {
			return bad("play")
		}
	case PhaseRoundEnd, PhaseOver:
		if x.lastOut == noSeat {
			if x.deckN != 0 || x.anyCanAct() {
				return bad("deadlock")
			}
		} else if x.seats[x.lastOut].handCards() != 0 {
			return bad("out")
		}
		if x.phase == PhaseRoundEnd {
			if x.winners != 0 || best >= x.target {
				return bad("round end")
			}
			break
		}
		var w uint8
		for i := 0; i < n; i++ {
			if x.seats[i].total == best {
				w |= 1 << i
			}
		}
		if best < x.target || w != x.winners {
			return bad("winners")
		}
	}
	return nil
}

// validateLog checks the event log entry by entry.
func (x *State) validateLog() error {
	const bad wire.Error = "chekharda: invalid state: log"
	n := uint8(x.players)
	if x.nLog > LogSize || uint32(x.nLog) > x.seq || x.nLog == 0 {
		return bad
	}
	for i := int(x.nLog); i < LogSize; i++ {
		if x.log[i] != (event{}) {
			return bad
		}
	}
	prev := uint16(0)
	for i := 0; i < int(x.nLog); i++ {
		e := &x.log[i]
		if e.round < prev || e.round == 0 || e.round > x.round {
			return bad
		}
		prev = e.round
		seatOK, victimNone := e.seat < n, e.victim == noSeat
		kindOK, noKind := e.kind.Valid(), e.kind == NoKind
		var ok bool
		switch e.typ {
		case EventRound:
			ok = seatOK && victimNone && noKind && e.n == HandSize && e.size == 0
		case EventDeal:
			ok = seatOK && victimNone && noKind && e.n >= 1 && e.n <= n && e.size == 0
		case EventDraw:
			ok = seatOK && victimNone && noKind && e.n == 1 && e.size == 0
		case EventLay:
			ok = seatOK && victimNone && kindOK && e.n >= 2 && e.size >= e.n && e.size <= CopiesPerKind
		case EventSteal:
			ok = seatOK && e.victim < n && e.victim != e.seat && kindOK && e.n >= 2 && e.size >= e.n+1 &&
				e.size <= CopiesPerKind
		case EventAdd:
			ok = seatOK && victimNone && kindOK && e.n == 1 && e.size >= 3 && e.size <= CopiesPerKind
		case EventOut:
			ok = seatOK && victimNone && noKind && e.n == 0 && e.size == 0
		case EventDeadlock:
			ok = e.seat == noSeat && victimNone && noKind && e.n == 0 && e.size == 0
		}
		if !ok {
			return bad
		}
	}
	// The newest event belongs to the current state: a round in play began
	// with EventRound; a finished one ended with EventOut/EventDeadlock.
	last := &x.log[x.nLog-1]
	switch x.phase {
	case PhasePlay:
		if last.round != x.round || last.typ == EventOut || last.typ == EventDeadlock {
			return bad
		}
	default:
		want := EventOut
		if x.lastOut == noSeat {
			want = EventDeadlock
		}
		if last.round != x.round || last.typ != want || last.seat != x.lastOut {
			return bad
		}
	}
	return nil
}
