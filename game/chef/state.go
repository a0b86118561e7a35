package chef

import (
	"errors"

	"github.com/trickchef/trickchef/game"
)

// Step is the point of the turn the game waits at.
type Step uint8

const (
	// StepTurn: the seat to act starts its turn: draw, take the discard
	// top, play an action card, discard a duplicate (or announce first).
	StepTurn Step = iota
	// StepDrawn: the seat drew a card (Public.Drawn, now in front of it)
	// and may discard a dish, play the drawn action card, redraw (a Chef
	// drawn onto a complete menu), announce, or end the turn.
	StepDrawn
	// StepOver: the game has ended.
	StepOver
)

// String names the step.
func (p Step) String() string {
	switch p {
	case StepTurn:
		return "turn"
	case StepDrawn:
		return "drawn"
	case StepOver:
		return "over"
	}
	return "?"
}

// MaxPlayers is the largest table.
const MaxPlayers = 8

// Config sets up a table.
type Config struct {
	Players int       // MinPlayers..MaxPlayers
	First   game.Seat // who begins: the seat left of the dealer (the table's creator) [ruling]
	// AutoAnnounce makes the engine announce «Счёт!» for every complete
	// menu instead of waiting for the announce action (a table setting).
	AutoAnnounce bool
	Seed         uint64
}

func (c Config) validate() error {
	if c.Players < MinPlayers || c.Players > MaxPlayers {
		return errors.New("chef: players must be 2 to 8")
	}
	if c.First < 0 || int(c.First) >= c.Players {
		return errors.New("chef: first seat out of range")
	}
	return nil
}

// Seat flags.
const (
	flagAnnounced = 1 << iota // «Счёт!» announced and not lapsed
	flagSkipped               // passed over by a penalty; cleared when its next turn begins
)

// seat is what lies in front of one player.
type seat struct {
	n     [NumKinds]uint8 // cards by kind; Addition only for the winner
	flags uint8
}

func (s *seat) dishes() int {
	t := 0
	for c := Starter; c <= Drink; c++ {
		t += int(s.n[c])
	}
	return t
}

func (s *seat) colours() int {
	t := 0
	for c := Starter; c <= Drink; c++ {
		if s.n[c] > 0 {
			t++
		}
	}
	return t
}

func (s *seat) actions() int {
	t := 0
	for c := Hangover; c <= ChefCard; c++ {
		t += int(s.n[c])
	}
	return t
}

// complete reports whether the seat's cards are exactly six dishes of six
// colours and no action card. (The Addition, which only a winner keeps, is
// not counted.)
func (s *seat) complete() bool {
	for c := Starter; c <= Drink; c++ {
		if s.n[c] != 1 {
			return false
		}
	}
	for c := Hangover; c <= ChefCard; c++ {
		if s.n[c] != 0 {
			return false
		}
	}
	return true
}

// surplus counts the cards beyond one dish per colour: duplicates and
// action cards (the closing-time tie-break).
func (s *seat) surplus() int { return s.dishes() - s.colours() + s.actions() }

func (s *seat) announced() bool { return s.flags&flagAnnounced != 0 }

// event is one entry of the log ring (see Event).
type event struct {
	kind         EventKind
	seat, target uint8 // noSeat if none
	card, d1, d2 Card
}

// noSeat marks an unset seat in events.
const noSeat = 0xFF

// MaxEvents is how many of the most recent events the state keeps (and
// Public.Events shows).
const MaxEvents = 16

// State is a game of «Меню шефа». Everything lives in fixed arrays so that
// Clone is a copy and Apply does not allocate. Unused array slots are
// always zero, so equal games are equal values.
type State struct {
	players  uint8
	first    uint8
	auto     bool
	seed     uint64
	rng      rng
	step     Step
	turn     uint8  // the seat to act; the last to act once over
	ccw      bool   // direction: false clockwise (seat+1), true counter-clockwise
	drawn    Card   // StepDrawn: the card just drawn
	turnNo   uint32 // turns begun, from 1
	rebuilds uint8  // times the pile was rebuilt from the discard pile
	winners  uint8  // bit per seat, once over
	closed   bool   // over by closing time rather than by an Addition
	npile    uint8
	ndisc    uint8
	pile     [DeckSize]Card // face down; pile[npile-1] is the top
	disc     [DeckSize]Card // face up; disc[ndisc-1] is the top
	removed  [NumKinds]uint8
	seats    [MaxPlayers]seat
	nev      uint32 // events logged so far; event i lives in ev[i%MaxEvents]
	ev       [MaxEvents]event
}

var _ game.State = (*State)(nil)
var _ game.Viewed[Public, SeatView] = (*State)(nil)

// New validates cfg, shuffles the 100 cards into the pile and turns cards
// from it onto the discard pile until a dish shows. Config.First begins.
func New(cfg Config) (*State, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	st := &State{
		players: uint8(cfg.Players),
		first:   uint8(cfg.First),
		auto:    cfg.AutoAnnounce,
		seed:    cfg.Seed,
		rng:     rng(cfg.Seed),
		turn:    uint8(cfg.First),
		turnNo:  1,
	}
	for c := Starter; c <= Addition; c++ {
		for k := 0; k < BoxCount(c); k++ {
			st.pile[st.npile] = c
			st.npile++
		}
	}
	st.shuffle(st.pile[:st.npile])
	// Turn cards until a dish shows; the others stay under it. [ruling]
	for {
		c := st.popPile()
		st.pushDisc(c)
		if c.IsDish() {
			break
		}
	}
	return st, nil
}

// shuffle permutes cards with the state's generator (Fisher–Yates).
func (st *State) shuffle(cards []Card) {
	for i := len(cards) - 1; i > 0; i-- {
		j := st.rng.Below(i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
}

func (st *State) popPile() Card {
	st.npile--
	c := st.pile[st.npile]
	st.pile[st.npile] = NoCard
	return c
}

func (st *State) pushDisc(c Card) {
	st.disc[st.ndisc] = c
	st.ndisc++
}

func (st *State) popDisc() Card {
	st.ndisc--
	c := st.disc[st.ndisc]
	st.disc[st.ndisc] = NoCard
	return c
}

func (st *State) discTop() Card {
	if st.ndisc == 0 {
		return NoCard
	}
	return st.disc[st.ndisc-1]
}

// Config returns the configuration the game was created with.
func (st *State) Config() Config {
	return Config{Players: int(st.players), First: game.Seat(st.first), AutoAnnounce: st.auto, Seed: st.seed}
}

// Seats is the number of players.
func (st *State) Seats() int { return int(st.players) }

// Over reports whether the game has ended.
func (st *State) Over() bool { return st.step == StepOver }

// Step is the point of the turn the game waits at.
func (st *State) Step() Step { return st.step }

// Clone returns an independent copy.
func (st *State) Clone() *State {
	c := *st
	return &c
}

// Winners returns the winning seats once the game is over (nil before).
func (st *State) Winners() []game.Seat {
	if st.step != StepOver {
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

// Result is the outcome once Over: the winners, and per seat its score
// (see score in rulings.go: distinct colours in front of it, 7 for the
// winner by the Addition).
func (st *State) Result() game.Result {
	if st.step != StepOver {
		return game.Result{}
	}
	scores := make([]int, st.players)
	for i := range scores {
		scores[i] = score(&st.seats[i])
	}
	return game.Result{Scores: scores, Winners: st.Winners()}
}

// ToAct returns the seat whose turn it is; none once over.
func (st *State) ToAct() []game.Seat { return st.ToActAppend(nil) }

// ToActAppend appends ToAct to dst; with enough capacity it does not
// allocate.
func (st *State) ToActAppend(dst []game.Seat) []game.Seat {
	if st.step == StepOver {
		return dst
	}
	return append(dst, game.Seat(st.turn))
}

// nextOf returns the seat after s in the current direction.
func (st *State) nextOf(s uint8) uint8 {
	if st.ccw {
		if s == 0 {
			return st.players - 1
		}
		return s - 1
	}
	if s+1 == st.players {
		return 0
	}
	return s + 1
}

// victim is the seat an action card of the seat to act hits.
func (st *State) victim() *seat { return &st.seats[st.nextOf(st.turn)] }

// canTake reports whether the seat to act may take the discard top.
func (st *State) canTake(me *seat) bool {
	top := st.discTop()
	if top == Addition {
		return me.announced() && me.complete()
	}
	return top.IsDish() && me.n[top] == 0
}

// canAnnounce reports whether me may announce now.
func (st *State) canAnnounce(me *seat) bool {
	return !st.auto && !me.announced() && me.complete()
}

// canRedraw reports whether the seat to act, in StepDrawn, may discard the
// drawn Chef and draw again.
func (st *State) canRedraw(me *seat) bool {
	return st.drawn == ChefCard && completeWithoutChef(me) && st.pileAvailable()
}

// completeWithoutChef reports whether the seat's cards minus one Chef form
// a complete menu.
func completeWithoutChef(me *seat) bool {
	if me.n[ChefCard] == 0 {
		return false
	}
	c := *me
	c.n[ChefCard]--
	return c.complete()
}

// pileAvailable reports whether a card can be drawn now: the pile is not
// empty, or it may still be rebuilt.
func (st *State) pileAvailable() bool { return st.npile > 0 || st.rebuilds < MaxRebuilds }

// Legal lists the actions seat may take now, in ascending order.
func (st *State) Legal(s game.Seat) []game.Action { return st.LegalAppend(nil, s) }

// LegalAppend appends Legal(s) to dst; with enough capacity (MaxAction+1)
// it does not allocate.
func (st *State) LegalAppend(dst []game.Action, s game.Seat) []game.Action {
	if st.step == StepOver || s != game.Seat(st.turn) {
		return dst
	}
	me, v := &st.seats[st.turn], st.victim()
	// The action cards that may be played in this step: after a draw only
	// the drawn one.
	var play [NumKinds]bool
	need := uint8(2) // a discard without a draw must be a duplicate
	if st.step == StepTurn {
		dst = append(dst, actDraw)
		if st.canTake(me) {
			dst = append(dst, actTake)
		}
		for c := Hangover; c <= ChefCard; c++ {
			play[c] = me.n[c] > 0
		}
	} else {
		dst = append(dst, actEnd)
		play[st.drawn] = true
		need = 1
	}
	if st.canAnnounce(me) {
		dst = append(dst, actAnnounce)
	}
	if st.step == StepDrawn && st.canRedraw(me) {
		dst = append(dst, actRedraw)
	}
	if play[EmptyPlate] {
		dst = append(dst, actEmptyPlate)
	}
	if play[BlankMenu] {
		dst = append(dst, actBlankMenu)
	}
	for i := 0; i < NumColours; i++ {
		if me.n[Starter+Card(i)] >= need {
			dst = append(dst, game.Action(discardBase+i))
		}
	}
	vd := &v.n
	if play[Diet] {
		for i := 0; i < NumColours; i++ {
			if vd[Starter+Card(i)] > 0 {
				dst = append(dst, game.Action(dietBase+i))
			}
		}
	}
	if play[ChefCard] {
		for i := 0; i < NumColours; i++ {
			if vd[Starter+Card(i)] > 0 {
				dst = append(dst, game.Action(chefBase+i))
			}
		}
	}
	if play[Hangover] {
		for i := 0; i < NumColours; i++ {
			k1 := vd[Starter+Card(i)]
			if k1 == 0 {
				continue
			}
			for j := 0; j < NumColours; j++ {
				if k2 := vd[Starter+Card(j)]; k2 > 0 && (i != j || k1 >= 2) {
					dst = append(dst, game.Action(hangoverBase+NumColours*i+j))
				}
			}
		}
	}
	return dst
}

// Apply performs action a for seat s, or returns a *game.RuleError and
// leaves the state unchanged.
func (st *State) Apply(s game.Seat, a game.Action) error {
	m, err := st.check(s, a)
	if err != nil {
		return err
	}
	st.do(m)
	return nil
}

// check validates an action without changing anything.
func (st *State) check(s game.Seat, a game.Action) (Move, error) {
	if st.step == StepOver {
		return Move{}, &game.RuleError{Code: CodeGameOver}
	}
	if s < 0 || int(s) >= int(st.players) {
		return Move{}, game.Errorf(CodeBadSeat, "seat %d", s)
	}
	m, ok := DecodeAction(a)
	if !ok {
		return m, game.Errorf(CodeUnknownAction, "action %d", a)
	}
	if s != game.Seat(st.turn) {
		return m, game.Errorf(CodeNotYourTurn, "seat %d to act", st.turn)
	}
	me, v := &st.seats[s], st.victim()
	drawn := st.step == StepDrawn
	switch m.Kind {
	case KindDraw, KindTake:
		if drawn {
			return m, game.Errorf(CodeMustFinishDraw, "%s after drawing", m.Kind)
		}
		if m.Kind == KindTake && !st.canTake(me) {
			top := st.discTop()
			if top == Addition && me.complete() {
				return m, game.Errorf(CodeNotAnnounced, "the Addition needs an announced menu")
			}
			return m, game.Errorf(CodeCannotTakeDiscard, "discard top %s", top)
		}
	case KindEnd:
		if !drawn {
			return m, game.Errorf(CodeNotAfterDraw, "end before drawing")
		}
	case KindAnnounce:
		switch {
		case st.auto:
			return m, game.Errorf(CodeAutoAnnounce, "announced automatically at this table")
		case me.announced():
			return m, game.Errorf(CodeAlreadyAnnounced, "already announced")
		case !me.complete():
			return m, game.Errorf(CodeNotComplete, "menu not complete")
		}
	case KindRedraw:
		switch {
		case !drawn:
			return m, game.Errorf(CodeNotAfterDraw, "redraw before drawing")
		case st.drawn != ChefCard:
			return m, game.Errorf(CodeCannotRedraw, "drew %s, not a Chef", st.drawn)
		case !completeWithoutChef(me):
			return m, game.Errorf(CodeNotComplete, "menu not complete without the Chef")
		case !st.pileAvailable():
			return m, game.Errorf(CodeCannotRedraw, "the pile is out for good")
		}
	case KindDiscard:
		switch {
		case me.n[m.Dish] == 0:
			return m, game.Errorf(CodeNoSuchDish, "no %s to discard", m.Dish.Key())
		case !drawn && me.n[m.Dish] < 2:
			return m, game.Errorf(CodeNotADuplicate, "one %s only", m.Dish.Key())
		}
	case KindPlay:
		switch {
		case drawn && m.Card != st.drawn:
			return m, game.Errorf(CodeNotTheDrawnCard, "drew %s, played %s", st.drawn, m.Card)
		case me.n[m.Card] == 0:
			return m, game.Errorf(CodeNoSuchCard, "no %s in front", m.Card.Key())
		}
		switch m.Card {
		case Hangover:
			switch {
			case v.dishes() < 2:
				return m, game.Errorf(CodeNotEnoughDishes, "next player has %d dishes", v.dishes())
			case v.n[m.Dish] == 0 || v.n[m.Dish2] == 0 || m.Dish == m.Dish2 && v.n[m.Dish] < 2:
				return m, game.Errorf(CodeNoSuchDish, "next player lacks %s%s", m.Dish, m.Dish2)
			}
		case Diet:
			switch {
			case v.dishes() < 1:
				return m, game.Errorf(CodeNotEnoughDishes, "next player has no dish")
			case v.n[m.Dish] == 0:
				return m, game.Errorf(CodeNoSuchDish, "next player lacks %s", m.Dish.Key())
			}
		case ChefCard:
			if v.n[m.Dish] == 0 {
				return m, game.Errorf(CodeNoDishToTake, "next player has no %s", m.Dish.Key())
			}
		}
	}
	return m, nil
}

// do performs a checked move.
func (st *State) do(m Move) {
	t := st.turn
	me := &st.seats[t]
	switch m.Kind {
	case KindDraw:
		st.draw()
	case KindTake:
		c := st.popDisc()
		st.log(EventTake, t, noSeat, c, NoCard, NoCard)
		me.n[c]++
		if c == Addition {
			st.win()
			return
		}
		st.endTurn(false)
	case KindEnd:
		st.endTurn(false)
	case KindAnnounce:
		me.flags |= flagAnnounced
		st.log(EventAnnounce, t, noSeat, NoCard, NoCard, NoCard)
	case KindRedraw:
		me.n[ChefCard]--
		st.pushDisc(ChefCard)
		st.log(EventRedraw, t, noSeat, ChefCard, NoCard, NoCard)
		if st.npile == 0 {
			st.rebuild()
		}
		st.draw()
	case KindDiscard:
		me.n[m.Dish]--
		st.pushDisc(m.Dish)
		st.log(EventDiscard, t, noSeat, m.Dish, NoCard, NoCard)
		st.endTurn(false)
	case KindPlay:
		vs := st.nextOf(t)
		v := &st.seats[vs]
		me.n[m.Card]--
		st.pushDisc(m.Card)
		skip := false
		switch m.Card {
		case Hangover:
			st.lose(v, m.Dish)
			st.lose(v, m.Dish2)
			skip = true
		case Diet:
			st.lose(v, m.Dish)
			skip = true
		case EmptyPlate:
			skip = true
		case BlankMenu:
			st.ccw = !st.ccw
		case ChefCard:
			v.n[m.Dish]--
			me.n[m.Dish]++
		}
		st.log(EventPlay, t, vs, m.Card, m.Dish, m.Dish2)
		st.endTurn(skip)
	}
	if st.auto && st.step != StepOver {
		st.autoAnnounce()
	}
}

// lose takes dish d from victim v: onto the discard pile, or out of the
// game with two players. [ruling]
func (st *State) lose(v *seat, d Card) {
	v.n[d]--
	if st.players == 2 {
		st.removed[d]++
		return
	}
	st.pushDisc(d)
}

// draw gives the seat to act the top card of the pile (the pile is not
// empty here).
func (st *State) draw() {
	t := st.turn
	me := &st.seats[t]
	c := st.popPile()
	st.log(EventDraw, t, noSeat, c, NoCard, NoCard)
	if c == Addition {
		if me.announced() && me.complete() {
			me.n[Addition]++
			st.win()
			return
		}
		// Useless now: straight to the discard pile, and the turn ends.
		// [ruling]
		st.pushDisc(Addition)
		st.log(EventBillDiscarded, t, noSeat, Addition, NoCard, NoCard)
		st.endTurn(false)
		return
	}
	me.n[c]++
	st.step, st.drawn = StepDrawn, c
}

// rebuild shuffles the discard pile but its top into a new pile.
func (st *State) rebuild() {
	top := st.popDisc()
	n := st.ndisc
	copy(st.pile[:n], st.disc[:n])
	clear(st.disc[:n])
	st.npile, st.ndisc = n, 0
	st.pushDisc(top)
	st.shuffle(st.pile[:n])
	st.rebuilds++
	st.log(EventRebuild, noSeat, noSeat, top, NoCard, NoCard)
}

// endTurn ends the turn of the seat to act: announcements of incomplete
// menus lapse, an empty pile is rebuilt (or the kitchen closes), and the
// turn passes on in the current direction, over the next player if skip.
func (st *State) endTurn(skip bool) {
	for i := 0; i < int(st.players); i++ {
		s := &st.seats[i]
		if s.announced() && !s.complete() {
			s.flags &^= flagAnnounced
			st.log(EventLapse, uint8(i), noSeat, NoCard, NoCard, NoCard)
		}
	}
	st.drawn = NoCard
	if st.npile == 0 {
		if st.rebuilds >= MaxRebuilds {
			st.closeKitchen()
			return
		}
		st.rebuild()
	}
	next := st.nextOf(st.turn)
	if skip {
		st.seats[next].flags |= flagSkipped
		next = st.nextOf(next)
	}
	st.seats[next].flags &^= flagSkipped
	st.turn, st.step = next, StepTurn
	st.turnNo++
}

// autoAnnounce announces every complete menu not yet announced.
func (st *State) autoAnnounce() {
	for i := 0; i < int(st.players); i++ {
		s := &st.seats[i]
		if !s.announced() && s.complete() {
			s.flags |= flagAnnounced
			st.log(EventAnnounce, uint8(i), noSeat, NoCard, NoCard, NoCard)
		}
	}
}

// win ends the game: the seat to act took the Addition with an announced
// complete menu.
func (st *State) win() {
	st.step, st.drawn, st.winners = StepOver, NoCard, 1<<st.turn
	st.log(EventWin, st.turn, noSeat, Addition, NoCard, NoCard)
}

// closeKitchen ends the game at closing time (see closingWinners).
func (st *State) closeKitchen() {
	st.step, st.closed, st.drawn = StepOver, true, NoCard
	st.winners = closingWinners(st.seats[:st.players])
	st.log(EventClosing, noSeat, noSeat, NoCard, NoCard, NoCard)
}

func (st *State) log(k EventKind, s, target uint8, c, d1, d2 Card) {
	st.ev[st.nev%MaxEvents] = event{kind: k, seat: s, target: target, card: c, d1: d1, d2: d2}
	st.nev++
}
