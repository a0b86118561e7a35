package chekharda

import (
	"bytes"
	"sync"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// The race: seats 0 and 1 both hold a single pig and press "steal 🐷 from
// seat 2" on the same view. Whichever the platform commits first takes the
// set; the other is refused with set_gone and changes nothing: the state is
// byte-identical to the one-steal result, nothing applied twice or lost.
func TestRaceConflictingSteals(t *testing.T) {
	const table = "PC / MM | PA / TT | Z / PPP ; deck J"
	for _, order := range [][2]game.Seat{{0, 1}, {1, 0}} {
		first, second := order[0], order[1]
		one := deal(t, table)
		apply1 := func(st *State) {
			if err := st.Apply(first, StealAction(Pig, 2)); err != nil {
				t.Fatal(err)
			}
		}
		apply1(one)
		want := mustMarshal(t, one)

		st := deal(t, table)
		apply1(st)
		expectErr(t, st, second, StealAction(Pig, 2), CodeSetGone)
		if !bytes.Equal(mustMarshal(t, st), want) {
			t.Fatalf("order %v: state after the refused steal differs from the one-steal result", order)
		}
		if st.seats[first].set[Pig] != 4 || st.seats[second].hand[Pig] != 1 {
			t.Fatalf("order %v: %s", order, st.Notation())
		}
		checkCards(t, st)
		// The loser learns who was faster, and may now steal from the
		// winner instead: the same single pig, a new victim.
		if e, ok := st.PublicView().LastSteal(Pig, 2); !ok || e.Seat != first || e.N != 3 {
			t.Fatalf("order %v: last steal %+v", order, e)
		}
		if err := st.Apply(second, StealAction(Pig, first)); err != nil {
			t.Fatalf("order %v: steal from the winner: %v", order, err)
		}
	}
}

// The same race through a serializing platform: two goroutines press at
// once; exactly one press succeeds, the other gets set_gone, and the final
// state is one of the two one-steal results.
func TestRaceConcurrentPresses(t *testing.T) {
	const table = "PC / MM | PA / TT | Z / PPP ; deck J"
	results := map[string]game.Seat{}
	for _, s := range []game.Seat{0, 1} {
		one := deal(t, table)
		if err := one.Apply(s, StealAction(Pig, 2)); err != nil {
			t.Fatal(err)
		}
		results[string(mustMarshal(t, one))] = s
	}
	runs := 200
	if raceEnabled {
		runs = 50
	}
	for run := 0; run < runs; run++ {
		st := deal(t, table)
		var mu sync.Mutex // the platform commits one action at a time
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mu.Lock()
				defer mu.Unlock()
				errs[i] = st.Apply(game.Seat(i), StealAction(Pig, 2))
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case game.CodeOf(err) != CodeSetGone:
				t.Fatalf("refusal %v", err)
			}
		}
		winner, known := results[string(mustMarshal(t, st))]
		if ok != 1 || !known || errs[winner] != nil {
			t.Fatalf("run %d: %d presses applied, final state known %v", run, ok, known)
		}
	}
}
