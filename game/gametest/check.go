package gametest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/game"
)

// Defaults and sampling of the suite (see Run).
const (
	defaultGames    = 200
	defaultMaxSteps = 100000
	deepGames       = 3    // games checked deeply at every step (1 when scaled down),
	deepSteps       = 1000 // up to this many steps in all (300 when scaled down)
	deepEvery       = 16   // otherwise one step in deepEvery at most,
	deepPerGame     = 8    // and about deepPerGame steps in a long game
	minScaledGames  = 5
)

// check reports a Game that cannot be run at all.
func (g *Game) check() error {
	switch {
	case g.New == nil:
		return errors.New("gametest: Game.New is nil")
	case g.Decode == nil:
		return errors.New("gametest: Game.Decode is nil")
	case len(g.Seats) == 0:
		return errors.New("gametest: Game.Seats is empty")
	case g.Rehide != nil && g.View == nil:
		return errors.New("gametest: Game.Rehide needs Game.View")
	case g.MaxAction < 0:
		return errors.New("gametest: Game.MaxAction is negative")
	}
	return nil
}

// plan is how much of a seat count is played.
type plan struct {
	games int // games played
	deep  int // of which the first deep are checked deeply at every step,
	steps int // up to steps steps in all
}

// plan scales the games down under -race or -short.
func (g *Game) plan(scaled bool) plan {
	p := plan{games: g.games(scaled), deep: deepGames, steps: deepSteps}
	if scaled {
		p.deep, p.steps = 1, deepSteps*3/10
	}
	return p
}

// games is the number of games per seat count, scaled down under -race or
// -short.
func (g *Game) games(scaled bool) int {
	n := g.Games
	if n <= 0 {
		n = defaultGames
	}
	if scaled {
		n = max(n/10, min(n, minScaledGames))
	}
	return n
}

func (g *Game) maxSteps() int {
	if g.MaxSteps <= 0 {
		return defaultMaxSteps
	}
	return g.MaxSteps
}

// gameSeed is the seed of game k with n seats: readable in a failure.
func gameSeed(n, k int) uint64 { return uint64(n)*1000000 + uint64(k) }

// move is one applied action.
type move struct {
	seat game.Seat
	a    game.Action
}

// failure is a failed check with what it takes to reproduce it.
type failure struct {
	check string // short name of the failed check
	msg   string
	seats int
	game  int
	seed  uint64
	step  int
	moves []move
}

func (f *failure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "gametest: %s: %s\n", f.check, f.msg)
	if f.game < 0 { // a verdict on the whole seat count
		fmt.Fprintf(&b, "\tseats=%d", f.seats)
		return b.String()
	}
	fmt.Fprintf(&b, "\tseats=%d game=%d seed=%d step=%d (replay: New(%d, %d), then Apply each seat:action)\n",
		f.seats, f.game, f.seed, f.step, f.seats, f.seed)
	fmt.Fprintf(&b, "\tactions (seat:action, System is -1), %d:", len(f.moves))
	for i, m := range f.moves {
		if i%20 == 0 {
			b.WriteString("\n\t ")
		}
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(int(m.seat)))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(m.a)))
	}
	return b.String()
}

// stats gathers what is judged over a whole seat count.
type stats struct {
	rehides  int // Rehide calls
	changed  int // ... that returned a state different from st
	lastLen  int // steps of the last game played
	deepLeft int // steps left to check deeply at every step
}

// runSeats plays the games of p with n seats and returns the first failure.
func runSeats(g Game, n int, p plan) error {
	s := stats{deepLeft: p.steps}
	for k := 0; k < p.games; k++ {
		// 0: every step; else the sampling interval, from the length of
		// the previous game.
		interval := 0
		if k >= p.deep {
			interval = max(deepEvery, s.lastLen/deepPerGame)
		}
		if err := playGame(g, n, k, interval, &s); err != nil {
			return err
		}
	}
	if g.Rehide != nil && s.rehides > 0 && s.changed == 0 {
		return &failure{check: "rehide", msg: fmt.Sprintf("Rehide never changed the state in %d calls: it redraws nothing", s.rehides), seats: n, game: -1}
	}
	return nil
}

// runner plays one game.
type runner struct {
	g     Game
	n     int
	game  int
	seed  uint64
	r     *rand.Rand
	step  int
	moves []move
	every int // deep checks at every step in every (1: all)
	stats *stats
}

func (r *runner) fail(check, format string, args ...any) error {
	return &failure{
		check: check, msg: fmt.Sprintf(format, args...), seats: r.n, game: r.game,
		seed: r.seed, step: r.step, moves: slices.Clone(r.moves),
	}
}

// playGame plays game k with n seats, checking every step, deeply every
// interval steps (0: at every step).
func playGame(g Game, n, k, interval int, s *stats) (err error) {
	r := &runner{g: g, n: n, game: k, seed: gameSeed(n, k), every: max(interval, 1), stats: s}
	r.r = rand.New(rand.NewPCG(r.seed, 0x6761_6d65_7465_7374))
	defer func() {
		if p := recover(); p != nil {
			err = r.fail("panic", "%v\n%s", p, debug.Stack())
		}
	}()
	return r.play()
}

func (r *runner) play() error {
	st, err := r.g.New(r.n, r.seed)
	if err != nil {
		return r.fail("new", "New(%d, %d): %v", r.n, r.seed, err)
	}
	if st == nil {
		return r.fail("new", "New(%d, %d) returned nil", r.n, r.seed)
	}
	if st.Seats() != r.n {
		return r.fail("new", "Seats() = %d, want %d", st.Seats(), r.n)
	}
	deep := r.every == 1
	var history [][]byte // every state's bytes, in deep games
	var final []byte
	maxSteps := r.g.maxSteps()
	b, err := r.marshal(st)
	if err != nil {
		return err
	}
	for {
		if deep {
			history = append(history, b)
		}
		dec, err := r.roundTrip(b)
		if err != nil {
			return err
		}
		if st.Over() {
			if err := r.checkOver(st, b); err != nil {
				return err
			}
			if err := r.deep(st, b, dec); err != nil {
				return err
			}
			final = b
			break
		}
		if r.step >= maxSteps {
			return r.fail("termination", "not over after %d steps (MaxSteps)", maxSteps)
		}
		toAct, legal, err := r.checkTurn(st)
		if err != nil {
			return err
		}
		if err := r.probe(st, b, toAct, legal); err != nil {
			return err
		}
		every := r.every
		if every == 1 {
			if r.stats.deepLeft <= 0 {
				every = deepEvery // the budget of full checks is spent
			}
			r.stats.deepLeft--
		}
		if r.step%every == r.game%every {
			if err := r.deep(st, b, dec); err != nil {
				return err
			}
		}
		i := r.r.IntN(len(toAct))
		m := move{toAct[i], legal[i][r.r.IntN(len(legal[i]))]}
		if err := st.Apply(m.seat, m.a); err != nil {
			return r.fail("apply", "legal action %d of seat %d refused: %v", m.a, m.seat, err)
		}
		r.moves = append(r.moves, m)
		r.step++
		// The decoded copy must behave exactly like the original.
		if err := dec.Apply(m.seat, m.a); err != nil {
			return r.fail("decode", "decoded copy refuses legal action %d of seat %d: %v", m.a, m.seat, err)
		}
		if b, err = r.marshal(st); err != nil {
			return err
		}
		if cb, err := r.marshal(dec); err != nil {
			return err
		} else if !bytes.Equal(cb, b) {
			return r.fail("decode", "after action %d of seat %d the decoded copy differs from the original:\n\tcopy     %x\n\toriginal %x", m.a, m.seat, cb, b)
		}
	}
	r.stats.lastLen = r.step
	return r.replay(history, final)
}

// marshal encodes st, reporting an error as a failure.
func (r *runner) marshal(st game.State) ([]byte, error) {
	b, err := st.MarshalBinary()
	if err != nil {
		return nil, r.fail("marshal", "MarshalBinary: %v", err)
	}
	return b, nil
}

// roundTrip decodes b and checks that the copy encodes to the same bytes.
func (r *runner) roundTrip(b []byte) (game.State, error) {
	d, err := r.decodeSame(b)
	if err != nil {
		return nil, r.fail("roundtrip", "%v", err)
	}
	return d, nil
}

// decodeSame is roundTrip with a plain error.
func (r *runner) decodeSame(b []byte) (game.State, error) {
	d, err := r.g.Decode(slices.Clone(b))
	if err != nil {
		return nil, fmt.Errorf("Decode(MarshalBinary()): %v\n\t%x", err, b)
	}
	if d == nil {
		return nil, errors.New("Decode returned nil")
	}
	b2, err := d.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("MarshalBinary of a decoded state: %v", err)
	}
	if !bytes.Equal(b, b2) {
		return nil, fmt.Errorf("MarshalBinary → Decode → MarshalBinary differs:\n\t%x\n\t%x", b, b2)
	}
	return d, nil
}

// validSeat reports whether s is a seat of an n-seat game or game.System.
func validSeat(s game.Seat, n int) bool { return s == game.System || s >= 0 && int(s) < n }

// outsiders lists the seats to probe that are not in toAct: the other
// players, game.System unless listed, and two out of range.
func outsiders(toAct []game.Seat, n int) []game.Seat {
	var out []game.Seat
	for s := game.System; s < game.Seat(n); s++ {
		if !slices.Contains(toAct, s) {
			out = append(out, s)
		}
	}
	return append(out, game.Seat(n), -2)
}

// checkTurn checks ToAct and Legal of a game in progress and returns them,
// legal[i] being the actions of toAct[i].
func (r *runner) checkTurn(st game.State) ([]game.Seat, [][]game.Action, error) {
	toAct := st.ToAct()
	if len(toAct) == 0 {
		return nil, nil, r.fail("toact", "ToAct is empty but the game is not over")
	}
	legal := make([][]game.Action, len(toAct))
	for i, s := range toAct {
		if !validSeat(s, r.n) {
			return nil, nil, r.fail("toact", "ToAct %v lists seat %d out of range", toAct, s)
		}
		if slices.Contains(toAct[:i], s) {
			return nil, nil, r.fail("toact", "ToAct %v lists seat %d twice", toAct, s)
		}
		l := st.Legal(s)
		if len(l) == 0 {
			return nil, nil, r.fail("legal", "seat %d is in ToAct %v but has no legal action", s, toAct)
		}
		if err := r.checkActions(s, l); err != nil {
			return nil, nil, err
		}
		legal[i] = l
	}
	for _, s := range outsiders(toAct, r.n) {
		if l := st.Legal(s); len(l) != 0 {
			return nil, nil, r.fail("legal", "seat %d is not in ToAct %v but has legal actions %v", s, toAct, l)
		}
	}
	return toAct, legal, nil
}

// checkActions checks one seat's legal actions: distinct, in 0..MaxAction.
func (r *runner) checkActions(s game.Seat, l []game.Action) error {
	for i, a := range l {
		if a < 0 || a > r.g.MaxAction {
			return r.fail("legal", "seat %d: legal action %d outside 0..MaxAction (%d)", s, a, r.g.MaxAction)
		}
		if slices.Contains(l[:i], a) {
			return r.fail("legal", "seat %d: legal action %d listed twice", s, a)
		}
	}
	return nil
}

// refused checks that seat s may not play a: a coded RuleError and the
// encoding b unchanged.
func (r *runner) refused(st game.State, b []byte, s game.Seat, a game.Action, why string) error {
	err := st.Apply(s, a)
	if err == nil {
		return r.fail("illegal", "Apply(seat %d, action %d) succeeded (%s)", s, a, why)
	}
	if game.CodeOf(err) == "" {
		return r.fail("illegal", "Apply(seat %d, action %d) (%s): error %q is not a *game.RuleError with a code", s, a, why, err)
	}
	after, merr := r.marshal(st)
	if merr != nil {
		return merr
	}
	if !bytes.Equal(b, after) {
		return r.fail("illegal", "refused Apply(seat %d, action %d) (%s, %v) changed the state:\n\tbefore %x\n\tafter  %x", s, a, why, err, b, after)
	}
	return nil
}

// probe tries illegal actions: values outside Legal for one acting seat,
// and legal-looking actions for seats that may not act.
func (r *runner) probe(st game.State, b []byte, toAct []game.Seat, legal [][]game.Action) error {
	i := r.r.IntN(len(toAct))
	s, l := toAct[i], legal[i]
	top := r.g.MaxAction
	bad := []game.Action{-1, -1 << 20, top + 1, top + 2 + game.Action(r.r.IntN(1000))}
	for try := 0; try < 8 && len(bad) < 6; try++ {
		if a := game.Action(r.r.IntN(int(top) + 1)); !slices.Contains(l, a) && !slices.Contains(bad, a) {
			bad = append(bad, a)
		}
	}
	for _, a := range bad {
		if err := r.refused(st, b, s, a, "not in Legal"); err != nil {
			return err
		}
	}
	a := l[r.r.IntN(len(l))]
	for _, o := range outsiders(toAct, r.n) {
		if err := r.refused(st, b, o, a, "seat not in ToAct"); err != nil {
			return err
		}
	}
	return nil
}

// checkOver checks a finished game: nobody acts, everything is refused and
// the result is complete.
func (r *runner) checkOver(st game.State, b []byte) error {
	if t := st.ToAct(); len(t) != 0 {
		return r.fail("over", "ToAct is %v after the game is over", t)
	}
	var last game.Action
	if len(r.moves) > 0 {
		last = r.moves[len(r.moves)-1].a
	}
	for s := game.System; s <= game.Seat(r.n); s++ {
		if l := st.Legal(s); len(l) != 0 {
			return r.fail("over", "seat %d has legal actions %v after the game is over", s, l)
		}
		for _, a := range []game.Action{0, last} {
			if err := r.refused(st, b, s, a, "game over"); err != nil {
				return err
			}
		}
	}
	res := st.Result()
	if len(res.Scores) != r.n {
		return r.fail("result", "Result().Scores has %d entries for %d seats", len(res.Scores), r.n)
	}
	if len(res.Winners) == 0 {
		return r.fail("result", "Result() names no winner")
	}
	for i, w := range res.Winners {
		if w < 0 || int(w) >= r.n || slices.Contains(res.Winners[:i], w) {
			return r.fail("result", "Result().Winners %v: bad or repeated seat %d", res.Winners, w)
		}
	}
	return nil
}

// audiences are the seats whose views and rehides are checked: every
// player, then the public.
func audiences(n int) []game.Seat {
	out := make([]game.Seat, 0, n+1)
	for s := game.Seat(0); s < game.Seat(n); s++ {
		out = append(out, s)
	}
	return append(out, game.System)
}

// deep checks views and Rehide for every audience. b is st's encoding and
// dec a decoded copy of st.
func (r *runner) deep(st game.State, b []byte, dec game.State) error {
	if r.g.View == nil {
		return nil
	}
	views := make([]any, 0, r.n+1)
	for _, s := range audiences(r.n) {
		v := r.g.View(st, s)
		if !reflect.DeepEqual(v, r.g.View(dec, s)) {
			return r.fail("view", "View(seat %d) differs for a decoded copy:%s", s, showDiff(v, r.g.View(dec, s)))
		}
		views = append(views, v)
	}
	if err := r.unchanged(st, b, "View"); err != nil {
		return err
	}
	if r.g.Rehide == nil {
		return nil
	}
	public := views[r.n]
	for i, s := range audiences(r.n) {
		if err := r.rehide(st, b, s, views[i], public); err != nil {
			return err
		}
	}
	return nil
}

// showDiff prints two values that differ, in Go syntax when the short
// form looks the same (nil against an empty slice, for instance).
func showDiff(was, now any) string {
	a, b := fmt.Sprintf("%+v", was), fmt.Sprintf("%+v", now)
	if a == b {
		a, b = fmt.Sprintf("%#v", was), fmt.Sprintf("%#v", now)
	}
	return "\n\twas " + a + "\n\tnow " + b
}

// unchanged checks that st still encodes to b after calling what.
func (r *runner) unchanged(st game.State, b []byte, what string) error {
	after, err := r.marshal(st)
	if err != nil {
		return err
	}
	if !bytes.Equal(b, after) {
		return r.fail(strings.ToLower(what), "%s changed the state:\n\tbefore %x\n\tafter  %x", what, b, after)
	}
	return nil
}

// rehide checks Rehide(st, s, ·): st untouched, a valid state that plays on,
// deterministic, and the same view, public view and Legal for s.
func (r *runner) rehide(st game.State, b []byte, s game.Seat, view, public any) error {
	seed := r.r.Uint64()
	h := r.g.Rehide(st, s, seed)
	if h == nil {
		return r.fail("rehide", "Rehide(seat %d, seed %d) returned nil", s, seed)
	}
	if err := r.unchanged(st, b, "Rehide"); err != nil {
		return err
	}
	r.stats.rehides++
	hb, err := r.marshal(h)
	if err != nil {
		return err
	}
	if !bytes.Equal(hb, b) {
		r.stats.changed++
	}
	if again, err := r.marshal(r.g.Rehide(st, s, seed)); err != nil {
		return err
	} else if !bytes.Equal(again, hb) {
		return r.fail("rehide", "Rehide(seat %d, seed %d) is not deterministic", s, seed)
	}
	if _, err := r.decodeSame(hb); err != nil {
		return r.fail("rehide", "Rehide(seat %d, seed %d) returned an invalid state: %v", s, seed, err)
	}
	if h.Seats() != r.n || h.Over() != st.Over() {
		return r.fail("rehide", "Rehide(seat %d, seed %d): Seats %d Over %v, want %d %v", s, seed, h.Seats(), h.Over(), r.n, st.Over())
	}
	if v := r.g.View(h, s); !reflect.DeepEqual(v, view) {
		return r.fail("rehide-view", "seat %d sees a different view after its hidden information is redrawn (seed %d): the view leaks%s", s, seed, showDiff(view, v))
	}
	if v := r.g.View(h, game.System); !reflect.DeepEqual(v, public) {
		return r.fail("rehide-view", "the public view changes when what seat %d cannot see is redrawn (seed %d): it leaks%s", s, seed, showDiff(public, v))
	}
	if l, want := h.Legal(s), st.Legal(s); !slices.Equal(l, want) {
		return r.fail("rehide-legal", "Legal(seat %d) changes when what it cannot see is redrawn (seed %d): %v, was %v", s, seed, l, want)
	}
	// The rehidden state plays on.
	if h.Over() {
		return nil
	}
	toAct := h.ToAct()
	if len(toAct) == 0 {
		return r.fail("rehide", "Rehide(seat %d, seed %d): ToAct empty in a game not over", s, seed)
	}
	who := toAct[r.r.IntN(len(toAct))]
	l := h.Legal(who)
	if len(l) == 0 {
		return r.fail("rehide", "Rehide(seat %d, seed %d): seat %d in ToAct has no legal action", s, seed, who)
	}
	if a := l[r.r.IntN(len(l))]; h.Apply(who, a) != nil {
		err := h.Apply(who, a)
		// Blame the engine if the original state refuses it too.
		if d, derr := r.decodeSame(b); derr == nil && slices.Contains(d.Legal(who), a) && d.Apply(who, a) != nil {
			return r.fail("apply", "legal action %d of seat %d refused: %v", a, who, err)
		}
		return r.fail("rehide", "Rehide(seat %d, seed %d): legal action %d of seat %d is refused: %v", s, seed, a, who, err)
	}
	if hb, err := r.marshal(h); err != nil {
		return err
	} else if _, err := r.decodeSame(hb); err != nil {
		return r.fail("roundtrip", "Rehide(seat %d, seed %d) then one action: %v", s, seed, err)
	}
	return nil
}

// replay deals the game again from its seed, applies the same actions and
// compares the encodings: at every step kept in history (deep games), and
// the final one.
func (r *runner) replay(history [][]byte, final []byte) error {
	st, err := r.g.New(r.n, r.seed)
	if err != nil {
		return r.fail("replay", "New(%d, %d) again: %v", r.n, r.seed, err)
	}
	same := func(i int, want []byte) error {
		b, err := r.marshal(st)
		if err != nil {
			return err
		}
		if !bytes.Equal(b, want) {
			return r.fail("replay", "replaying the seed and the actions gives a different state after %d actions:\n\t%x\n\t%x", i, b, want)
		}
		return nil
	}
	for i, m := range r.moves {
		if i < len(history) {
			if err := same(i, history[i]); err != nil {
				return err
			}
		}
		if err := st.Apply(m.seat, m.a); err != nil {
			return r.fail("replay", "replayed action %d (seat %d, action %d) refused: %v", i, m.seat, m.a, err)
		}
	}
	return same(len(r.moves), final)
}
