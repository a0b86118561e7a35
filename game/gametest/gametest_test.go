package gametest

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/internal/splitmix"
)

// The toy game: every seat holds one hidden card from a deck of toyCards.
// The platform (game.System) deals; then each seat in turn keeps its card
// (action 0) or swaps it (action 1): the old card is discarded face up and
// the top card of the face-down deck taken, toyTurns times around the
// table; then every seat says it is ready (action 2), simultaneously. The
// highest card wins. A bug makes one variant break one rule of the suite.
const (
	toyCards  = 12
	toyTurns  = 2
	toyMax    = game.Action(2)
	toyMaxN   = 4
	toyNoCard = 0xFF
)

const (
	phaseDeal uint8 = iota
	phasePlay
	phaseReady
	phaseOver
)

// bug selects a broken variant of the toy.
type bug int

const (
	bugNone          bug = iota
	bugDirtyRefusal      // a refused out-of-range action still counts a turn
	bugOutOfTurn         // any seat may play for the seat to act
	bugNoCode            // refusals are plain errors
	bugPublicLeak        // the public view shows the top of the deck
	bugSeatLeak          // a seat's view shows its neighbour's card
	bugLegalLeak         // swap is offered only when the deck's top card is higher
	bugLossyCodec        // decoding forgets the discards
	bugDivergentCopy     // a swap skips the next seat, which an encoding forgets
	bugNoEnd             // when all are ready, play starts again
	bugNoWinner          // Result names nobody
	bugStuckSeat         // ToAct still lists seats that are ready
	bugUnseeded          // New draws from a counter, not only from the seed
	bugRehideMutates     // Rehide shuffles the deck of st itself
	bugLazyRehide        // Rehide redraws nothing
	bugLegalTooHigh      // an action above MaxAction is legal
	bugRefuseLegal       // the last seat's swap is refused
	bugPanic             // Legal panics for an out-of-range seat
)

type toy struct {
	bug      bug
	n        int
	rng      splitmix.Rand
	phase    uint8
	turn     uint8
	moves    uint8 // turns taken in phasePlay
	ready    uint8 // bit mask
	hands    [toyMaxN]uint8
	deck     []uint8 // face down; the top is the last
	discards []uint8 // face up, in order
	swapped  bool    // bugDivergentCopy: not encoded
}

func newToy(b bug, n int, seed uint64) (*toy, error) {
	if n < 2 || n > toyMaxN {
		return nil, errors.New("toy: 2 to 4 seats")
	}
	st := &toy{bug: b, n: n, rng: splitmix.Rand(seed)}
	for i := range st.hands {
		st.hands[i] = toyNoCard
	}
	for c := uint8(0); c < toyCards; c++ {
		st.deck = append(st.deck, c)
	}
	return st, nil
}

func (st *toy) clone() *toy {
	c := *st
	c.deck, c.discards = slices.Clone(st.deck), slices.Clone(st.discards)
	return &c
}

func (st *toy) Seats() int { return st.n }
func (st *toy) Over() bool { return st.phase == phaseOver }

func (st *toy) ToAct() []game.Seat {
	switch st.phase {
	case phaseDeal:
		return []game.Seat{game.System}
	case phasePlay:
		return []game.Seat{game.Seat(st.turn)}
	case phaseReady:
		var out []game.Seat
		for i := 0; i < st.n; i++ {
			if st.ready&(1<<i) == 0 || st.bug == bugStuckSeat {
				out = append(out, game.Seat(i))
			}
		}
		return out
	}
	return nil
}

func (st *toy) Legal(s game.Seat) []game.Action {
	if st.bug == bugPanic && int(s) >= st.n {
		panic("seat out of range")
	}
	switch {
	case st.phase == phaseDeal && s == game.System:
		return []game.Action{0}
	case st.phase == phasePlay && s == game.Seat(st.turn):
		if len(st.deck) == 0 || st.bug == bugLegalLeak && st.deck[len(st.deck)-1] < st.hands[s] {
			return []game.Action{0}
		}
		if st.bug == bugLegalTooHigh {
			return []game.Action{0, 1, toyMax + 1}
		}
		return []game.Action{0, 1}
	case st.phase == phaseReady && s >= 0 && int(s) < st.n && st.ready&(1<<s) == 0:
		return []game.Action{2}
	}
	return nil
}

func (st *toy) refuse(code game.Code) error {
	if st.bug == bugNoCode {
		return errors.New("refused")
	}
	return &game.RuleError{Code: code}
}

func (st *toy) Apply(s game.Seat, a game.Action) error {
	if st.bug == bugDirtyRefusal && a > toyMax {
		st.moves++
	}
	if st.phase == phaseOver {
		return st.refuse(game.CodeGameOver)
	}
	if s != game.System && (s < 0 || int(s) >= st.n) {
		return st.refuse(game.CodeBadSeat)
	}
	if st.bug == bugOutOfTurn && st.phase == phasePlay && s >= 0 && (a == 0 || a == 1) {
		s = game.Seat(st.turn)
	}
	if !slices.Contains(st.Legal(s), a) {
		if len(st.Legal(s)) == 0 {
			return st.refuse(game.CodeNotYourTurn)
		}
		return st.refuse(game.CodeUnknownAction)
	}
	if st.bug == bugRefuseLegal && a == 1 && int(s) == st.n-1 {
		return st.refuse("no_swap")
	}
	switch st.phase {
	case phaseDeal:
		for i := len(st.deck) - 1; i > 0; i-- {
			j := st.rng.Below(i + 1)
			st.deck[i], st.deck[j] = st.deck[j], st.deck[i]
		}
		for i := 0; i < st.n; i++ {
			st.hands[i] = st.draw()
		}
		st.phase = phasePlay
	case phasePlay:
		if a == 1 {
			st.discards = append(st.discards, st.hands[s])
			st.hands[s] = st.draw()
		}
		st.moves++
		st.turn = uint8((int(st.turn) + 1) % st.n)
		if st.bug == bugDivergentCopy {
			if st.swapped {
				st.turn = uint8((int(st.turn) + 1) % st.n)
			}
			st.swapped = a == 1
		}
		if int(st.moves) == toyTurns*st.n {
			st.phase = phaseReady
		}
	case phaseReady:
		st.ready |= 1 << s
		if int(st.ready) == 1<<st.n-1 {
			st.phase = phaseOver
			if st.bug == bugNoEnd {
				st.phase, st.moves, st.ready = phasePlay, 0, 0
			}
		}
	}
	return nil
}

func (st *toy) draw() uint8 {
	c := st.deck[len(st.deck)-1]
	st.deck = st.deck[:len(st.deck)-1]
	return c
}

func (st *toy) Result() game.Result {
	res := game.Result{Scores: make([]int, st.n)}
	best := -1
	for i := 0; i < st.n; i++ {
		res.Scores[i] = int(st.hands[i])
		best = max(best, res.Scores[i])
	}
	for i := 0; i < st.n; i++ {
		if res.Scores[i] == best && st.bug != bugNoWinner {
			res.Winners = append(res.Winners, game.Seat(i))
		}
	}
	return res
}

func (st *toy) MarshalBinary() ([]byte, error) {
	b := []byte{byte(st.n), st.phase, st.turn, st.moves, st.ready}
	for i := 0; i < 8; i++ {
		b = append(b, byte(uint64(st.rng)>>(8*i)))
	}
	b = append(b, st.hands[:]...)
	b = append(b, byte(len(st.deck)))
	b = append(b, st.deck...)
	return append(b, st.discards...), nil
}

func decodeToy(bg bug, data []byte) (*toy, error) {
	bad := errors.New("toy: corrupt")
	if len(data) < 5+8+toyMaxN+1 {
		return nil, bad
	}
	st := &toy{bug: bg, n: int(data[0]), phase: data[1], turn: data[2], moves: data[3], ready: data[4]}
	for i := 0; i < 8; i++ {
		st.rng |= splitmix.Rand(data[5+i]) << (8 * i)
	}
	copy(st.hands[:], data[13:])
	rest := data[13+toyMaxN:]
	k := int(rest[0])
	if k > len(rest)-1 || st.n < 2 || st.n > toyMaxN || st.phase > phaseOver {
		return nil, bad
	}
	st.deck = slices.Clone(rest[1 : 1+k])
	if len(rest) > 1+k {
		st.discards = slices.Clone(rest[1+k:])
	}
	if bg == bugLossyCodec {
		st.discards = nil
	}
	var seen uint16
	for _, c := range append(append(slices.Clone(st.hands[:st.n]), st.deck...), st.discards...) {
		if c == toyNoCard && st.phase == phaseDeal {
			continue
		}
		if c >= toyCards || seen&(1<<c) != 0 {
			return nil, bad
		}
		seen |= 1 << c
	}
	if bits.OnesCount16(seen) != toyCards && bg != bugLossyCodec {
		return nil, bad
	}
	return st, nil
}

// toyPublic is what everyone sees; toySeat adds one seat's card.
type toyPublic struct {
	Phase, Turn, Moves, Ready uint8
	Deck                      int
	Discards                  []uint8
	Top                       uint8 // only with bugPublicLeak
}

type toySeat struct {
	toyPublic
	Card, Neighbour uint8 // Neighbour only with bugSeatLeak
}

func (st *toy) view(s game.Seat) any {
	p := toyPublic{Phase: st.phase, Turn: st.turn, Moves: st.moves, Ready: st.ready, Deck: len(st.deck), Discards: slices.Clone(st.discards)}
	if st.bug == bugPublicLeak && len(st.deck) > 0 {
		p.Top = st.deck[len(st.deck)-1]
	}
	if s == game.System {
		return p
	}
	v := toySeat{toyPublic: p, Card: st.hands[s]}
	if st.bug == bugSeatLeak {
		v.Neighbour = st.hands[(int(s)+1)%st.n]
	}
	return v
}

// rehide redraws the cards s cannot see: the other hands (once dealt) and
// the deck's order.
func (st *toy) rehide(s game.Seat, seed uint64) *toy {
	h := st.clone()
	if st.bug == bugRehideMutates {
		h = st
	}
	r := splitmix.Rand(seed)
	h.rng = splitmix.Rand(r.Next())
	if st.bug == bugLazyRehide {
		return st.clone()
	}
	if h.phase == phaseDeal {
		return h // the deck is still in order
	}
	pool := slices.Clone(h.deck)
	var who []int
	for i := 0; i < h.n; i++ {
		if game.Seat(i) != s {
			pool = append(pool, h.hands[i])
			who = append(who, i)
		}
	}
	for i := len(pool) - 1; i > 0; i-- {
		j := r.Below(i + 1)
		pool[i], pool[j] = pool[j], pool[i]
	}
	for _, i := range who {
		h.hands[i], pool = pool[len(pool)-1], pool[:len(pool)-1]
	}
	copy(h.deck, pool)
	return h
}

func toyGame(b bug) Game {
	counter := uint64(0)
	return Game{
		New: func(n int, seed uint64) (game.State, error) {
			if b == bugUnseeded {
				counter++
				seed += counter
			}
			return newToy(b, n, seed)
		},
		Decode:    func(data []byte) (game.State, error) { return decodeToy(b, data) },
		Seats:     []int{2, 3, 4},
		Games:     30,
		MaxSteps:  200,
		MaxAction: toyMax,
		View:      func(st game.State, s game.Seat) any { return st.(*toy).view(s) },
		Rehide: func(st game.State, s game.Seat, seed uint64) game.State {
			return st.(*toy).rehide(s, seed)
		},
	}
}

// TestToyPasses runs the whole suite on the correct toy.
func TestToyPasses(t *testing.T) {
	Run(t, toyGame(bugNone))
}

// TestBrokenToysFail proves each check can fail: every broken variant is
// caught, by the check meant for it.
func TestBrokenToysFail(t *testing.T) {
	cases := []struct {
		name  string
		bug   bug
		check string
	}{
		{"dirtyRefusal", bugDirtyRefusal, "illegal"},
		{"outOfTurn", bugOutOfTurn, "illegal"},
		{"noCode", bugNoCode, "illegal"},
		{"publicLeak", bugPublicLeak, "rehide-view"},
		{"seatLeak", bugSeatLeak, "rehide-view"},
		{"legalLeak", bugLegalLeak, "rehide-legal"},
		{"lossyCodec", bugLossyCodec, "roundtrip"},
		{"divergentCopy", bugDivergentCopy, "decode"},
		{"noEnd", bugNoEnd, "termination"},
		{"noWinner", bugNoWinner, "result"},
		{"stuckSeat", bugStuckSeat, "legal"},
		{"unseeded", bugUnseeded, "replay"},
		{"rehideMutates", bugRehideMutates, "rehide"},
		{"lazyRehide", bugLazyRehide, "rehide"},
		{"legalTooHigh", bugLegalTooHigh, "legal"},
		{"refuseLegal", bugRefuseLegal, "apply"},
		{"panic", bugPanic, "panic"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := toyGame(c.bug)
			err := runSeats(g, 3, g.plan(false))
			var f *failure
			if !errors.As(err, &f) {
				t.Fatalf("not caught: %v", err)
			}
			t.Log(err)
			if f.check != c.check {
				t.Fatalf("caught by %q, want %q:\n%v", f.check, c.check, err)
			}
			if f.seats != 3 || (f.game >= 0 && f.seed != gameSeed(3, f.game)) {
				t.Fatalf("failure does not say how to reproduce it: %+v", f)
			}
			if f.game >= 0 && len(f.moves) != f.step {
				t.Fatalf("failure lists %d actions at step %d", len(f.moves), f.step)
			}
		})
	}
}

// TestFailureReplays checks that a failure's seed and actions are enough
// to reach the failing state again.
func TestFailureReplays(t *testing.T) {
	err := runSeats(toyGame(bugPublicLeak), 3, plan{games: 5, deep: 1})
	var f *failure
	if !errors.As(err, &f) || len(f.moves) == 0 {
		t.Fatalf("want a failure after some actions, got %v", err)
	}
	st, _ := newToy(bugNone, f.seats, f.seed)
	for _, m := range f.moves {
		if err := st.Apply(m.seat, m.a); err != nil {
			t.Fatalf("replaying %v: %v", m, err)
		}
	}
	if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("seed=%d", f.seed)) || !strings.Contains(msg, fmt.Sprintf("%d:%d", f.moves[0].seat, f.moves[0].a)) {
		t.Fatalf("message lacks the seed or the actions:\n%s", msg)
	}
}

// TestScaling checks the number of games under -race/-short.
func TestScaling(t *testing.T) {
	for _, c := range []struct{ games, plain, scaled int }{
		{0, 200, 20}, {30, 30, 5}, {100, 100, 10}, {3, 3, 3}, {1000, 1000, 100},
	} {
		g := Game{Games: c.games}
		if p, s := g.games(false), g.games(true); p != c.plain || s != c.scaled {
			t.Errorf("Games %d: %d and %d scaled, want %d and %d", c.games, p, s, c.plain, c.scaled)
		}
	}
}

// TestBadGame checks that an incomplete Game is refused before any play.
func TestBadGame(t *testing.T) {
	good := toyGame(bugNone)
	for name, g := range map[string]Game{
		"no New":    {Decode: good.Decode, Seats: good.Seats},
		"no Decode": {New: good.New, Seats: good.Seats},
		"no Seats":  {New: good.New, Decode: good.Decode},
		"no View":   {New: good.New, Decode: good.Decode, Seats: good.Seats, Rehide: good.Rehide},
	} {
		if err := g.check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := good.check(); err != nil {
		t.Fatal(err)
	}
}
