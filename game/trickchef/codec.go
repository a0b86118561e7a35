package trickchef

import (
	"encoding/binary"
	"errors"
	"math/bits"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/internal/wire"
)

// codecVersion is the first byte of every encoding; bump it when the layout
// changes.
const codecVersion = 1

// ErrCorrupt is returned for an encoding this package could not have
// produced (truncated, trailing or non-canonical bytes).
const ErrCorrupt wire.Error = "trickchef: corrupt state encoding"

// MarshalBinary encodes the state compactly (a few hundred bytes).
func (st *State) MarshalBinary() ([]byte, error) {
	return st.AppendBinary(make([]byte, 0, 384))
}

// AppendBinary appends the encoding of the state to b.
func (st *State) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, codecVersion, st.players, byte(st.removed), st.first)
	b = binary.LittleEndian.AppendUint64(b, st.seed)
	b = binary.LittleEndian.AppendUint64(b, uint64(st.rng))
	b = append(b, st.round, st.trick, byte(st.phase), st.roundFirst, st.leader, st.turn)
	for i := 0; i < 4; i++ {
		b = appendSet(b, st.hands[i])
		b = appendSet(b, st.won[i])
	}
	b = append(b, st.pool[:]...)
	b = append(b, st.setAside[:]...)
	for i := 0; i < 4; i++ {
		b = append(b, st.chefs[i][:]...)
	}
	b = append(b, st.coins[:]...)
	b = append(b, st.reserve, st.nPlayed)
	b = appendPlays(b, &st.plays)
	b = append(b, st.tricksWon[:]...)
	l := &st.last
	b = append(b, boolByte(l.valid), l.leader)
	b = appendPlays(b, &l.plays)
	b = append(b, byte(l.trumps), l.winner, l.taker, l.chefSuit, l.income)
	for r := 0; r < Rounds; r++ {
		rec := &st.results[r]
		b = append(b, rec.first)
		for i := 0; i < 4; i++ {
			b = appendSet(b, rec.won[i])
			b = append(b, rec.chefs[i][:]...)
		}
		b = append(b, rec.coins[:]...)
	}
	return b, nil
}

// appendSet writes a card set in 5 bytes (40 bits).
func appendSet(b []byte, m cardSet) []byte {
	return append(b, byte(m), byte(m>>8), byte(m>>16), byte(m>>24), byte(m>>32))
}

func appendPlays(b []byte, p *[4]play) []byte {
	for i := range p {
		b = append(b, p[i].card, byte(p[i].coins))
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// reader decodes this engine's fields on top of wire.Reader.
type reader struct{ wire.Reader }

func (r *reader) set() cardSet {
	var m cardSet
	for i := 0; i < 5; i++ {
		m |= cardSet(r.Byte()) << (8 * i)
	}
	return m
}

func (r *reader) plays(p *[4]play) {
	for i := range p {
		p[i].card = r.Byte()
		p[i].coins = int8(r.Byte())
	}
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
// consistent state (conservation of cards, chefs and coins; seats, phase
// and counters in range; canonical encoding). On error st is unchanged.
func (st *State) UnmarshalBinary(data []byte) error {
	r := reader{wire.Reader{B: data}}
	var x State
	if r.Byte() != codecVersion {
		return errors.New("trickchef: unknown state encoding version")
	}
	x.players, x.removed, x.first = r.Byte(), Suit(r.Byte()), r.Byte()
	x.seed = r.U64()
	x.rng = rng(r.U64())
	x.round, x.trick, x.phase = r.Byte(), r.Byte(), Phase(r.Byte())
	x.roundFirst, x.leader, x.turn = r.Byte(), r.Byte(), r.Byte()
	for i := 0; i < 4; i++ {
		x.hands[i] = r.set()
		x.won[i] = r.set()
	}
	r.Bytes(x.pool[:])
	r.Bytes(x.setAside[:])
	for i := 0; i < 4; i++ {
		r.Bytes(x.chefs[i][:])
	}
	r.Bytes(x.coins[:])
	x.reserve, x.nPlayed = r.Byte(), r.Byte()
	r.plays(&x.plays)
	r.Bytes(x.tricksWon[:])
	l := &x.last
	valid := r.Byte()
	l.valid, l.leader = valid == 1, r.Byte()
	r.plays(&l.plays)
	l.trumps, l.winner, l.taker, l.chefSuit, l.income = SuitSet(r.Byte()), r.Byte(), r.Byte(), r.Byte(), r.Byte()
	for k := 0; k < Rounds; k++ {
		rec := &x.results[k]
		rec.first = r.Byte()
		for i := 0; i < 4; i++ {
			rec.won[i] = r.set()
			r.Bytes(rec.chefs[i][:])
		}
		r.Bytes(rec.coins[:])
	}
	if r.Bad || len(r.B) != 0 || valid > 1 {
		return ErrCorrupt
	}
	if err := x.validate(); err != nil {
		return err
	}
	// Reject anything that would not re-encode to the same bytes, such as
	// stale data in unused slots.
	again, _ := x.MarshalBinary()
	if string(again) != string(data) {
		return ErrCorrupt
	}
	*st = x
	return nil
}

// validate checks that x is a state the engine could have reached, so that
// Apply and the views can trust it.
func (x *State) validate() error {
	bad := func(what string) error { return errors.New("trickchef: invalid state: " + what) }
	if x.players != 3 && x.players != 4 {
		return bad("players")
	}
	n := int(x.players)
	if x.removed >= NumSuits || int(x.first) >= n {
		return bad("config")
	}
	if x.round < 1 || x.round > Rounds || x.trick < 1 || x.trick > HandSize || x.phase > PhaseOver {
		return bad("counters")
	}
	if int(x.roundFirst) >= n || int(x.leader) >= n || int(x.turn) >= n {
		return bad("seat")
	}
	suits := x.suits()
	deck := deckOf(suits)
	nSuits := bits.OnesCount8(uint8(suits))
	over := x.phase == PhaseOver
	if over && (x.round != Rounds || x.trick != HandSize || x.turn != 0) {
		return bad("over counters")
	}
	// Finished rounds and the first players they imply.
	done := x.finishedRounds()
	var totals [4]int
	prevFirst := x.first
	for k := 0; k < Rounds; k++ {
		rec := &x.results[k]
		if k >= done {
			if *rec != (roundRecord{}) {
				return bad("unused round")
			}
			continue
		}
		if rec.first != prevFirst {
			return bad("round first")
		}
		if err := checkRecord(rec, n, suits, deck); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			totals[i] += rec.score(i)
		}
		prevFirst = uint8(nextRoundFirst(totals, n, game.Seat(prevFirst)))
	}
	if !over && x.roundFirst != prevFirst {
		return bad("round first")
	}
	for i := n; i < 4; i++ {
		if x.hands[i] != 0 || x.won[i] != 0 || x.coins[i] != 0 || x.tricksWon[i] != 0 || x.chefs[i] != [NumSuits]uint8{} {
			return bad("unused seat")
		}
	}
	// Cards: hands, won piles and the trick partition the deck.
	var all cardSet
	total := 0
	for i := 0; i < n; i++ {
		all |= x.hands[i] | x.won[i]
		total += x.hands[i].count() + x.won[i].count()
	}
	if int(x.nPlayed) >= n || (x.phase != PhasePlay && x.nPlayed != 0) {
		return bad("trick size")
	}
	placed := 0
	for i := 0; i < 4; i++ {
		p := x.plays[i]
		if i >= int(x.nPlayed) {
			if p != (play{}) {
				return bad("unused play")
			}
			continue
		}
		if p.card >= NumSuits*MaxValue || p.coins < -TotalCoins || p.coins > TotalCoins {
			return bad("play")
		}
		all |= 1 << p.card
		total++
		placed += max(int(p.coins), -int(p.coins))
	}
	if over {
		if total != 0 {
			return bad("cards after the game")
		}
	} else if all != deck || total != deck.count() {
		return bad("card conservation")
	}
	// Hand sizes and tricks won follow from the trick counter.
	played := int(x.trick) - 1 // completed tricks
	if x.phase == PhaseAward {
		played++
	}
	wonTricks := 0
	for i := 0; i < n; i++ {
		want := HandSize - played
		if x.phase == PhasePlay && (i-int(x.leader)+n)%n < int(x.nPlayed) {
			want--
		}
		if over {
			want = 0
		}
		if x.hands[i].count() != want || x.won[i].count() != n*int(x.tricksWon[i]) {
			return bad("hand size")
		}
		wonTricks += int(x.tricksWon[i])
	}
	if !over && wonTricks != played {
		return bad("tricks won")
	}
	// Chefs: 5 per suit in play, none of the removed suit.
	held, poolSum, asideSum := 0, 0, 0
	for s := Suit(0); s < NumSuits; s++ {
		sum := int(x.pool[s]) + int(x.setAside[s])
		for i := 0; i < n; i++ {
			sum += int(x.chefs[i][s])
			held += int(x.chefs[i][s])
		}
		want := 0
		if suits.Has(s) {
			want = ChefsPerSuit
		}
		if sum != want || x.pool[s] > ChefsPerSuit-1 || x.setAside[s] > 1 {
			return bad("chef conservation")
		}
		poolSum += int(x.pool[s])
		asideSum += int(x.setAside[s])
	}
	switch x.phase {
	case PhasePick:
		picked := (int(x.turn) - int(x.roundFirst) + n) % n
		if x.trick != 1 || held != picked || asideSum != n-picked || asideSum < 2 || x.leader != x.roundFirst {
			return bad("pick")
		}
	case PhasePlay, PhaseAward:
		if asideSum != 0 || held != n+int(x.trick)-1 {
			return bad("chefs held")
		}
	case PhaseOver:
		if held != 0 || asideSum != nSuits {
			return bad("chefs after the game")
		}
	}
	if poolSum+asideSum+held != ChefsPerSuit*nSuits {
		return bad("chef total")
	}
	if x.phase == PhasePlay && int(x.turn) != (int(x.leader)+int(x.nPlayed))%n {
		return bad("turn")
	}
	if x.phase == PhasePlay && x.trick == 1 && x.leader != x.roundFirst {
		return bad("leader")
	}
	// Coins.
	coinSum := int(x.reserve) + placed
	for i := 0; i < n; i++ {
		coinSum += int(x.coins[i])
	}
	if coinSum != TotalCoins {
		return bad("coin conservation")
	}
	// The last trick.
	l := &x.last
	if !l.valid {
		if *l != (trickRecord{}) || x.round > 1 || x.phase == PhaseAward || (x.phase == PhasePlay && x.trick > 1) {
			return bad("missing last trick")
		}
	} else {
		if x.round == 1 && (x.phase == PhasePick || x.phase == PhasePlay && x.trick == 1) {
			return bad("stale last trick")
		}
		if int(l.leader) >= n || int(l.winner) >= n || int(l.taker) >= n || l.income>>n != 0 {
			return bad("last trick seats")
		}
		var seen cardSet
		for i := 0; i < 4; i++ {
			p := l.plays[i]
			if i >= n {
				if p != (play{}) {
					return bad("last trick unused play")
				}
				continue
			}
			if p.card >= NumSuits*MaxValue || !deck.has(p.card) || seen.has(p.card) || p.coins < -TotalCoins || p.coins > TotalCoins {
				return bad("last trick play")
			}
			seen |= 1 << p.card
		}
		if l.trumps&^suits != 0 || l.income&(1<<l.winner|1<<l.taker) != 0 {
			return bad("last trick")
		}
		if x.phase == PhaseAward {
			if l.chefSuit != noSuit || x.turn != l.taker || x.leader != l.winner {
				return bad("award")
			}
		} else if l.chefSuit >= NumSuits || !suits.Has(Suit(l.chefSuit)) {
			return bad("last chef")
		}
		if x.phase == PhasePlay && x.trick > 1 && x.leader != l.winner {
			return bad("leader")
		}
	}
	return nil
}

func checkRecord(rec *roundRecord, n int, suits SuitSet, deck cardSet) error {
	bad := errors.New("trickchef: invalid state: round record")
	if int(rec.first) >= n {
		return bad
	}
	var all cardSet
	total, chefs, coins := 0, 0, 0
	for i := 0; i < 4; i++ {
		if i >= n && (rec.won[i] != 0 || rec.chefs[i] != [NumSuits]uint8{} || rec.coins[i] != 0) {
			return bad
		}
		all |= rec.won[i]
		total += rec.won[i].count()
		coins += int(rec.coins[i])
		for s := Suit(0); s < NumSuits; s++ {
			if !suits.Has(s) && rec.chefs[i][s] != 0 {
				return bad
			}
			chefs += int(rec.chefs[i][s])
		}
	}
	if all != deck || total != deck.count() || chefs != n+HandSize || coins > TotalCoins {
		return bad
	}
	return nil
}
