package sausages

import (
	"reflect"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// judgeWalk plays seeded 3–6 player games, Baseline and Sly alternating
// by seat, and calls visit before every decision of a seat with a choice.
func judgeWalk(t *testing.T, games int, visit func(st *State, s game.Seat, a game.Action, g, i int)) {
	t.Helper()
	for g := 0; g < games; g++ {
		st, _ := New(Config{Players: 3 + g%4, Seed: uint64(g) + 5})
		for i := 0; !st.Over(); i++ {
			for _, s := range st.ToAct() {
				v := st.SeatView(s)
				a := Baseline(v, uint64(i))
				if int(s)%2 == 1 {
					a = Sly(v, uint64(i))
				}
				if len(v.Legal) > 1 {
					visit(st, s, a, g, i)
				}
				if err := st.Apply(s, a); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// The state fromView rebuilds shows the seat exactly its view, and with
// the others' cards dealt everyone sees the same public table.
func TestFromView(t *testing.T) {
	r := rng(1)
	n := 0
	judgeWalk(t, 30, func(st *State, s game.Seat, _ game.Action, g, i int) {
		v := st.SeatView(s)
		rebuilt, ok := fromView(&v)
		if !ok {
			t.Fatalf("game %d move %d: view of seat %d not rebuilt", g, i, s)
		}
		dealHiddenPrior(&rebuilt, &v, newBelief(&v), &r, beliefSetupBoot)
		if got := rebuilt.SeatView(s); !reflect.DeepEqual(got, v) {
			t.Fatalf("game %d move %d: rebuilt view\n%+v\nwant\n%+v", g, i, got, v)
		}
		if err := rebuilt.validate(); err != nil {
			t.Fatalf("game %d move %d: dealt state invalid: %v", g, i, err)
		}
		n++
	})
	if n < 200 {
		t.Fatalf("only %d views", n)
	}
}
