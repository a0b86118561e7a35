package trickchef

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/trickchef/trickchef/game"
)

// testLevels are the levels every AI test covers.
var testLevels = []Level{Novice, Cook, Shef, PrevShef}

// tinyBudget keeps Shef fast in tests: a few deals per candidate.
var tinyBudget = Budget{Playouts: 24}

// walkGames plays seeded 3- and 4-player games, mixing random legal
// actions with Baseline, keeps the table's History as a bot would, and
// calls visit before every action with the state and the History so far.
func walkGames(t testing.TB, games int, visit func(st *State, h History, g, step int)) {
	t.Helper()
	for g := 0; g < games; g++ {
		players := 3 + g%2
		cfg := Config{Players: players, Removed: Suit(g % 4), First: game.Seat(g % players), Seed: uint64(g)*31 + 7}
		st, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(g), 9))
		var h History
		for step := 0; !st.Over(); step++ {
			visit(st, h, g, step)
			s, _ := st.Current()
			var a game.Action
			if r.IntN(2) == 0 {
				a = Baseline(st.SeatView(s), uint64(step))
			} else {
				legal := st.Legal(s)
				a = legal[r.IntN(len(legal))]
			}
			if err := st.Apply(s, a); err != nil {
				t.Fatal(err)
			}
			h.Observe(st.PublicView())
		}
	}
}

func TestDecideAlwaysLegal(t *testing.T) {
	games, shefEvery := 40, 3
	if raceEnabled {
		games, shefEvery = 10, 9
	}
	n := 0
	walkGames(t, games, func(st *State, h History, g, step int) {
		s, _ := st.Current()
		v := st.SeatView(s)
		for _, l := range testLevels {
			if (l == Shef || l == PrevShef) && step%shefEvery != 0 {
				continue
			}
			a := Decide(l, v, h, uint64(step), tinyBudget)
			if !slices.Contains(v.Legal, a) {
				t.Fatalf("game %d step %d: %s chose %d, not legal", g, step, l, a)
			}
			n++
		}
		// A History that missed everything must still work.
		if step%7 == 0 {
			if a := Decide(Shef, v, History{}, 1, tinyBudget); !slices.Contains(v.Legal, a) {
				t.Fatalf("game %d step %d: shef without history chose %d", g, step, a)
			}
		}
	})
	for _, l := range testLevels {
		if a := Decide(l, SeatView{}, History{}, 1, tinyBudget); a != -1 {
			t.Fatalf("%s on an empty view: %d", l, a)
		}
		if a := Decide(l, st0(t).SeatView(1), History{}, 1, tinyBudget); a != -1 {
			t.Fatalf("%s out of turn: %d", l, a)
		}
	}
	t.Logf("%d decisions", n)
}

// st0 is a fresh 4-player game where seat 0 acts.
func st0(t testing.TB) *State {
	st, err := New(DefaultConfig(4, 0, 5))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestDecideDeterministic(t *testing.T) {
	games := 6
	if raceEnabled {
		games = 2
	}
	differs := 0
	walkGames(t, games, func(st *State, h History, g, step int) {
		if step%4 != 0 {
			return
		}
		s, _ := st.Current()
		v := st.SeatView(s)
		for _, l := range testLevels {
			a := Decide(l, v, h, uint64(g*1000+step), tinyBudget)
			// A fresh view (new slices) and a copy of h: same answer.
			b := Decide(l, st.Clone().SeatView(s), h, uint64(g*1000+step), tinyBudget)
			if a != b {
				t.Fatalf("game %d step %d: %s gave %d then %d", g, step, l, a, b)
			}
			if l == Novice && a != Decide(l, v, h, uint64(g*1000+step+1), tinyBudget) {
				differs++
			}
		}
	})
	if differs == 0 {
		t.Fatal("the novice's seed never matters")
	}
}

// TestNoPeeking: two states that differ only in cards other seats hold
// give the same view and History to a seat, and every level must then
// decide the same: the AI cannot see other hands.
func TestNoPeeking(t *testing.T) {
	games := 12
	if raceEnabled {
		games = 3
	}
	r := rand.New(rand.NewPCG(4, 4))
	compared, changed := 0, 0
	walkGames(t, games, func(st *State, h History, g, step int) {
		if st.phase != PhasePlay || step%2 != 0 {
			return
		}
		me := st.turn
		// Swap random cards between two other hands, keeping every seat
		// able to play what it is seen to play: only cards of suits
		// neither seat is known to lack.
		alt := st.Clone()
		n := int(st.players)
		a, b := (me+1)%uint8(n), (me+2)%uint8(n)
		for k := 0; k < 3; k++ {
			ha, hb := alt.hands[a].cards(), alt.hands[b].cards()
			if len(ha) == 0 || len(hb) == 0 {
				return
			}
			x, y := ha[r.IntN(len(ha))], hb[r.IntN(len(hb))]
			if h.Void[b]&(1<<x.Suit) != 0 || h.Void[a]&(1<<y.Suit) != 0 {
				continue
			}
			alt.hands[a] = alt.hands[a]&^(1<<x.index()) | 1<<y.index()
			alt.hands[b] = alt.hands[b]&^(1<<y.index()) | 1<<x.index()
		}
		if alt.hands == st.hands {
			return
		}
		changed++
		v1, v2 := st.SeatView(game.Seat(me)), alt.SeatView(game.Seat(me))
		if !reflect.DeepEqual(v1, v2) {
			t.Fatal("the swap changed the seat's view")
		}
		for _, l := range testLevels {
			seed := uint64(g*977 + step)
			if d1, d2 := Decide(l, v1, h, seed, tinyBudget), Decide(l, v2, h, seed, tinyBudget); d1 != d2 {
				t.Fatalf("game %d step %d: %s decided %d and %d on the same view", g, step, l, d1, d2)
			}
			compared++
		}
	})
	if changed == 0 {
		t.Fatal("no state was changed")
	}
	t.Logf("%d decisions compared over %d altered states", compared, changed)
}

// TestSampleConsistent: every sampled deal agrees with everything the seat
// has seen: the same public view and seat view as the real game, its own
// cards, the cards seen won by each seat, no card of a suit a seat failed
// to follow, and an engine-valid state.
func TestSampleConsistent(t *testing.T) {
	games, deals := 16, 8
	if raceEnabled {
		games, deals = 4, 4
	}
	var voids [4]SuitSet // ground truth, tracked from the real plays
	round := 0
	checked := 0
	walkGames(t, games, func(st *State, h History, g, step int) {
		if int(st.round) != round || step == 0 {
			round, voids = int(st.round), [4]SuitSet{}
		}
		if st.phase == PhasePlay && st.nPlayed > 0 {
			led := cardAt(st.plays[0].card).Suit
			for i := 1; i < int(st.nPlayed); i++ {
				if c := cardAt(st.plays[i].card); c.Suit != led {
					voids[(int(st.leader)+i)%int(st.players)] |= 1 << led
				}
			}
		}
		if st.last.valid && (st.phase == PhaseAward || st.phase == PhasePlay && st.trick > 1) {
			led := cardAt(st.last.plays[0].card).Suit
			for i := 1; i < int(st.players); i++ {
				if c := cardAt(st.last.plays[i].card); c.Suit != led {
					voids[(int(st.last.leader)+i)%int(st.players)] |= 1 << led
				}
			}
		}
		me, _ := st.Current()
		v := st.SeatView(me)
		w, ok := newWorld(&v, h)
		if !ok {
			t.Fatalf("game %d step %d: no world", g, step)
		}
		for i := 0; i < int(st.players); i++ {
			if i != int(me) && SuitSet(h.Void[i])&^voids[i] != 0 {
				t.Fatalf("game %d step %d seat %d: History void %b, truth %b; round %d trick %d phase %s cur %v last %+v", g, step, i, h.Void[i], voids[i], st.round, st.trick, st.phase, st.PublicView().CurrentTrick, st.PublicView().LastTrick)
			}
		}
		pub := st.PublicView()
		r := rng(uint64(step))
		var d State
		for k := 0; k < deals; k++ {
			w.sample(&d, &r)
			if err := d.validate(); err != nil {
				t.Fatalf("game %d step %d: %v", g, step, err)
			}
			if !reflect.DeepEqual(d.PublicView(), pub) || !reflect.DeepEqual(d.SeatView(me), v) {
				t.Fatalf("game %d step %d: the deal shows a different view", g, step)
			}
			for i := 0; i < int(st.players); i++ {
				if d.won[i]&cardSet(h.Won[i]) != cardSet(h.Won[i]) {
					t.Fatalf("seat %d lost a card it was seen winning", i)
				}
				for s := Suit(0); s < NumSuits; s++ {
					if voids[i].Has(s) && d.hands[i].ofSuit(s) != 0 && i != int(me) {
						t.Fatalf("game %d step %d: seat %d void in %s was dealt %v", g, step, i, s, d.hands[i].ofSuit(s).cards())
					}
				}
			}
			checked++
		}
	})
	t.Logf("%d deals checked", checked)
}

// With a complete History the only unknown cards are the other hands.
func TestHistoryComplete(t *testing.T) {
	walkGames(t, 4, func(st *State, h History, g, step int) {
		me, _ := st.Current()
		v := st.SeatView(me)
		w, ok := newWorld(&v, h)
		if !ok {
			t.Fatal("no world")
		}
		var others cardSet
		for i := 0; i < int(st.players); i++ {
			if i != int(me) {
				others |= st.hands[i]
				if w.wonSlots[i] != 0 {
					t.Fatalf("game %d step %d: seat %d has %d unseen won cards", g, step, i, w.wonSlots[i])
				}
			}
		}
		if w.unknown != others {
			t.Fatalf("game %d step %d: unknown %v, other hands %v", g, step, w.unknown.cards(), others.cards())
		}
	})
}

func TestBudgetWallCap(t *testing.T) {
	_, v := midGameT(t)
	calls := 0
	// A fake clock that jumps a second per reading: the cap stops the
	// search after the first deal, and the answer is still legal.
	clock := func() time.Time { calls++; return time.Unix(int64(calls), 0) }
	a := Decide(Shef, v, History{}, 1, Budget{Playouts: 1 << 20, Wall: time.Millisecond, Clock: clock})
	if !slices.Contains(v.Legal, a) || calls != 2 {
		t.Fatalf("action %d, clock read %d times", a, calls)
	}
}

// History survives JSON, and observing a view twice changes nothing.
func TestHistoryObserve(t *testing.T) {
	n := 0
	walkGames(t, 2, func(st *State, h History, g, step int) {
		if step == 0 {
			return // walkGames observes after each action: nothing yet
		}
		p := st.PublicView()
		again := h
		again.Observe(p)
		if again != h {
			t.Fatalf("game %d step %d: observing the same view again changed History", g, step)
		}
		b, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		var back History
		if err := json.Unmarshal(b, &back); err != nil || back != h {
			t.Fatalf("JSON round trip: %v", err)
		}
		n++
	})
	t.Logf("%d histories", n)
}

// The novice is Baseline with slips: for the same view and seed it plays
// Baseline's action, except about noviceSlip of the time a uniformly
// random legal one (which may happen to be Baseline's).
func TestNoviceSlipsAtItsRate(t *testing.T) {
	games := 20
	if raceEnabled {
		games = 6
	}
	var expect float64
	differ, decisions := 0, 0
	walkGames(t, games, func(st *State, h History, g, step int) {
		s, _ := st.Current()
		v := st.SeatView(s)
		n := len(v.Legal)
		if n < 2 {
			return
		}
		seed := uint64(g*1000 + step)
		decisions++
		expect += noviceSlip * float64(n-1) / float64(n)
		if Decide(Novice, v, h, seed, Budget{}) != Baseline(v, seed) {
			differ++
		}
	})
	t.Logf("%d decisions: the novice left Baseline's move %d times, %.1f expected", decisions, differ, expect)
	if decisions < 100 || float64(differ) < 0.7*expect || float64(differ) > 1.3*expect {
		t.Errorf("the novice left Baseline's move %d times in %d decisions, %.1f expected", differ, decisions, expect)
	}
}
