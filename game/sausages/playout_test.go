package sausages

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// policy chooses an action for seat in st.
type policy func(st *State, seat game.Seat, r *rand.Rand) game.Action

func randomPolicy(st *State, seat game.Seat, r *rand.Rand) game.Action {
	l := st.Legal(seat)
	return l[r.IntN(len(l))]
}

func baselinePolicy(st *State, seat game.Seat, r *rand.Rand) game.Action {
	return Baseline(st.SeatView(seat), r.Uint64())
}

func slyPolicy(st *State, seat game.Seat, r *rand.Rand) game.Action {
	return Sly(st.SeatView(seat), r.Uint64())
}

// maxSteps bounds a game: at most 31 rounds (6 successes + 24 lost cards +
// the last), each with at most 24 placements, 30 bids, 24 reveals and 2
// more actions.
const maxSteps = 31 * 80

// TestRandomPlayouts plays thousands of seeded games with 3–6 players,
// mixing uniformly random legal actions with both AIs, and checks the
// invariants at every step.
func TestRandomPlayouts(t *testing.T) {
	games := 4000
	if testing.Short() || raceEnabled {
		games = 600
	}
	const shards = 8
	for sh := 0; sh < shards; sh++ {
		t.Run(fmt.Sprintf("shard%d", sh), func(t *testing.T) {
			t.Parallel()
			for g := sh; g < games; g += shards {
				players := MinPlayers + g%(MaxPlayers-MinPlayers+1)
				cfg := Config{Players: players, First: game.Seat(g / 4 % players), Seed: uint64(g) * 7919}
				playout(t, cfg, uint64(g))
				if t.Failed() {
					return
				}
			}
		})
	}
}

func playout(t *testing.T, cfg Config, seed uint64) {
	t.Helper()
	st, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	// Per seat: 0 random, 1 Baseline, 2 Sly, 3 Sharp.
	var kinds [MaxPlayers]int
	if seed%3 != 0 {
		for i := range kinds {
			kinds[i] = r.IntN(4)
		}
	}
	policies := []policy{randomPolicy, baselinePolicy, slyPolicy, sharpPolicy}
	deep := seed%20 == 0
	type step struct {
		seat game.Seat
		a    game.Action
	}
	var log []step
	var legal []game.Action
	var toAct []game.Seat
	owned := cfg.Players * CardsPerPlayer
	for n := 0; !st.Over(); n++ {
		if n > maxSteps {
			t.Fatalf("seed %d: game does not end", seed)
		}
		if err := st.validate(); err != nil {
			t.Fatalf("seed %d step %d: %v", seed, n, err)
		}
		back, err := Unmarshal(mustMarshal(t, st))
		if err != nil || *back != *st {
			t.Fatalf("seed %d step %d: round trip: %v", seed, n, err)
		}
		// Cards: each seat owns hand + stack ≤ 4; the table's total only
		// goes down.
		sum := 0
		for s := 0; s < cfg.Players; s++ {
			b := &st.seats[s]
			if b.owned() > CardsPerPlayer || b.owned() != b.hand()+int(b.n) {
				t.Fatalf("seed %d: seat %d owns %d", seed, s, b.owned())
			}
			sum += b.owned()
		}
		if sum > owned || sum > MaxCards {
			t.Fatalf("seed %d: cards went up from %d to %d", seed, owned, sum)
		}
		owned = sum
		toAct = st.ToActAppend(toAct[:0])
		if len(toAct) == 0 {
			t.Fatalf("seed %d step %d: nobody to act", seed, n)
		}
		for s := game.Seat(0); s < game.Seat(cfg.Players); s++ {
			l := st.Legal(s)
			if slices.Contains(toAct, s) != (len(l) > 0) {
				t.Fatalf("seed %d step %d: seat %d legal %v, ToAct %v", seed, n, s, l, toAct)
			}
		}
		if deep {
			checkViews(t, st)
		}
		seat := toAct[r.IntN(len(toAct))] // setup: any order
		legal = st.LegalAppend(legal[:0], seat)
		a := policies[kinds[seat]](st, seat, r)
		if !slices.Contains(legal, a) {
			t.Fatalf("seed %d step %d: policy %d chose illegal %d", seed, n, kinds[seat], a)
		}
		if err := st.Apply(seat, a); err != nil {
			t.Fatalf("seed %d step %d: legal action %s refused: %v", seed, n, mustDecode(a), err)
		}
		log = append(log, step{seat, a})
	}
	if err := st.validate(); err != nil {
		t.Fatalf("seed %d: final: %v", seed, err)
	}
	if deep {
		checkViews(t, st)
	}
	re, _ := New(cfg)
	for _, s := range log {
		if err := re.Apply(s.seat, s.a); err != nil {
			t.Fatalf("seed %d: replay: %v", seed, err)
		}
	}
	if !bytes.Equal(mustMarshal(t, re), mustMarshal(t, st)) {
		t.Fatalf("seed %d: replay differs", seed)
	}
	if c := st.Clone(); *c != *st {
		t.Fatal("clone differs")
	}
	res := st.Result()
	if len(res.Scores) != cfg.Players || len(res.Winners) != 1 || st.seats[res.Winners[0]].out() {
		t.Fatalf("result %+v", res)
	}
}

// checkViews verifies each view against the state: SeatView is Public plus
// the seat's own hand, stack, legal actions and (for the failed challenger
// only) the lost card.
func checkViews(t *testing.T, st *State) {
	t.Helper()
	pub := st.PublicView()
	for s := game.Seat(0); s < game.Seat(st.players); s++ {
		v := st.SeatView(s)
		if !reflect.DeepEqual(v.Public, pub) {
			t.Fatalf("seat %d: public part differs", s)
		}
		b := &st.seats[s]
		if v.Hand != (Hand{int(b.hs), int(b.hb)}) || len(v.Stack) != int(b.n) || !slices.Equal(v.Legal, st.Legal(s)) {
			t.Fatalf("seat %d view %+v", s, v)
		}
		ps := pub.Seats[s]
		if ps.Owned != v.Hand.Sausages+v.Hand.Boots+len(v.Stack) || ps.Hand != v.Hand.Sausages+v.Hand.Boots || ps.Stack != len(v.Stack) {
			t.Fatalf("seat %d counts %+v vs %+v", s, ps, v)
		}
		if v.Lost != NoCard && (!st.last.valid || st.last.challenger != uint8(s) || st.last.success) {
			t.Fatalf("seat %d sees a lost card", s)
		}
	}
	if v := st.SeatView(game.Seat(st.players)); v.Stack != nil || v.Legal != nil || v.Hand != (Hand{}) || v.Lost != NoCard {
		t.Fatal("view for a bad seat shows secrets")
	}
	// Revealed cards are the real ones.
	if st.phase == PhaseAttempt {
		for i, rv := range pub.Revealed {
			if rv.Card != Sausage {
				t.Fatalf("reveal %d: %v during the attempt", i, rv)
			}
		}
	}
}

// TestViewsLeakNothing plays pairs of games that differ only in secrets:
// in the twin, one seat places (and loses) the other kind of card wherever
// it can. As long as no revealed card differs, the public views must be
// identical, and so must the seat views of every seat whose own secrets do
// not differ (a blind pick can make a challenger's lost card differ; that
// challenger joins the secret seats). Any leak of a hand, an unrevealed
// stack card or a lost card into another audience's view fails this.
func TestViewsLeakNothing(t *testing.T) {
	games := 600
	if raceEnabled {
		games = 150
	}
	compared, differ := 0, 0
	for g := 0; g < games; g++ {
		players := MinPlayers + g%(MaxPlayers-MinPlayers+1)
		cfg := Config{Players: players, First: game.Seat(g % players), Seed: uint64(g)}
		c, d := twinGame(t, cfg, uint64(g))
		compared += c
		differ += d
	}
	t.Logf("%d steps compared, %d of them with different secrets", compared, differ)
	if differ < games*5 {
		t.Fatalf("only %d steps compared with different secrets", differ)
	}
}

// twinGame returns the number of steps compared and how many of them had
// different secrets.
func twinGame(t *testing.T, cfg Config, seed uint64) (compared, differ int) {
	main, _ := New(cfg)
	twin, _ := New(cfg)
	r := rand.New(rand.NewPCG(seed, 7))
	secret := uint(1) << (seed % uint64(cfg.Players))
	policies := []policy{randomPolicy, baselinePolicy, slyPolicy, sharpPolicy}
	pol := policies[seed%4]
	for n := 0; !main.Over(); n++ {
		to := main.ToAct()
		seat := to[r.IntN(len(to))]
		a := pol(main, seat, r)
		b := a
		if m := mustDecode(a); secret&(1<<seat) != 0 && (m.Kind == KindPlace || m.Kind == KindLose) {
			m.Card = Sausage + Boot - m.Card
			if f := m.Action(); slices.Contains(twin.Legal(seat), f) && r.IntN(4) != 0 {
				b = f
			}
		}
		if err := main.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
		if err := twin.Apply(seat, b); err != nil {
			return // the twin cannot follow: its secrets now show
		}
		if main.nRev != twin.nRev || main.rev != twin.rev || main.last.rev != twin.last.rev || main.phase != twin.phase {
			return // a revealed card differs: public knowledge diverged
		}
		compared++
		if main.seats != twin.seats || main.last.lost != twin.last.lost {
			differ++
		}
		if main.last.lost != twin.last.lost {
			secret |= 1 << main.last.challenger
		}
		if !reflect.DeepEqual(main.PublicView(), twin.PublicView()) {
			t.Fatalf("seed %d step %d: public views differ\n%+v\n%+v", seed, n, main.PublicView(), twin.PublicView())
		}
		for s := game.Seat(0); s < game.Seat(cfg.Players); s++ {
			if secret&(1<<s) == 0 && !reflect.DeepEqual(main.SeatView(s), twin.SeatView(s)) {
				t.Fatalf("seed %d step %d: seat %d's view depends on others' secrets", seed, n, s)
			}
		}
	}
	return
}
