package sausages

import (
	"encoding/binary"
	"errors"

	"github.com/trickchef/trickchef/game/internal/wire"
)

// codecVersion is the first byte of every encoding; bump it when the layout
// changes.
const codecVersion = 1

// ErrCorrupt is returned for an encoding this package could not have
// produced (truncated, trailing or non-canonical bytes).
const ErrCorrupt wire.Error = "sausages: corrupt state encoding"

// Layout (version 1), all bytes unless noted:
//
//	version players first seed:u64le rng:u64le round phase turn roundFirst
//	bid bidder winner fan
//	per seat (players × 2): hs | hb<<2 | (side-1)<<3 | passed<<4 | rev<<5,  n | boot<<3
//	nRev rev[nRev]  nBids bids[nBids]
//	last: flags (valid | success<<1 | out<<2), and if valid:
//	      round challenger n bootOwner lost nRev rev[nRev]
//
// A 6-player state mid-attempt is about 70 bytes.

// MarshalBinary encodes the state compactly.
func (st *State) MarshalBinary() ([]byte, error) {
	return st.AppendBinary(make([]byte, 0, 96))
}

// AppendBinary appends the encoding of the state to b.
func (st *State) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, codecVersion, st.players, st.first)
	b = binary.LittleEndian.AppendUint64(b, st.seed)
	b = binary.LittleEndian.AppendUint64(b, uint64(st.rng))
	b = append(b, st.round, byte(st.phase), st.turn, st.roundFirst, st.bid, st.bidder, st.winner, st.fan)
	for i := 0; i < int(st.players) && i < MaxPlayers; i++ {
		s := &st.seats[i]
		b = append(b, s.hs|s.hb<<2|(s.side-1)<<3|boolByte(s.passed)<<4|s.rev<<5, s.n|s.boot<<3)
	}
	b = append(b, st.nRev)
	b = append(b, st.rev[:min(int(st.nRev), MaxCards)]...)
	b = append(b, st.nBids)
	b = append(b, st.bids[:min(int(st.nBids), maxBids)]...)
	l := &st.last
	b = append(b, boolByte(l.valid)|boolByte(l.success)<<1|boolByte(l.out)<<2)
	if l.valid {
		b = append(b, l.round, l.challenger, l.n, l.bootOwner, byte(l.lost), l.nRev)
		b = append(b, l.rev[:min(int(l.nRev), MaxCards)]...)
	}
	return b, nil
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// reader decodes this engine's fields on top of wire.Reader.
type reader struct{ wire.Reader }

// log reads a count and that many bytes into dst; a count above len(dst)
// is corrupt.
func (r *reader) log(dst []uint8) uint8 {
	k := r.Byte()
	if int(k) > len(dst) {
		r.Bad = true
		return 0
	}
	for i := 0; i < int(k); i++ {
		dst[i] = r.Byte()
	}
	return k
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
// consistent state (cards per seat, seats, phase, logs and counters in
// range and in agreement; canonical encoding). On error st is unchanged.
// It never panics, whatever the bytes.
func (st *State) UnmarshalBinary(data []byte) error {
	r := reader{wire.Reader{B: data}}
	var x State
	if r.Byte() != codecVersion {
		return errors.New("sausages: unknown state encoding version")
	}
	x.players, x.first = r.Byte(), r.Byte()
	if x.players > MaxPlayers {
		return ErrCorrupt
	}
	x.seed = r.U64()
	x.rng = rng(r.U64())
	x.round, x.phase, x.turn, x.roundFirst = r.Byte(), Phase(r.Byte()), r.Byte(), r.Byte()
	x.bid, x.bidder, x.winner, x.fan = r.Byte(), r.Byte(), r.Byte(), r.Byte()
	for i := 0; i < int(x.players); i++ {
		b0, b1 := r.Byte(), r.Byte()
		s := &x.seats[i]
		s.hs, s.hb, s.side, s.passed, s.rev = b0&3, b0>>2&1, b0>>3&1+1, b0>>4&1 == 1, b0>>5
		s.n, s.boot = b1&7, b1>>3
	}
	x.nRev = r.log(x.rev[:])
	x.nBids = r.log(x.bids[:])
	l := &x.last
	flags := r.Byte()
	l.valid, l.success, l.out = flags&1 != 0, flags&2 != 0, flags&4 != 0
	if l.valid {
		l.round, l.challenger, l.n, l.bootOwner, l.lost = r.Byte(), r.Byte(), r.Byte(), r.Byte(), Card(r.Byte())
		l.nRev = r.log(l.rev[:])
	}
	if r.Bad || len(r.B) != 0 || flags > 7 {
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

// validate checks that x is a state the engine could have reached, closely
// enough that Apply and the views can trust it: every seat in ToAct has a
// legal action and every legal action leads to another valid state.
func (x *State) validate() error {
	bad := func(what string) error { return errors.New("sausages: invalid state: " + what) }
	n := int(x.players)
	if n < MinPlayers || n > MaxPlayers {
		return bad("players")
	}
	if int(x.first) >= n || x.round == 0 || x.phase > PhaseOver {
		return bad("header")
	}
	if int(x.turn) >= n || int(x.roundFirst) >= n || int(x.bidder) >= n || int(x.bid) > MaxCards {
		return bad("seat")
	}
	if x.nRev > MaxCards || x.nBids > maxBids || x.last.nRev > MaxCards {
		return bad("log size")
	}
	for i := int(x.nRev); i < MaxCards; i++ {
		if x.rev[i] != 0 {
			return bad("unused reveal")
		}
	}
	for i := int(x.nBids); i < maxBids; i++ {
		if x.bids[i] != 0 {
			return bad("unused bid")
		}
	}
	in, total, rev, side2, lost := 0, 0, 0, 0, 0
	for i := 0; i < MaxPlayers; i++ {
		b := &x.seats[i]
		if i >= n {
			if *b != (board{}) {
				return bad("unused seat")
			}
			continue
		}
		if b.hs > SausagesPerPlayer || b.hb > 1 || b.n > CardsPerPlayer || b.boot > b.n || b.rev > b.n || b.side < 1 || b.side > 2 {
			return bad("seat cards")
		}
		boots := int(b.hb)
		if b.boot != 0 {
			boots++
		}
		if boots > 1 || b.owned() > CardsPerPlayer || b.owned()-boots > SausagesPerPlayer {
			return bad("seat cards")
		}
		if b.out() {
			if b.passed {
				return bad("out seat passed")
			}
		} else {
			in++
		}
		total += int(b.n)
		rev += int(b.rev)
		lost += CardsPerPlayer - b.owned()
		if b.side == 2 {
			side2++
		}
	}
	if in == 0 {
		return bad("nobody in")
	}
	if (x.phase == PhaseOver) != (x.winner != noSeat) {
		return bad("winner")
	}
	if err := x.validateLast(); err != nil {
		return err
	}
	// Rounds: each completed round had one outcome, a success (side 2) or a
	// lost card.
	completed := side2 + lost
	if x.phase == PhaseName || x.phase == PhaseOver && !x.last.success {
		completed-- // the loss belongs to the current round
	}
	if int(x.round)-1 != completed {
		return bad("round count")
	}
	switch x.phase {
	case PhaseSetup, PhaseAdd, PhaseBid, PhaseAttempt:
		if in < 2 || x.seats[x.roundFirst].out() || x.fan != 0 {
			return bad("round")
		}
		if x.last.valid && int(x.last.round) != int(x.round)-1 {
			return bad("last round")
		}
		waiting := 0
		for i := 0; i < n; i++ {
			b := &x.seats[i]
			switch {
			case x.phase == PhaseSetup && b.n > 1,
				x.phase != PhaseSetup && !b.out() && b.n == 0,
				x.phase != PhaseAttempt && b.rev != 0,
				(x.phase == PhaseSetup || x.phase == PhaseAdd) && b.passed:
				return bad("stacks")
			}
			if x.mustPlace(i) {
				waiting++
			}
		}
		if x.phase == PhaseSetup && (waiting == 0 || x.turn != 0) {
			return bad("setup")
		}
		if x.phase == PhaseSetup || x.phase == PhaseAdd {
			if x.bid != 0 || x.bidder != 0 || x.nBids != 0 || x.nRev != 0 || x.phase == PhaseAdd && x.seats[x.turn].out() {
				return bad("bidding before it opens")
			}
			return nil
		}
	default:
		for i := 0; i < n; i++ {
			if x.seats[i].n != 0 {
				return bad("stacks after the attempt")
			}
		}
	}
	if x.phase == PhaseOver {
		if x.turn != 0 || x.bid != 0 || x.bidder != 0 || x.nBids != 0 || x.nRev != 0 || x.fan != 0 {
			return bad("over")
		}
		for i := 0; i < n; i++ {
			if x.seats[i].passed {
				return bad("over")
			}
		}
		l := &x.last
		w := int(x.winner)
		if w >= n || x.seats[w].out() || !l.valid || int(l.round) != int(x.round) {
			return bad("winner")
		}
		if in == 1 {
			if l.success || !l.out {
				return bad("last one standing")
			}
		} else if !l.success || int(l.challenger) != w || x.seats[w].side != 2 {
			return bad("second success")
		}
		return nil
	}
	// Bidding, the attempt and its failure: the bid log.
	lastActor, active, err := x.checkBids()
	if err != nil {
		return err
	}
	c := &x.seats[x.bidder]
	switch x.phase {
	case PhaseBid:
		if int(x.bid) >= total || active < 2 || x.turn == x.bidder || x.turn != x.next(lastActor, true) {
			return bad("bid turn")
		}
	case PhaseAttempt:
		if int(x.bid) > total || (active != 1 && int(x.bid) != total) || x.turn != x.bidder {
			return bad("attempt")
		}
		if c.rev != c.n || c.boot != 0 || rev >= int(x.bid) || int(x.nRev) != rev {
			return bad("attempt reveals")
		}
		var per [MaxPlayers]int
		for k := 0; k < int(x.nRev); k++ {
			e := x.rev[k]
			s := int(e >> 1)
			if e&1 != 0 || s >= n || (k < int(c.n)) != (s == int(x.bidder)) {
				return bad("attempt log")
			}
			per[s]++
		}
		for i := 0; i < n; i++ {
			b := &x.seats[i]
			if per[i] != int(b.rev) || b.boot != 0 && int(b.boot) > int(b.n-b.rev) {
				return bad("attempt log")
			}
		}
	default: // PhasePick, PhaseLose, PhaseName
		l := &x.last
		if !l.valid || l.success || l.round != x.round || l.challenger != x.bidder || l.n != x.bid || l.nRev != x.nRev || l.rev != x.rev {
			return bad("failure")
		}
		own := l.bootOwner == x.bidder
		switch x.phase {
		case PhasePick:
			if own || x.turn != l.bootOwner || x.seats[l.bootOwner].out() || c.out() || l.lost != NoCard || l.out ||
				int(x.fan) > c.owned() || (x.fan != 0) != (c.hb == 1) {
				return bad("pick")
			}
		case PhaseLose:
			if !own || x.turn != x.bidder || c.hb != 1 || l.lost != NoCard || l.out || x.fan != 0 {
				return bad("lose")
			}
		case PhaseName:
			if !own || x.turn != x.bidder || !c.out() || !l.out || l.lost == NoCard || in < 2 || x.fan != 0 {
				return bad("name")
			}
		}
	}
	return nil
}

// checkBids replays the bid log against bid, bidder and the passed flags;
// it returns the last seat to bid or pass and how many seats have not
// passed.
func (x *State) checkBids() (lastActor uint8, active int, err error) {
	bad := errors.New("sausages: invalid state: bid log")
	n := int(x.players)
	var passed [MaxPlayers]bool
	cur, bidder := 0, -1
	if x.nBids == 0 {
		return 0, 0, bad
	}
	// Seats in the bidding: those still in, and the challenger (who may
	// have gone out since, in PhaseName).
	in := func(i int) bool { return !x.seats[i].out() || i == int(x.bidder) }
	for k := 0; k < int(x.nBids); k++ {
		e := x.bids[k]
		s, v := int(e>>5), int(e&31)
		if s >= n || passed[s] || !in(s) {
			return 0, 0, bad
		}
		if k > 0 {
			// Clockwise from the previous actor, skipping seats out or passed.
			want := int(lastActor)
			for j := 1; j <= n; j++ {
				if i := (int(lastActor) + j) % n; in(i) && !passed[i] {
					want = i
					break
				}
			}
			if s != want {
				return 0, 0, bad
			}
		}
		if v == 0 {
			if k == 0 || s == bidder {
				return 0, 0, bad
			}
			passed[s] = true
		} else {
			if v <= cur || v > MaxCards {
				return 0, 0, bad
			}
			cur, bidder = v, s
		}
		lastActor = uint8(s)
	}
	if cur != int(x.bid) || bidder != int(x.bidder) {
		return 0, 0, bad
	}
	for i := 0; i < n; i++ {
		if passed[i] != x.seats[i].passed {
			return 0, 0, bad
		}
		if !passed[i] && !x.seats[i].out() {
			active++
		}
	}
	return lastActor, active, nil
}

// validateLast checks the record of the last decided attempt on its own.
func (x *State) validateLast() error {
	bad := errors.New("sausages: invalid state: last round")
	l := &x.last
	if !l.valid {
		if *l != (outcome{}) || x.round != 1 {
			return bad
		}
		switch x.phase {
		case PhasePick, PhaseLose, PhaseName, PhaseOver:
			return bad
		}
		return nil
	}
	n := int(x.players)
	if int(l.challenger) >= n || l.n < 1 || l.n > MaxCards || l.round < 1 || l.round > x.round || int(l.bootOwner) >= n || l.lost > Boot || l.nRev == 0 {
		return bad
	}
	for i := int(l.nRev); i < MaxCards; i++ {
		if l.rev[i] != 0 {
			return bad
		}
	}
	boots := 0
	for k := 0; k < int(l.nRev); k++ {
		e := l.rev[k]
		if int(e>>1) >= n || k == 0 && e>>1 != l.challenger {
			return bad
		}
		boots += int(e & 1)
	}
	final := l.rev[l.nRev-1]
	if l.success {
		if boots != 0 || l.nRev < l.n || l.bootOwner != 0 || l.lost != NoCard || l.out {
			return bad
		}
		return nil
	}
	if boots != 1 || l.out && l.lost == NoCard {
		return bad
	}
	if l.bootOwner == l.challenger {
		// The whole own stack was turned at once; the boot may be anywhere.
		for k := 0; k < int(l.nRev); k++ {
			if l.rev[k]>>1 != l.challenger {
				return bad
			}
		}
	} else if final != l.bootOwner<<1|1 || l.nRev > l.n {
		return bad
	}
	pending := x.phase == PhasePick || x.phase == PhaseLose
	if (l.lost == NoCard) != pending {
		return bad
	}
	return nil
}
