package trickchef

import (
	"errors"
	"math/bits"

	"github.com/trickchef/trickchef/game"
)

// Rounds is the number of rounds in a game.
const Rounds = 3

// ChefsPerSuit is the number of chef tokens of each suit; one is set aside
// at round start, the rest form the centre pool.
const ChefsPerSuit = 5

// Phase is what the game waits for.
type Phase uint8

const (
	// PhasePick: at round start, ToAct picks one of the set-aside chefs.
	PhasePick Phase = iota
	// PhasePlay: ToAct plays a card (with coins) into the trick.
	PhasePlay
	// PhaseAward: the trick is resolved; ToAct, who played its lowest card,
	// chooses the suit of the chef taken from the centre pool.
	PhaseAward
	// PhaseOver: the game has ended.
	PhaseOver
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case PhasePick:
		return "pick"
	case PhasePlay:
		return "play"
	case PhaseAward:
		return "award"
	case PhaseOver:
		return "over"
	}
	return "?"
}

// Config sets up a table.
type Config struct {
	Players int       // 3 or 4
	Removed Suit      // the suit out of the game with 3 players; see DefaultConfig
	First   game.Seat // first player of round 1: the table's creator [ruling]
	Seed    uint64
}

// DefaultConfig returns a config with the default removed suit (green).
// Note that a zero Config removes red, since Red is Suit 0.
func DefaultConfig(players int, first game.Seat, seed uint64) Config {
	return Config{Players: players, Removed: DefaultRemoved, First: first, Seed: seed}
}

func (c Config) validate() error {
	if c.Players != 3 && c.Players != 4 {
		return errors.New("trickchef: players must be 3 or 4")
	}
	if c.Removed >= NumSuits {
		return errors.New("trickchef: removed suit out of range")
	}
	if c.First < 0 || int(c.First) >= c.Players {
		return errors.New("trickchef: first seat out of range")
	}
	return nil
}

// play is one card in a trick; the seat follows from the leader and the
// position.
type play struct {
	card  uint8
	coins int8
}

// noSuit marks a chef award not chosen yet.
const noSuit = 0xFF

// trickRecord is the last completed trick, kept for the views.
type trickRecord struct {
	valid    bool
	leader   uint8
	plays    [4]play
	trumps   SuitSet
	winner   uint8 // seat
	taker    uint8 // seat
	chefSuit uint8 // suit, or noSuit while the taker chooses
	income   uint8 // seats paid a coin, bit mask
}

// State is a game of Трик-н-Шеф. Everything lives in fixed arrays so that
// Clone is a copy and Apply does not allocate.
type State struct {
	players    uint8
	removed    Suit
	first      uint8 // Config.First
	seed       uint64
	rng        rng
	round      uint8 // 1..3
	trick      uint8 // 1..10
	phase      Phase
	roundFirst uint8
	leader     uint8
	turn       uint8 // seat to act (unused when over)
	hands      [4]cardSet
	won        [4]cardSet
	pool       [NumSuits]uint8
	setAside   [NumSuits]uint8
	chefs      [4][NumSuits]uint8 // [seat][suit]
	coins      [4]uint8
	reserve    uint8
	nPlayed    uint8
	plays      [4]play // current trick in playing order
	tricksWon  [4]uint8
	last       trickRecord
	results    [Rounds]roundRecord // finished rounds
}

var _ game.State = (*State)(nil)
var _ game.Viewed[Public, SeatView] = (*State)(nil)

// New validates cfg, shuffles with cfg.Seed and deals round 1.
func New(cfg Config) (*State, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	st := newState(cfg)
	st.startRound(uint8(cfg.First), nil)
	return st, nil
}

// NewFromDeal is New with round 1's hands given (for tests and puzzles);
// later rounds are dealt from cfg.Seed. hands[i] is seat i's hand: 10
// cards each, together exactly the cards in play.
func NewFromDeal(cfg Config, hands [][]Card) (*State, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if len(hands) != cfg.Players {
		return nil, errors.New("trickchef: need one hand per seat")
	}
	deck := deckOf(inPlay(cfg.Players, cfg.Removed))
	var sets [4]cardSet
	var all cardSet
	for i, h := range hands {
		if len(h) != HandSize {
			return nil, errors.New("trickchef: each hand must have 10 cards")
		}
		for _, c := range h {
			if !c.Valid() || !deck.has(c.index()) || all.has(c.index()) {
				return nil, errors.New("trickchef: bad or repeated card " + c.String())
			}
			all |= 1 << c.index()
			sets[i] |= 1 << c.index()
		}
	}
	st := newState(cfg)
	st.startRound(uint8(cfg.First), &sets)
	return st, nil
}

func newState(cfg Config) *State {
	return &State{
		players: uint8(cfg.Players),
		removed: cfg.Removed,
		first:   uint8(cfg.First),
		seed:    cfg.Seed,
		rng:     rng(cfg.Seed),
		round:   1,
	}
}

// Config returns the configuration the game was created with.
func (st *State) Config() Config {
	return Config{Players: int(st.players), Removed: st.removed, First: game.Seat(st.first), Seed: st.seed}
}

func (st *State) suits() SuitSet { return inPlay(int(st.players), st.removed) }

// resetTokens puts every chef and coin back: one chef per suit in play set
// aside, the rest in the pool, all coins in the reserve.
func (st *State) resetTokens() {
	suits := st.suits()
	for s := Suit(0); s < NumSuits; s++ {
		st.pool[s], st.setAside[s] = 0, 0
		if suits.Has(s) {
			st.pool[s], st.setAside[s] = ChefsPerSuit-1, 1
		}
	}
	st.chefs = [4][NumSuits]uint8{}
	st.coins = [4]uint8{}
	st.reserve = TotalCoins
}

// startRound sets up round st.round: tokens, a deal (given or shuffled),
// then the set-aside chef picks from first.
func (st *State) startRound(first uint8, deal *[4]cardSet) {
	st.resetTokens()
	st.won = [4]cardSet{}
	st.tricksWon = [4]uint8{}
	st.nPlayed = 0
	st.plays = [4]play{}
	st.trick = 1
	st.roundFirst, st.leader, st.turn = first, first, first
	if deal != nil {
		st.hands = *deal
	} else {
		st.shuffleDeal()
	}
	st.phase = PhasePick
	st.autoPick()
}

// shuffleDeal shuffles the cards in play and deals 10 to each seat.
func (st *State) shuffleDeal() {
	var deck [NumSuits * MaxValue]uint8
	n := 0
	for x := uint64(deckOf(st.suits())); x != 0; x &= x - 1 {
		deck[n] = uint8(bits.TrailingZeros64(x))
		n++
	}
	for i := n - 1; i > 0; i-- {
		j := st.rng.Below(i + 1)
		deck[i], deck[j] = deck[j], deck[i]
	}
	st.hands = [4]cardSet{}
	for i := 0; i < n; i++ {
		st.hands[i/HandSize] |= 1 << deck[i]
	}
}

// autoPick gives the last picker the only set-aside chef left, then starts
// the first trick.
func (st *State) autoPick() {
	left := 0
	var only Suit
	for s := Suit(0); s < NumSuits; s++ {
		if st.setAside[s] > 0 {
			left += int(st.setAside[s])
			only = s
		}
	}
	if left == 1 {
		st.setAside[only]--
		st.chefs[st.turn][only]++
		left = 0
	}
	if left == 0 {
		st.phase = PhasePlay
		st.turn = st.leader
	}
}

// Seats is the number of players.
func (st *State) Seats() int { return int(st.players) }

// Over reports whether the game has ended.
func (st *State) Over() bool { return st.phase == PhaseOver }

// Phase is what the game waits for.
func (st *State) Phase() Phase { return st.phase }

// Current returns the seat to act, or false when the game is over. Unlike
// ToAct it does not allocate.
func (st *State) Current() (game.Seat, bool) {
	if st.phase == PhaseOver {
		return -1, false
	}
	return game.Seat(st.turn), true
}

// ToAct returns the one seat to act, or nothing when the game is over.
func (st *State) ToAct() []game.Seat {
	if s, ok := st.Current(); ok {
		return []game.Seat{s}
	}
	return nil
}

// Result is the outcome once Over: total scores and the winner(s).
func (st *State) Result() game.Result {
	if st.phase != PhaseOver {
		return game.Result{}
	}
	scores, winners, _ := st.finalResult()
	return game.Result{Scores: scores, Winners: winners}
}

// Clone returns an independent copy.
func (st *State) Clone() *State {
	c := *st
	return &c
}

// playable is the set of cards seat may play now: the led suit if it holds
// any, else its whole hand.
func (st *State) playable(seat uint8) cardSet {
	h := st.hands[seat]
	if st.nPlayed == 0 {
		return h
	}
	if f := h.ofSuit(cardAt(st.plays[0].card).Suit); f != 0 {
		return f
	}
	return h
}

// Legal lists the actions seat may take now, in ascending order.
func (st *State) Legal(seat game.Seat) []game.Action {
	return st.LegalAppend(nil, seat)
}

// LegalAppend appends Legal(seat) to dst; with enough capacity it does not
// allocate.
func (st *State) LegalAppend(dst []game.Action, seat game.Seat) []game.Action {
	if st.phase == PhaseOver || seat != game.Seat(st.turn) {
		return dst
	}
	switch st.phase {
	case PhasePick, PhaseAward:
		from := &st.pool
		if st.phase == PhasePick {
			from = &st.setAside
		}
		for s := Suit(0); s < NumSuits; s++ {
			if from[s] > 0 {
				dst = append(dst, ChefAction(s))
			}
		}
	case PhasePlay:
		k := int(st.coins[seat])
		for x := uint64(st.playable(uint8(seat))); x != 0; x &= x - 1 {
			base := game.Action(playBase + bits.TrailingZeros64(x)*coinSpan + TotalCoins)
			for c := -k; c <= k; c++ {
				dst = append(dst, base+game.Action(c))
			}
		}
	}
	return dst
}

// Apply performs action a for seat, or returns a *game.RuleError and leaves
// the state unchanged.
func (st *State) Apply(seat game.Seat, a game.Action) error {
	if err := st.check(seat, a); err != nil {
		return err
	}
	m, _ := Decode(a)
	switch st.phase {
	case PhasePick:
		st.setAside[m.Suit]--
		st.chefs[seat][m.Suit]++
		st.turn = (st.turn + 1) % st.players
		st.autoPick()
	case PhaseAward:
		st.award(m.Suit)
	case PhasePlay:
		st.playCard(m.Card.index(), m.Coins)
	}
	return nil
}

// check validates an action without changing anything.
func (st *State) check(seat game.Seat, a game.Action) error {
	if st.phase == PhaseOver {
		return &game.RuleError{Code: CodeGameOver}
	}
	if seat < 0 || int(seat) >= int(st.players) {
		return game.Errorf(CodeBadSeat, "seat %d", seat)
	}
	if seat != game.Seat(st.turn) {
		return game.Errorf(CodeNotYourTurn, "seat %d to act", st.turn)
	}
	m, ok := Decode(a)
	if !ok {
		return game.Errorf(CodeUnknownAction, "action %d", a)
	}
	switch st.phase {
	case PhasePick, PhaseAward:
		if m.Kind != KindChef {
			return game.Errorf(CodeWrongPhase, "%s: choose a chef", st.phase)
		}
		if st.phase == PhasePick && st.setAside[m.Suit] == 0 {
			return game.Errorf(CodeChefNotAvailable, "no %s chef set aside", m.Suit)
		}
		if st.phase == PhaseAward && st.pool[m.Suit] == 0 {
			return game.Errorf(CodeChefNotAvailable, "no %s chef in the pool", m.Suit)
		}
	case PhasePlay:
		if m.Kind != KindPlay {
			return game.Errorf(CodeWrongPhase, "play: play a card")
		}
		i := m.Card.index()
		if !st.hands[seat].has(i) {
			return game.Errorf(CodeCardNotInHand, "%s", m.Card)
		}
		if !st.playable(uint8(seat)).has(i) {
			return game.Errorf(CodeMustFollowSuit, "led %s", cardAt(st.plays[0].card).Suit)
		}
		if k := max(m.Coins, -m.Coins); k > int(st.coins[seat]) {
			return game.Errorf(CodeNotEnoughCoins, "%d coins, has %d", k, st.coins[seat])
		}
	}
	return nil
}

// playCard moves a card and its coins into the trick and resolves the trick
// when everyone has played.
func (st *State) playCard(card uint8, coins int) {
	seat := st.turn
	st.hands[seat] &^= 1 << card
	st.coins[seat] -= uint8(max(coins, -coins))
	st.plays[st.nPlayed] = play{card: card, coins: int8(coins)}
	st.nPlayed++
	st.turn = (st.turn + 1) % st.players
	if st.nPlayed == st.players {
		st.resolveTrick()
	}
}

// resolveTrick scores a complete trick: trumps from the pool as it stands,
// winner, chef taker, cards to the winner, coins back and income paid; then
// the chef award (automatic if only one suit is left in the pool).
func (st *State) resolveTrick() {
	n := int(st.players)
	var suits [4]Suit
	var eff [4]int
	var order [4]uint8
	placed := 0
	for i := 0; i < n; i++ {
		p := st.plays[i]
		c := cardAt(p.card)
		suits[i], eff[i] = c.Suit, Effective(c, int(p.coins))
		order[i] = (st.leader + uint8(i)) % st.players
		placed += max(int(p.coins), -int(p.coins))
	}
	trumps := trumpsOf(&st.pool)
	w, ch := resolve(n, &suits, &eff, trumps)
	winner, taker := order[w], order[ch]
	for i := 0; i < n; i++ {
		st.won[winner] |= 1 << st.plays[i].card
	}
	st.tricksWon[winner]++
	needs := uint8(1<<st.players-1) &^ (1<<winner | 1<<taker)
	paid := settleTrickCoins(&st.reserve, &st.coins, placed, &order, n, needs)
	st.last = trickRecord{
		valid: true, leader: st.leader, plays: st.plays, trumps: trumps,
		winner: winner, taker: taker, chefSuit: noSuit, income: paid,
	}
	st.nPlayed = 0
	st.plays = [4]play{}
	st.leader = winner
	st.phase = PhaseAward
	st.turn = taker
	only, count := Suit(0), 0
	for s := Suit(0); s < NumSuits; s++ {
		if st.pool[s] > 0 {
			only = s
			count++
		}
	}
	if count == 1 {
		st.award(only)
	}
}

// award gives the taker a chef of suit s from the pool and moves on to the
// next trick or round.
func (st *State) award(s Suit) {
	st.pool[s]--
	st.chefs[st.last.taker][s]++
	st.last.chefSuit = uint8(s)
	if st.trick < HandSize {
		st.trick++
		st.phase = PhasePlay
		st.turn = st.leader
		return
	}
	st.endRound()
}

// endRound records the round's scoring and sets up the next round, or ends
// the game after round 3.
func (st *State) endRound() {
	r := int(st.round) - 1
	st.results[r] = roundRecord{first: st.roundFirst, won: st.won, chefs: st.chefs, coins: st.coins}
	if st.round == Rounds {
		st.phase = PhaseOver
		st.resetTokens()
		st.won = [4]cardSet{}
		st.tricksWon = [4]uint8{}
		st.turn = 0
		return
	}
	st.round++
	totals := st.totals()
	first := nextRoundFirst(totals, int(st.players), game.Seat(st.roundFirst))
	st.startRound(uint8(first), nil)
}
