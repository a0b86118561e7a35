package trickchef

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// TestRandomPlayouts plays thousands of seeded games, mixing uniformly
// random legal actions with Baseline decisions, and checks the invariants
// at every step.
func TestRandomPlayouts(t *testing.T) {
	games := 2000
	if testing.Short() || raceEnabled {
		games = 400 // the race detector is ~10x slower; still hundreds of games
	}
	const shards = 8 // parallel, to keep -race fast on many cores
	for sh := 0; sh < shards; sh++ {
		t.Run(fmt.Sprintf("shard%d", sh), func(t *testing.T) {
			t.Parallel()
			for g := sh; g < games; g += shards {
				players := 4 - g%2
				cfg := Config{Players: players, Removed: Suit(g / 2 % 4), First: game.Seat(g % players), Seed: uint64(g) * 7919}
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
	aiSeats := 0 // seats played by Baseline, in one game of four
	if seed%4 == 1 {
		aiSeats = r.IntN(1 << cfg.Players)
	}
	deep := seed%40 == 0 // views, leaks and Baseline at every step
	var actions []game.Action
	var legal []game.Action
	tricks, rounds := 0, 1
	for step := 0; !st.Over(); step++ {
		if step > 500 {
			t.Fatalf("seed %d: game does not end", seed)
		}
		if err := st.validate(); err != nil {
			t.Fatalf("seed %d step %d: %v", seed, step, err)
		}
		b := mustMarshal(t, st)
		back, err := Unmarshal(b)
		if err != nil || *back != *st {
			t.Fatalf("seed %d step %d: round trip: %v", seed, step, err)
		}
		seat, ok := st.Current()
		if !ok || !slices.Equal(st.ToAct(), []game.Seat{seat}) {
			t.Fatalf("seed %d step %d: ToAct %v", seed, step, st.ToAct())
		}
		legal = st.LegalAppend(legal[:0], seat)
		if len(legal) == 0 {
			t.Fatalf("seed %d step %d: no legal action", seed, step)
		}
		for s := game.Seat(0); s < game.Seat(cfg.Players); s++ {
			if s != seat && len(st.Legal(s)) != 0 {
				t.Fatalf("seed %d: seat %d has actions out of turn", seed, s)
			}
		}
		if deep {
			checkViews(t, st)
		}
		var a game.Action
		if aiSeats&(1<<seat) != 0 || deep {
			v := st.SeatView(seat)
			a = Baseline(v, seed)
			if !slices.Contains(legal, a) {
				t.Fatalf("seed %d step %d: Baseline %d not legal", seed, step, a)
			}
			if Baseline(v, seed) != a {
				t.Fatalf("seed %d: Baseline not deterministic", seed)
			}
		}
		if aiSeats&(1<<seat) == 0 {
			a = legal[r.IntN(len(legal))]
		}
		round, phase := st.round, st.phase
		if err := st.Apply(seat, a); err != nil {
			t.Fatalf("seed %d step %d: legal action %d refused: %v", seed, step, a, err)
		}
		actions = append(actions, a)
		if phase == PhasePlay && st.phase != PhasePlay || phase == PhasePlay && st.nPlayed == 0 {
			tricks++ // a trick was completed (award pending or automatic)
		}
		if st.round != round {
			rounds++
		}
	}
	if err := st.validate(); err != nil {
		t.Fatalf("seed %d: final: %v", seed, err)
	}
	if rounds != 3 || tricks != 30 || len(st.PublicView().RoundResults) != 3 {
		t.Fatalf("seed %d: %d rounds, %d tricks", seed, rounds, tricks)
	}
	if deep {
		checkViews(t, st)
	}
	// Replay from the config and the actions.
	re, _ := New(cfg)
	for _, a := range actions {
		s, _ := re.Current()
		if err := re.Apply(s, a); err != nil {
			t.Fatalf("seed %d: replay: %v", seed, err)
		}
	}
	if !bytes.Equal(mustMarshal(t, re), mustMarshal(t, st)) {
		t.Fatalf("seed %d: replay differs", seed)
	}
	if c := st.Clone(); !bytes.Equal(mustMarshal(t, c), mustMarshal(t, st)) {
		t.Fatal("clone differs")
	}
	res := st.Result()
	if len(res.Scores) != cfg.Players || len(res.Winners) == 0 {
		t.Fatalf("result %+v", res)
	}
}

// checkViews verifies that views show exactly what their audience may see:
// Public shows no hand card and no won pile of the round in progress; a
// SeatView adds only that seat's hand and won pile.
func checkViews(t *testing.T, st *State) {
	t.Helper()
	pub := st.PublicView()
	// Cards Public may show outside finished rounds' results: the trick in
	// progress and the last completed trick.
	var allowed cardSet
	for i := 0; i < int(st.nPlayed); i++ {
		allowed |= 1 << st.plays[i].card
	}
	if st.last.valid {
		for i := 0; i < int(st.players); i++ {
			allowed |= 1 << st.last.plays[i].card
		}
	}
	shown := collectCards(reflect.ValueOf(pub), "RoundResults")
	if shown&^allowed != 0 {
		t.Fatalf("public view shows %s", FormatCards((shown &^ allowed).cards()))
	}
	// The last trick of the previous round shows cards of another deal.
	if st.phase == PhasePick || st.phase == PhasePlay && st.trick == 1 {
		shown = collectCards(reflect.ValueOf(pub.CurrentTrick), "")
	}
	for i := 0; i < int(st.players); i++ {
		if shown&st.hands[i] != 0 {
			t.Fatalf("public view shows seat %d's hand: %s phase %s round %d", i, FormatCards((shown & st.hands[i]).cards()), st.phase, st.round)
		}
	}
	if len(pub.RoundResults) != st.finishedRounds() {
		t.Fatal("round results of an unfinished round")
	}
	for s := game.Seat(0); s < game.Seat(st.players); s++ {
		v := st.SeatView(s)
		if s == pub.ToAct && !reflect.DeepEqual(v.Public, pub) {
			t.Fatalf("seat %d view: public part differs", s)
		}
		own := collectCards(reflect.ValueOf(v), "Public")
		if own != st.hands[s]|st.won[s] {
			t.Fatalf("seat %d view shows %s", s, FormatCards(own.cards()))
		}
		if !slices.Equal(v.Hand, st.hands[s].cards()) || !slices.Equal(v.Won, st.won[s].cards()) {
			t.Fatalf("seat %d hand/won", s)
		}
		if !slices.Equal(v.Legal, st.Legal(s)) {
			t.Fatalf("seat %d legal", s)
		}
		for _, c := range v.Playable {
			if !slices.Contains(v.Legal, PlayAction(c, 0)) {
				t.Fatalf("seat %d playable %s not legal", s, c)
			}
		}
	}
	// Out-of-range seats get nothing private.
	if v := st.SeatView(game.Seat(st.players)); v.Hand != nil || v.Won != nil || v.Legal != nil {
		t.Fatal("view for a bad seat shows secrets")
	}
}

// collectCards gathers every Card reachable from v, skipping struct fields
// named skip.
func collectCards(v reflect.Value, skip string) cardSet {
	var m cardSet
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			m |= collectCards(v.Elem(), skip)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			m |= collectCards(v.Index(i), skip)
		}
	case reflect.Struct:
		if c, ok := v.Interface().(Card); ok {
			if c.Valid() {
				m |= 1 << c.index()
			}
			return m
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).Name != skip {
				m |= collectCards(v.Field(i), skip)
			}
		}
	}
	return m
}
