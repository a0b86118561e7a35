package sausages

import (
	"errors"

	"github.com/trickchef/trickchef/game"
)

// Phase is what the game waits for.
type Phase uint8

const (
	// PhaseSetup: every seat still in places its first card face down;
	// simultaneous (ToAct lists every seat still to place).
	PhaseSetup Phase = iota
	// PhaseAdd: from the round's first player clockwise, ToAct adds a card
	// or opens the bidding (must, with an empty hand).
	PhaseAdd
	// PhaseBid: clockwise, ToAct raises or passes.
	PhaseBid
	// PhaseAttempt: the challenger (own stack already turned) reveals the
	// top card of an opponent's stack, one action per card.
	PhaseAttempt
	// PhasePick: the challenger revealed an opponent's boot; that opponent
	// (ToAct) picks one of the challenger's shuffled cards blind.
	PhasePick
	// PhaseLose: the challenger revealed their own boot and chooses which
	// kind of card to lose.
	PhaseLose
	// PhaseName: the challenger went out on their own boot and names the
	// next round's first player among those still in.
	PhaseName
	// PhaseOver: the game has ended.
	PhaseOver
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case PhaseSetup:
		return "setup"
	case PhaseAdd:
		return "add"
	case PhaseBid:
		return "bid"
	case PhaseAttempt:
		return "attempt"
	case PhasePick:
		return "pick"
	case PhaseLose:
		return "lose"
	case PhaseName:
		return "name"
	case PhaseOver:
		return "over"
	}
	return "?"
}

// Config sets up a table.
type Config struct {
	Players int       // MinPlayers..MaxPlayers
	First   game.Seat // first player of round 1: the table's creator [ruling]
	Seed    uint64
}

func (c Config) validate() error {
	if c.Players < MinPlayers || c.Players > MaxPlayers {
		return errors.New("sausages: players must be 3 to 6")
	}
	if c.First < 0 || int(c.First) >= c.Players {
		return errors.New("sausages: first seat out of range")
	}
	return nil
}

// noSeat marks an unset seat (the winner before the end).
const noSeat = 0xFF

// maxBids bounds the bid log: at most MaxCards strictly increasing bids and
// MaxPlayers-1 passes.
const maxBids = 32

// board is one seat: its hand, its stack and its board side.
type board struct {
	hs, hb uint8 // sausages and boots (0 or 1) in hand
	n      uint8 // cards on the stack
	boot   uint8 // 1 + position of the boot in the stack (0 = bottom); 0: no boot there
	rev    uint8 // cards of the stack turned face up, counted from the top
	side   uint8 // 1 or 2 (2 = one success)
	passed bool  // in the current bidding
}

func (b *board) hand() int     { return int(b.hs) + int(b.hb) }
func (b *board) owned() int    { return b.hand() + int(b.n) }
func (b *board) out() bool     { return b.owned() == 0 }
func (b *board) hasBoot() bool { return b.hb == 1 || b.boot != 0 }

// at returns the card at stack position i (0 = bottom).
func (b *board) at(i int) Card {
	if int(b.boot) == i+1 {
		return Boot
	}
	return Sausage
}

// holds reports whether c is in hand.
func (b *board) holds(c Card) bool {
	return c == Sausage && b.hs > 0 || c == Boot && b.hb > 0
}

// collect takes the stack back into the hand.
func (b *board) collect() {
	if b.boot != 0 {
		b.hb++
		b.hs += b.n - 1
	} else {
		b.hs += b.n
	}
	b.n, b.boot, b.rev = 0, 0, 0
}

// outcome is the last decided attempt, kept for the views.
type outcome struct {
	valid      bool
	success    bool
	out        bool // the challenger lost their last card
	round      uint8
	challenger uint8
	n          uint8 // the bid
	bootOwner  uint8 // failure: whose boot was revealed
	lost       Card  // failure: the challenger's lost card (NoCard while pending); private
	nRev       uint8
	rev        [MaxCards]uint8 // reveals in order: seat<<1 | 1 if boot
}

// State is a game of Сосиски. Everything lives in fixed arrays so that
// Clone is a copy and Apply does not allocate.
type State struct {
	players    uint8
	first      uint8 // Config.First
	seed       uint64
	rng        rng
	round      uint8 // 1, 2, ...
	phase      Phase
	turn       uint8 // seat to act, except in PhaseSetup and PhaseOver (0)
	roundFirst uint8
	bid        uint8 // highest bid (0 before the bidding opens)
	bidder     uint8 // its bidder; the challenger from PhaseAttempt on
	winner     uint8 // noSeat until over
	fan        uint8 // PhasePick: 1 + index of the boot among the challenger's shuffled cards; 0 none
	seats      [MaxPlayers]board
	nRev       uint8
	rev        [MaxCards]uint8 // this attempt's reveals: seat<<1 | 1 if boot
	nBids      uint8
	bids       [maxBids]uint8 // this round's bidding: seat<<5 | n, n = 0 for a pass
	last       outcome
}

var _ game.State = (*State)(nil)
var _ game.Viewed[Public, SeatView] = (*State)(nil)

// New validates cfg and starts round 1 at setup: every seat holds 3
// sausages and the boot, board side 1 up.
func New(cfg Config) (*State, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	st := &State{
		players: uint8(cfg.Players),
		first:   uint8(cfg.First),
		seed:    cfg.Seed,
		rng:     rng(cfg.Seed),
		winner:  noSeat,
	}
	for i := 0; i < cfg.Players; i++ {
		st.seats[i] = board{hs: SausagesPerPlayer, hb: 1, side: 1}
	}
	st.startRound(uint8(cfg.First)) // round 0 → 1
	return st, nil
}

// Config returns the configuration the game was created with.
func (st *State) Config() Config {
	return Config{Players: int(st.players), First: game.Seat(st.first), Seed: st.seed}
}

// Seats is the number of players (including those out).
func (st *State) Seats() int { return int(st.players) }

// Over reports whether the game has ended.
func (st *State) Over() bool { return st.phase == PhaseOver }

// Phase is what the game waits for.
func (st *State) Phase() Phase { return st.phase }

// Round is the round number, from 1.
func (st *State) Round() int { return int(st.round) }

// Clone returns an independent copy.
func (st *State) Clone() *State {
	c := *st
	return &c
}

// Winner returns the winning seat once the game is over.
func (st *State) Winner() (game.Seat, bool) {
	if st.phase != PhaseOver {
		return -1, false
	}
	return game.Seat(st.winner), true
}

// Result is the outcome once Over: one winner, and each seat's score is
// its number of successful challenges (0–2), so the others can be ranked.
// [ruling]
func (st *State) Result() game.Result {
	if st.phase != PhaseOver {
		return game.Result{}
	}
	scores := make([]int, st.players)
	for i := range scores {
		scores[i] = int(st.seats[i].side) - 1
	}
	if l := st.last; l.valid && l.success && l.challenger == st.winner {
		scores[st.winner]++ // the winning second success
	}
	return game.Result{Scores: scores, Winners: []game.Seat{game.Seat(st.winner)}}
}

// ToAct returns the seats that may act: in setup every seat still to place
// its first card, in seat order; otherwise one seat; none once over.
func (st *State) ToAct() []game.Seat { return st.ToActAppend(nil) }

// ToActAppend appends ToAct to dst; with enough capacity it does not
// allocate.
func (st *State) ToActAppend(dst []game.Seat) []game.Seat {
	switch st.phase {
	case PhaseOver:
		return dst
	case PhaseSetup:
		for i := 0; i < int(st.players); i++ {
			if st.mustPlace(i) {
				dst = append(dst, game.Seat(i))
			}
		}
		return dst
	}
	return append(dst, game.Seat(st.turn))
}

// mustPlace reports whether seat i still has to place its setup card.
func (st *State) mustPlace(i int) bool {
	b := &st.seats[i]
	return b.n == 0 && !b.out()
}

// canAct reports whether seat may act now (ignoring what it does).
func (st *State) canAct(seat game.Seat) bool {
	switch {
	case st.phase == PhaseOver || seat < 0 || int(seat) >= int(st.players):
		return false
	case st.phase == PhaseSetup:
		return st.mustPlace(int(seat))
	}
	return seat == game.Seat(st.turn)
}

// total is the number of cards on all boards.
func (st *State) total() int {
	t := 0
	for i := 0; i < int(st.players); i++ {
		t += int(st.seats[i].n)
	}
	return t
}

// revealed is the number of cards turned over in the attempt.
func (st *State) revealed() int {
	t := 0
	for i := 0; i < int(st.players); i++ {
		t += int(st.seats[i].rev)
	}
	return t
}

// inGame counts the seats still in.
func (st *State) inGame() int {
	k := 0
	for i := 0; i < int(st.players); i++ {
		if !st.seats[i].out() {
			k++
		}
	}
	return k
}

// next returns the first seat clockwise after s that is still in and, if
// bidding, has not passed. (Callers guarantee one exists; s itself is
// returned otherwise.)
func (st *State) next(s uint8, bidding bool) uint8 {
	n := st.players
	for k := uint8(1); k <= n; k++ {
		i := (s + k) % n
		b := &st.seats[i]
		if !b.out() && !(bidding && b.passed) {
			return i
		}
	}
	return s
}

// Legal lists the actions seat may take now, in ascending order.
func (st *State) Legal(seat game.Seat) []game.Action {
	return st.LegalAppend(nil, seat)
}

// LegalAppend appends Legal(seat) to dst; with enough capacity it does not
// allocate.
func (st *State) LegalAppend(dst []game.Action, seat game.Seat) []game.Action {
	if !st.canAct(seat) {
		return dst
	}
	b := &st.seats[seat]
	places := func() {
		if b.hs > 0 {
			dst = append(dst, PlaceAction(Sausage))
		}
		if b.hb > 0 {
			dst = append(dst, PlaceAction(Boot))
		}
	}
	bids := func(from int) {
		for n := from; n <= st.total(); n++ {
			dst = append(dst, BidAction(n))
		}
	}
	switch st.phase {
	case PhaseSetup:
		places()
	case PhaseAdd:
		places()
		bids(1)
	case PhaseBid:
		dst = append(dst, PassAction())
		bids(int(st.bid) + 1)
	case PhaseAttempt:
		for i := 0; i < int(st.players); i++ {
			if st.canReveal(i) {
				dst = append(dst, RevealAction(game.Seat(i)))
			}
		}
	case PhaseName:
		for i := 0; i < int(st.players); i++ {
			if canName(st, game.Seat(i)) {
				dst = append(dst, NameAction(game.Seat(i)))
			}
		}
	case PhasePick:
		for i := 0; i < st.seats[st.bidder].owned(); i++ {
			dst = append(dst, PickAction(i))
		}
	case PhaseLose:
		if b.hs > 0 {
			dst = append(dst, LoseAction(Sausage))
		}
		if b.hb > 0 {
			dst = append(dst, LoseAction(Boot))
		}
	}
	return dst
}

// canReveal reports whether the challenger may turn a card of seat i.
func (st *State) canReveal(i int) bool {
	b := &st.seats[i]
	return i != int(st.bidder) && b.rev < b.n
}

// Apply performs action a for seat, or returns a *game.RuleError and leaves
// the state unchanged.
func (st *State) Apply(seat game.Seat, a game.Action) error {
	m, err := st.check(seat, a)
	if err != nil {
		return err
	}
	b := &st.seats[seat]
	switch m.Kind {
	case KindPlace:
		if m.Card == Boot {
			b.hb--
			b.boot = b.n + 1
		} else {
			b.hs--
		}
		b.n++
		if st.phase == PhaseSetup {
			for i := 0; i < int(st.players); i++ {
				if st.mustPlace(i) {
					return nil
				}
			}
			st.phase, st.turn = PhaseAdd, st.roundFirst
			return nil
		}
		st.turn = st.next(st.turn, false)
	case KindBid:
		st.logBid(seat, m.N)
		st.phase, st.bid, st.bidder = PhaseBid, uint8(m.N), uint8(seat)
		if m.N == st.total() {
			st.startAttempt()
			return nil
		}
		st.turn = st.next(st.turn, true)
	case KindPass:
		st.logBid(seat, 0)
		b.passed = true
		active := 0
		for i := 0; i < int(st.players); i++ {
			if !st.seats[i].out() && !st.seats[i].passed {
				active++
			}
		}
		if active == 1 {
			st.startAttempt()
			return nil
		}
		st.turn = st.next(st.turn, true)
	case KindReveal:
		st.reveal(uint8(m.Seat))
	case KindPick:
		lost := Sausage
		if int(st.fan) == m.Index+1 {
			lost = Boot
		}
		st.lose(lost)
	case KindLose:
		st.lose(m.Card)
	case KindName:
		st.startRound(uint8(m.Seat))
	}
	return nil
}

func (st *State) logBid(seat game.Seat, n int) {
	st.bids[st.nBids] = uint8(seat)<<5 | uint8(n)
	st.nBids++
}

// check validates an action without changing anything.
func (st *State) check(seat game.Seat, a game.Action) (Move, error) {
	if st.phase == PhaseOver {
		return Move{}, &game.RuleError{Code: CodeGameOver}
	}
	if seat < 0 || int(seat) >= int(st.players) {
		return Move{}, game.Errorf(CodeBadSeat, "seat %d", seat)
	}
	m, ok := Decode(a)
	if !ok {
		return m, game.Errorf(CodeUnknownAction, "action %d", a)
	}
	b := &st.seats[seat]
	if !st.canAct(seat) {
		if st.phase == PhaseBid && b.passed {
			return m, game.Errorf(CodeAlreadyPassed, "seat %d passed", seat)
		}
		return m, game.Errorf(CodeNotYourTurn, "%s: seats %v to act", st.phase, st.ToAct())
	}
	wrong := func(want string) error {
		return game.Errorf(CodeWrongPhase, "%s: %s", st.phase, want)
	}
	switch st.phase {
	case PhaseSetup, PhaseAdd:
		switch {
		case m.Kind == KindBid && st.phase == PhaseAdd:
			if m.N > st.total() {
				return m, game.Errorf(CodeBidTooHigh, "bid %d, %d cards on the boards", m.N, st.total())
			}
		case m.Kind != KindPlace:
			if st.phase == PhaseSetup {
				return m, wrong("place a card")
			}
			return m, wrong("add a card or bid")
		case b.hand() == 0:
			return m, game.Errorf(CodeMustChallenge, "no cards in hand")
		case !b.holds(m.Card):
			return m, game.Errorf(CodeNoSuchCard, "no %s in hand", m.Card)
		}
	case PhaseBid:
		switch {
		case m.Kind == KindPass:
		case m.Kind != KindBid:
			return m, wrong("raise or pass")
		case m.N <= int(st.bid):
			return m, game.Errorf(CodeBidTooLow, "bid %d, current %d", m.N, st.bid)
		case m.N > st.total():
			return m, game.Errorf(CodeBidTooHigh, "bid %d, %d cards on the boards", m.N, st.total())
		}
	case PhaseAttempt:
		switch {
		case m.Kind != KindReveal:
			return m, wrong("reveal a card")
		case int(m.Seat) >= int(st.players):
			return m, game.Errorf(CodeBadSeat, "reveal from seat %d", m.Seat)
		case !st.canReveal(int(m.Seat)):
			return m, game.Errorf(CodeStackEmpty, "seat %d has no face-down card to reveal", m.Seat)
		}
	case PhasePick:
		switch {
		case m.Kind != KindPick:
			return m, wrong("pick a card")
		case m.Index >= st.seats[st.bidder].owned():
			return m, game.Errorf(CodeBadPick, "pick %d of %d", m.Index, st.seats[st.bidder].owned())
		}
	case PhaseLose:
		switch {
		case m.Kind != KindLose:
			return m, wrong("lose a card")
		case !b.holds(m.Card):
			return m, game.Errorf(CodeNoSuchCard, "no %s to lose", m.Card)
		}
	case PhaseName:
		switch {
		case m.Kind != KindName:
			return m, wrong("name the first player")
		case !canName(st, m.Seat):
			return m, game.Errorf(CodeBadSeat, "seat %d cannot start", m.Seat)
		}
	}
	return m, nil
}

// logReveal records a revealed card and reports whether it is a boot.
func (st *State) logReveal(seat uint8, c Card) bool {
	e := seat << 1
	if c == Boot {
		e |= 1
	}
	st.rev[st.nRev] = e
	st.nRev++
	return c == Boot
}

// startAttempt makes the highest bidder the challenger and turns over
// their whole stack, top first. [ruling: wholeOwnStack]
func (st *State) startAttempt() {
	st.phase, st.turn = PhaseAttempt, st.bidder
	c := &st.seats[st.bidder]
	boot := false
	for i := int(c.n) - 1; i >= 0; i-- {
		boot = st.logReveal(st.bidder, c.at(i)) || boot
	}
	c.rev = c.n
	switch {
	case boot && wholeOwnStack:
		st.fail(st.bidder)
	case st.revealed() >= int(st.bid):
		st.succeed()
	}
}

// reveal turns the top face-down card of seat s.
func (st *State) reveal(s uint8) {
	b := &st.seats[s]
	pos := int(b.n) - 1 - int(b.rev)
	b.rev++
	switch {
	case st.logReveal(s, b.at(pos)):
		st.fail(s)
	case st.revealed() >= int(st.bid):
		st.succeed()
	}
}

// record starts the outcome of this round's attempt.
func (st *State) record(success bool, owner uint8) {
	st.last = outcome{
		valid: true, success: success, round: st.round, challenger: st.bidder,
		n: st.bid, bootOwner: owner, nRev: st.nRev, rev: st.rev,
	}
}

// succeed: side 2, or the game if already on side 2.
func (st *State) succeed() {
	st.record(true, 0)
	c := &st.seats[st.bidder]
	if c.side == 2 {
		st.end(st.bidder)
		return
	}
	c.side = 2
	st.startRound(st.bidder)
}

// fail: everyone takes their cards back; the challenger's loss is decided
// by the boot's owner (blind) or by the challenger (own boot).
func (st *State) fail(owner uint8) {
	st.record(false, owner)
	for i := 0; i < int(st.players); i++ {
		st.seats[i].collect()
	}
	st.turn = owner
	if owner == st.bidder {
		st.phase = PhaseLose
		return
	}
	st.phase = PhasePick
	c := &st.seats[st.bidder]
	st.fan = 0
	if c.hb == 1 {
		st.fan = uint8(st.rng.Below(c.owned())) + 1
	}
}

// lose removes card k from the challenger's hand and moves on.
func (st *State) lose(k Card) {
	c := &st.seats[st.bidder]
	if k == Boot {
		c.hb--
	} else {
		c.hs--
	}
	st.fan = 0
	st.last.lost = k
	st.last.out = c.out()
	if c.out() && st.inGame() == 1 {
		for i := 0; i < int(st.players); i++ {
			if !st.seats[i].out() {
				st.end(uint8(i))
				return
			}
		}
	}
	first, named := nextFirst(st.bidder, st.last.bootOwner, c.out())
	if named {
		st.phase, st.turn = PhaseName, st.bidder
		return
	}
	st.startRound(first)
}

// clearRound takes every stack back into its hand and forgets the bidding
// and the reveals.
func (st *State) clearRound() {
	for i := 0; i < int(st.players); i++ {
		st.seats[i].collect()
		st.seats[i].passed = false
	}
	st.bid, st.bidder, st.fan, st.turn = 0, 0, 0, 0
	st.nRev, st.rev = 0, [MaxCards]uint8{}
	st.nBids, st.bids = 0, [maxBids]uint8{}
}

// startRound begins the next round's setup with first as its first player.
func (st *State) startRound(first uint8) {
	st.clearRound()
	st.round++
	st.roundFirst = first
	st.phase = PhaseSetup
}

// end finishes the game with winner w.
func (st *State) end(w uint8) {
	st.clearRound()
	st.phase, st.winner = PhaseOver, w
}
