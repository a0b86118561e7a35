package chekharda

import (
	"errors"

	"github.com/trickchef/trickchef/game"
)

// Phase is what the game waits for.
type Phase uint8

const (
	// PhasePlay: a round is being played. Every seat with a legal action is
	// in ToAct, and game.System too while the dealer may deal.
	PhasePlay Phase = iota
	// PhaseRoundEnd: the round is over and scored; ToAct is [game.System]
	// with the single next-round move (applied after a reading pause).
	PhaseRoundEnd
	// PhaseOver: the game has ended.
	PhaseOver
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case PhasePlay:
		return "play"
	case PhaseRoundEnd:
		return "round_end"
	case PhaseOver:
		return "over"
	}
	return "?"
}

// Config sets up a table.
type Config struct {
	Players     int       // MinPlayers..MaxPlayers
	Target      int       // total that ends the game: TargetFull (77; also when 0) or TargetShort (30), 1..MaxTarget
	DrawForSelf bool      // variant «Хотите большего?»: stuck players draw for themselves; no dealer's deal
	Dealer      game.Seat // dealer of round 1 (the next round's dealer is the next seat clockwise)
	Seed        uint64
}

// DefaultConfig is a full game (target 77, no variant) dealt by seat 0.
func DefaultConfig(players int, seed uint64) Config {
	return Config{Players: players, Target: TargetFull, Seed: seed}
}

func (c *Config) normalize() error {
	if c.Players < MinPlayers || c.Players > MaxPlayers {
		return errors.New("chekharda: players must be 2 to 6")
	}
	if c.Target == 0 {
		c.Target = TargetFull
	}
	if c.Target < 1 || c.Target > MaxTarget {
		return errors.New("chekharda: target must be 1 to 999")
	}
	if c.Dealer < 0 || int(c.Dealer) >= c.Players {
		return errors.New("chekharda: dealer seat out of range")
	}
	return nil
}

// noSeat marks an unset seat (nobody went out).
const noSeat = 0xFF

// seat is one player: hand and sets by kind, the game total and the last
// finished round's breakdown.
type seat struct {
	hand     [kindSlots]uint8 // 0 or 1 at rest: pairs are laid at once
	set      [kindSlots]uint8 // 0, or 2..6 cards in the seat's set of that kind
	total    uint16
	lastSets uint8 // last finished round: cards in sets
	lastHand uint8 // ... and in hand
}

func (p *seat) handCards() int {
	n := 0
	for k := 1; k < kindSlots; k++ {
		n += int(p.hand[k])
	}
	return n
}

func (p *seat) setCards() int {
	n := 0
	for k := 1; k < kindSlots; k++ {
		n += int(p.set[k])
	}
	return n
}

// handMask and setMask have bit k set for each kind held / in a set.
func (p *seat) handMask() uint16 { return nonzero(&p.hand) }
func (p *seat) setMask() uint16  { return nonzero(&p.set) }

// nonzero has bit k set where a[k] != 0 (branch-free: these masks are
// computed for every seat on every ToAct).
func nonzero(a *[kindSlots]uint8) uint16 {
	var m uint16
	for k := 1; k < kindSlots; k++ {
		m |= uint16((a[k]|-a[k])>>7) << k
	}
	return m
}

// State is a game of Чехарда. Everything lives in fixed arrays, so Clone
// is a copy and Apply does not allocate.
type State struct {
	players uint8
	variant bool // Config.DrawForSelf
	target  uint16
	dealer0 uint8 // Config.Dealer
	seed    uint64
	rng     rng
	phase   Phase
	round   uint16 // 1, 2, ...
	dealer  uint8
	lastOut uint8 // who went out in the last finished round; noSeat if nobody (or none finished)
	winners uint8 // bit per seat, once over
	deckN   uint8
	deck    [NumCards]Kind // deck[:deckN], the top card last
	seats   [MaxPlayers]seat
	seq     uint32 // events so far in the game; the newest has this number
	nLog    uint8
	log     [LogSize]event // the newest LogSize events, oldest first
}

var _ game.State = (*State)(nil)
var _ game.Viewed[Public, SeatView] = (*State)(nil)

// New validates cfg, shuffles and deals round 1 (pairs laid at once; in
// the rare deal that empties a hand the round is already over).
func New(cfg Config) (*State, error) {
	if err := cfg.normalize(); err != nil {
		return nil, err
	}
	st := newEmpty(cfg)
	st.startRound(uint8(cfg.Dealer))
	return st, nil
}

func newEmpty(cfg Config) *State {
	return &State{
		players: uint8(cfg.Players),
		variant: cfg.DrawForSelf,
		target:  uint16(cfg.Target),
		dealer0: uint8(cfg.Dealer),
		seed:    cfg.Seed,
		rng:     rng(cfg.Seed),
		lastOut: noSeat,
	}
}

// Config returns the configuration the game was created with (Target 0
// reads back as TargetFull).
func (st *State) Config() Config {
	return Config{Players: int(st.players), Target: int(st.target), DrawForSelf: st.variant,
		Dealer: game.Seat(st.dealer0), Seed: st.seed}
}

// Seats is the number of players.
func (st *State) Seats() int { return int(st.players) }

// Over reports whether the game has ended.
func (st *State) Over() bool { return st.phase == PhaseOver }

// Phase is what the game waits for.
func (st *State) Phase() Phase { return st.phase }

// Round is the round number, from 1.
func (st *State) Round() int { return int(st.round) }

// Dealer is the current round's dealer.
func (st *State) Dealer() game.Seat { return game.Seat(st.dealer) }

// DeckSize is the number of cards left in the deck.
func (st *State) DeckSize() int { return int(st.deckN) }

// Clone returns an independent copy.
func (st *State) Clone() *State {
	c := *st
	return &c
}

// Winners lists the winning seats once the game is over (several on a
// shared win), nil before.
func (st *State) Winners() []game.Seat {
	if st.phase != PhaseOver {
		return nil
	}
	var w []game.Seat
	for i := 0; i < int(st.players); i++ {
		if st.winners&(1<<i) != 0 {
			w = append(w, game.Seat(i))
		}
	}
	return w
}

// Result is the outcome once Over: the game totals and the winners.
func (st *State) Result() game.Result {
	if st.phase != PhaseOver {
		return game.Result{}
	}
	scores := make([]int, st.players)
	for i := range scores {
		scores[i] = int(st.seats[i].total)
	}
	return game.Result{Scores: scores, Winners: st.Winners()}
}

// tableMask has bit k set for every kind with a set anywhere on the table.
func (st *State) tableMask() uint16 {
	var m uint16
	for i := 0; i < int(st.players); i++ {
		m |= st.seats[i].setMask()
	}
	return m
}

// canAct reports whether seat p can steal or add: it holds a single card
// of a kind that has a set on the table (its own: add; another's: steal).
func (st *State) canAct(p int, table uint16) bool {
	return st.seats[p].handMask()&table != 0
}

// anyCanAct reports whether some player can steal or add.
func (st *State) anyCanAct() bool {
	t := st.tableMask()
	for i := 0; i < int(st.players); i++ {
		if st.canAct(i, t) {
			return true
		}
	}
	return false
}

// canDeal reports whether the platform may deal now.
func (st *State) canDeal() bool {
	return st.phase == PhasePlay && !st.variant && st.deckN > 0
}

// Stuck reports that the round is in play, the dealer may deal and no
// player has any legal action: the platform should deal at once instead of
// waiting for the quiet pause. (With the variant there is no dealer's
// deal and Stuck is always false: stuck players have a draw.)
func (st *State) Stuck() bool {
	return st.canDeal() && !st.anyCanAct()
}

// ToAct lists every seat that has at least one legal action now, in seat
// order, followed by game.System while the platform may act (the deal
// during play without the variant; the next-round move between rounds).
// Any listed seat may act, in any order; none has to. Empty once over.
func (st *State) ToAct() []game.Seat { return st.ToActAppend(nil) }

// ToActAppend appends ToAct to dst; with enough capacity it does not
// allocate.
func (st *State) ToActAppend(dst []game.Seat) []game.Seat {
	switch st.phase {
	case PhaseOver:
		return dst
	case PhaseRoundEnd:
		return append(dst, game.System)
	}
	t := st.tableMask()
	for i := 0; i < int(st.players); i++ {
		if st.canAct(i, t) || st.variant && st.deckN > 0 {
			dst = append(dst, game.Seat(i))
		}
	}
	if st.canDeal() {
		dst = append(dst, game.System)
	}
	return dst
}

// Legal lists the actions seat may take now, in ascending order; for
// game.System the platform's moves.
func (st *State) Legal(seat game.Seat) []game.Action {
	return st.LegalAppend(nil, seat)
}

// LegalAppend appends Legal(seat) to dst; with enough capacity it does not
// allocate.
func (st *State) LegalAppend(dst []game.Action, s game.Seat) []game.Action {
	if s == game.System {
		switch {
		case st.phase == PhaseRoundEnd:
			dst = append(dst, NextRoundAction())
		case st.canDeal():
			dst = append(dst, DealAction())
		}
		return dst
	}
	if st.phase != PhasePlay || s < 0 || int(s) >= int(st.players) {
		return dst
	}
	p := &st.seats[s]
	can := false
	for k := Kind(1); k < kindSlots; k++ {
		if p.hand[k] != 1 {
			continue
		}
		for v := 0; v < int(st.players); v++ {
			if v != int(s) && st.seats[v].set[k] != 0 {
				dst = append(dst, StealAction(k, game.Seat(v)))
				can = true
			}
		}
	}
	for k := Kind(1); k < kindSlots; k++ {
		if p.hand[k] == 1 && p.set[k] != 0 {
			dst = append(dst, AddAction(k))
			can = true
		}
	}
	if st.variant && !can && st.deckN > 0 {
		dst = append(dst, DrawAction())
	}
	return dst
}

// Apply performs action a for seat s (a player, or game.System for the
// platform's moves), or returns a *game.RuleError and leaves the state
// unchanged. Every consequence happens inside the same call: sets laid,
// a hand emptied (round over), the deck run out with nobody able to act
// (round over without a winner), the target reached (game over).
func (st *State) Apply(s game.Seat, a game.Action) error {
	m, err := st.check(s, a)
	if err != nil {
		return err
	}
	switch m.Type {
	case MoveSteal:
		st.steal(uint8(s), m.Kind, uint8(m.Victim))
	case MoveAdd:
		st.add(uint8(s), m.Kind)
	case MoveDraw:
		st.draw(uint8(s))
	case MoveDeal:
		st.deal()
	case MoveNextRound:
		st.startRound((st.dealer + 1) % st.players)
	}
	return nil
}

// check validates an action without changing anything.
func (st *State) check(s game.Seat, a game.Action) (Move, error) {
	if st.phase == PhaseOver {
		return Move{}, &game.RuleError{Code: CodeGameOver}
	}
	if s != game.System && (s < 0 || int(s) >= int(st.players)) {
		return Move{}, game.Errorf(CodeBadSeat, "seat %d", s)
	}
	m, ok := Decode(a)
	if !ok {
		return m, game.Errorf(CodeUnknownAction, "action %d", a)
	}
	if (s == game.System) != m.Type.System() {
		return m, game.Errorf(CodeNotYourTurn, "seat %d cannot %s", s, m.Type)
	}
	switch {
	case st.phase == PhaseRoundEnd && m.Type != MoveNextRound:
		return m, game.Errorf(CodeRoundOver, "round %d is over", st.round)
	case st.phase == PhasePlay && m.Type == MoveNextRound:
		return m, game.Errorf(CodeWrongPhase, "round %d is being played", st.round)
	}
	switch m.Type {
	case MoveSteal:
		p := &st.seats[s]
		switch {
		case int(m.Victim) >= int(st.players):
			return m, game.Errorf(CodeBadSeat, "victim %d", m.Victim)
		case m.Victim == s:
			return m, game.Errorf(CodeOwnSet, "seat %d steals from itself", s)
		case p.hand[m.Kind] != 1:
			return m, game.Errorf(CodeNoSingleCard, "seat %d holds no %s", s, m.Kind)
		case st.seats[m.Victim].set[m.Kind] == 0:
			return m, game.Errorf(CodeSetGone, "seat %d has no %s set", m.Victim, m.Kind)
		}
	case MoveAdd:
		p := &st.seats[s]
		switch {
		case p.hand[m.Kind] != 1:
			return m, game.Errorf(CodeNoSingleCard, "seat %d holds no %s", s, m.Kind)
		case p.set[m.Kind] == 0:
			return m, game.Errorf(CodeNoOwnSet, "seat %d has no %s set", s, m.Kind)
		}
	case MoveDraw:
		switch {
		case !st.variant:
			return m, game.Errorf(CodeNoDraw, "the dealer deals")
		case st.deckN == 0:
			return m, game.Errorf(CodeDeckEmpty, "no card to draw")
		case st.canAct(int(s), st.tableMask()):
			return m, game.Errorf(CodeNotStuck, "seat %d can steal or add", s)
		}
	case MoveDeal:
		switch {
		case st.variant:
			return m, game.Errorf(CodeNoDeal, "players draw for themselves")
		case st.deckN == 0:
			return m, game.Errorf(CodeDeckEmpty, "no card to deal")
		}
	}
	return m, nil
}

// steal moves victim v's set of kind k, with p's single card on top, to
// p (merging with p's own set of k).
func (st *State) steal(p uint8, k Kind, v uint8) {
	me, vic := &st.seats[p], &st.seats[v]
	n := vic.set[k]
	me.hand[k] = 0
	me.set[k] += n + 1
	vic.set[k] = 0
	st.logEvent(event{typ: EventSteal, seat: p, victim: v, kind: k, n: n, size: me.set[k]})
	st.settle(p)
}

// add plays p's single card of kind k onto p's own set.
func (st *State) add(p uint8, k Kind) {
	me := &st.seats[p]
	me.hand[k] = 0
	me.set[k]++
	st.logEvent(event{typ: EventAdd, seat: p, victim: noSeat, kind: k, n: 1, size: me.set[k]})
	st.settle(p)
}

// pop takes the top card of the deck (the caller checks deckN > 0).
func (st *State) pop() Kind {
	st.deckN--
	k := st.deck[st.deckN]
	st.deck[st.deckN] = NoKind
	return k
}

// draw gives p the top card (variant).
func (st *State) draw(p uint8) {
	st.seats[p].hand[st.pop()]++
	st.logEvent(event{typ: EventDraw, seat: p, victim: noSeat, n: 1})
	st.lay(p)
	st.settle(p)
}

// deal gives one card to each player clockwise from the dealer's left
// while the deck lasts, then lays the pairs. [ruling]
func (st *State) deal() {
	n := st.players
	dealt := uint8(0)
	for j := uint8(1); j <= n && st.deckN > 0; j++ {
		st.seats[(st.dealer+j)%n].hand[st.pop()]++
		dealt++
	}
	st.logEvent(event{typ: EventDeal, seat: st.dealer, victim: noSeat, n: dealt})
	for j := uint8(1); j <= dealt; j++ {
		st.lay((st.dealer + j) % n)
	}
	st.settle((st.dealer + 1) % n)
}

// lay puts every pair (or more) in p's hand down as a set, merging with
// p's set of that kind, kinds in order.
func (st *State) lay(p uint8) {
	me := &st.seats[p]
	for k := Kind(1); k < kindSlots; k++ {
		if c := me.hand[k]; c >= 2 {
			me.hand[k] = 0
			me.set[k] += c
			st.logEvent(event{typ: EventLay, seat: p, victim: noSeat, kind: k, n: c, size: me.set[k]})
		}
	}
}

// settle ends the round if a hand is empty (the first such seat clockwise
// from `from` went out), or if the deck is empty and nobody can act.
func (st *State) settle(from uint8) {
	n := st.players
	for j := uint8(0); j < n; j++ {
		if i := (from + j) % n; st.seats[i].handCards() == 0 {
			st.endRound(i)
			return
		}
	}
	if st.deckN == 0 && !st.anyCanAct() {
		st.endRound(noSeat)
	}
}

// roundScore is a round's score: sets − hand (+ bonus), never below 0.
func roundScore(sets, hand int, out bool) int {
	s := sets - hand
	if out {
		s += OutBonus
	}
	return max(s, 0)
}

// endRound scores the round (out is the seat that went out, noSeat if the
// deck ran out with nobody able to act) and ends the game if someone
// reached the target.
func (st *State) endRound(out uint8) {
	st.lastOut = out
	if out == noSeat {
		st.logEvent(event{typ: EventDeadlock, seat: noSeat, victim: noSeat})
	} else {
		st.logEvent(event{typ: EventOut, seat: out, victim: noSeat})
	}
	best := uint16(0)
	for i := 0; i < int(st.players); i++ {
		p := &st.seats[i]
		sets, hand := p.setCards(), p.handCards()
		p.lastSets, p.lastHand = uint8(sets), uint8(hand)
		p.total += uint16(roundScore(sets, hand, i == int(out)))
		best = max(best, p.total)
	}
	if best < st.target {
		st.phase = PhaseRoundEnd
		return
	}
	st.phase = PhaseOver
	for i := 0; i < int(st.players); i++ {
		if st.seats[i].total == best {
			st.winners |= 1 << i
		}
	}
}

// startRound gathers every card, shuffles, deals HandSize cards each
// clockwise from the new dealer's left and lays the pairs.
func (st *State) startRound(dealer uint8) {
	st.round++
	st.dealer = dealer
	st.phase = PhasePlay
	for i := 0; i < int(st.players); i++ {
		p := &st.seats[i]
		p.hand, p.set = [kindSlots]uint8{}, [kindSlots]uint8{}
	}
	for i := 0; i < NumCards; i++ {
		st.deck[i] = Kind(i/CopiesPerKind) + 1
	}
	for i := NumCards - 1; i > 0; i-- {
		j := st.rng.Below(i + 1)
		st.deck[i], st.deck[j] = st.deck[j], st.deck[i]
	}
	st.deckN = NumCards
	n := st.players
	for r := 0; r < HandSize; r++ {
		for j := uint8(1); j <= n; j++ {
			st.seats[(dealer+j)%n].hand[st.pop()]++
		}
	}
	st.logEvent(event{typ: EventRound, seat: dealer, victim: noSeat, n: HandSize})
	st.afterDeal()
}

// afterDeal lays every seat's pairs clockwise from the dealer's left and
// settles.
func (st *State) afterDeal() {
	n := st.players
	for j := uint8(1); j <= n; j++ {
		st.lay((st.dealer + j) % n)
	}
	st.settle((st.dealer + 1) % n)
}
