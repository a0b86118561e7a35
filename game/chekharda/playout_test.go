package chekharda

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// maxSteps bounds a game; random and robot games to 77 last a few hundred
// actions (TestRandomPlayouts logs the longest).
const maxSteps = 20000

// TestRandomPlayouts plays seeded games with 2–6 players, both options and
// both targets, picking a random seat of ToAct (game.System included) and
// for players either a random legal action or a robot's choice, and checks
// at every step: all 72 cards accounted for, a valid state that
// round-trips, ToAct ⇔ Legal, Stuck ⇔ only the platform can act, and
// every legal action applies. Some games also check the views: what a
// seat sees does not change when what it cannot see is redrawn.
func TestRandomPlayouts(t *testing.T) {
	games := 600
	if testing.Short() || raceEnabled {
		games = 60
	}
	const shards = 4
	longest := make([]int, shards)
	for sh := 0; sh < shards; sh++ {
		t.Run(fmt.Sprintf("shard%d", sh), func(t *testing.T) {
			t.Parallel()
			for g := sh; g < games; g += shards {
				n := playout(t, uint64(g))
				longest[sh] = max(longest[sh], n)
				if t.Failed() {
					return
				}
			}
		})
	}
	t.Cleanup(func() { t.Logf("longest game: %d actions", slices.Max(longest)) })
}

func playoutConfig(g uint64) Config {
	players := MinPlayers + int(g%5)
	cfg := Config{Players: players, Dealer: game.Seat(g / 5 % uint64(players)), Seed: g * 7919}
	if g%3 == 1 {
		cfg.DrawForSelf = true
	}
	if g%4 == 2 {
		cfg.Target = TargetShort
	}
	return cfg
}

// playout plays game g and returns its length in actions.
func playout(t *testing.T, g uint64) int {
	t.Helper()
	cfg := playoutConfig(g)
	st, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(g, 1))
	// Per seat: -1 random, else a robot level.
	levels := make([]int, cfg.Players)
	for i := range levels {
		levels[i] = r.IntN(4) - 1
	}
	deep := g%10 == 0
	type step struct {
		s game.Seat
		a game.Action
	}
	var log []step
	var toAct []game.Seat
	var legal []game.Action
	n := 0
	for ; !st.Over(); n++ {
		if n > maxSteps {
			t.Fatalf("game %d does not end", g)
		}
		checkState(t, st)
		if deep || n%50 == 0 {
			checkViews(t, st, g+uint64(n))
		}
		toAct = st.ToActAppend(toAct[:0])
		s := toAct[r.IntN(len(toAct))]
		legal = st.LegalAppend(legal[:0], s)
		a := legal[r.IntN(len(legal))]
		if s != game.System && levels[s] >= 0 {
			if x, ok := Decide(Levels()[levels[s]], st.SeatView(s), r.Uint64()); ok {
				a = x
			}
		}
		if err := st.Apply(s, a); err != nil {
			t.Fatalf("game %d step %d: seat %d %s: %v", g, n, s, mustDecode(a), err)
		}
		log = append(log, step{s, a})
	}
	checkState(t, st)
	checkViews(t, st, g)
	res := st.Result()
	if len(res.Winners) == 0 || len(res.Scores) != cfg.Players || res.Scores[res.Winners[0]] < st.Config().Target {
		t.Fatalf("game %d: result %+v", g, res)
	}
	// Replay: the same config and actions give the same bytes.
	again, _ := New(cfg)
	for _, x := range log {
		if err := again.Apply(x.s, x.a); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(mustMarshal(t, again), mustMarshal(t, st)) {
		t.Fatalf("game %d: replay differs", g)
	}
	return n
}

// checkState checks the invariants of one state.
func checkState(t *testing.T, st *State) {
	t.Helper()
	checkCards(t, st)
	if err := st.validate(); err != nil {
		t.Fatalf("%v\n%s", err, st.Notation())
	}
	back, err := Unmarshal(mustMarshal(t, st))
	if err != nil || *back != *st {
		t.Fatalf("round trip: %v", err)
	}
	to := st.ToAct()
	if len(to) == 0 != st.Over() {
		t.Fatalf("ToAct %v, over %v", to, st.Over())
	}
	players := 0
	for s := game.System; s <= MaxPlayers; s++ {
		l := st.Legal(s)
		if slices.Contains(to, s) != (len(l) > 0) {
			t.Fatalf("seat %d legal %v, ToAct %v\n%s", s, l, to, st.Notation())
		}
		if s >= 0 && len(l) > 0 {
			players++
		}
		for _, a := range l {
			c := st.Clone()
			if err := c.Apply(s, a); err != nil {
				t.Fatalf("legal action %s of seat %d refused: %v", mustDecode(a), s, err)
			}
		}
	}
	if st.Stuck() != (st.Phase() == PhasePlay && !st.variant && players == 0) {
		t.Fatalf("Stuck %v with %d players able to act", st.Stuck(), players)
	}
	if st.Phase() == PhasePlay && st.Stuck() && !sameSeats(to, seats(game.System)) {
		t.Fatalf("stuck, ToAct %v", to)
	}
}

// checkViews checks that every seat's view (and the public one) is the
// same in a state where what that seat cannot see is redrawn, and that the
// redraw changes something when there is something to redraw.
func checkViews(t *testing.T, st *State, seed uint64) {
	t.Helper()
	pub := st.PublicView()
	for s := game.System; s < game.Seat(st.Seats()); s++ {
		h := rehide(st, s, seed)
		checkCards(t, h)
		if err := h.validate(); err != nil {
			t.Fatalf("rehide: %v", err)
		}
		if !reflect.DeepEqual(h.PublicView(), pub) {
			t.Fatalf("public view leaks what seat %d cannot see", s)
		}
		if s >= 0 && !reflect.DeepEqual(h.SeatView(s), st.SeatView(s)) {
			t.Fatalf("seat %d's view leaks", s)
		}
		if !slices.Equal(h.ToAct(), st.ToAct()) || h.Stuck() != st.Stuck() {
			t.Fatalf("rehide for %d changed ToAct", s)
		}
	}
	// A seat's view holds no other seat's hand.
	v := st.SeatView(0)
	if len(v.Hand) != v.Seats[0].Hand {
		t.Fatalf("hand %v, size %d", v.Hand, v.Seats[0].Hand)
	}
}

func mustDecode(a game.Action) Move {
	m, ok := Decode(a)
	if !ok {
		panic(fmt.Sprint("bad action ", a))
	}
	return m
}
