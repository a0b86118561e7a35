package sausages

import (
	"reflect"
	"slices"
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
		dealHidden(&rebuilt, &v, newBelief(&v), &r)
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

// Judge's Best is Sharp's own move for the same view and seed; Sharp's
// move and the moves of its mix cost nothing and are not played out; any
// other is played out, the same way each time.
func TestJudgeAgreesWithSharp(t *testing.T) {
	played, mixed, moot := 0, 0, 0
	judgeWalk(t, 12, func(st *State, s game.Seat, a game.Action, g, i int) {
		v := st.SeatView(s)
		seed := uint64(g*1000 + i)
		sharp := Sharp(v, seed)
		vd := Judge(st.SeatView(s), seed, 40, a)
		switch {
		case vd.Best != sharp:
			t.Fatalf("game %d move %d: Judge's best %d, Sharp plays %d", g, i, vd.Best, sharp)
		case a == sharp && (vd.Deals != 0 || vd.Mixed):
			t.Fatalf("game %d move %d: Sharp's own move played out: %+v", g, i, vd)
		case a != sharp && vd.Mixed != slices.Contains(sharpMix(v, seed), a):
			t.Fatalf("game %d move %d: mix %v", g, i, vd.Mixed)
		case a != sharp && !vd.Mixed && vd.Deals != 40:
			t.Fatalf("game %d move %d: %d against %d played on %d deals", g, i, a, sharp, vd.Deals)
		case vd.Moot != (len(sharpMix(v, seed)) == len(v.Legal)):
			t.Fatalf("game %d move %d: moot %v", g, i, vd.Moot)
		}
		if vd.Moot {
			moot++
		}
		if again := Judge(st.SeatView(s), seed, 40, a); again != vd {
			t.Fatalf("game %d move %d: %+v, then %+v", g, i, vd, again)
		}
		if vd.Mixed {
			mixed++
		}
		if vd.Deals > 0 {
			played++
		}
	})
	if played < 30 || mixed < 30 || moot < 30 {
		t.Fatalf("%d moves played out, %d in Sharp's mix, %d where any move is", played, mixed, moot)
	}
	if vd := Judge(SeatView{}, 1, 10, 0); vd.Best != -1 {
		t.Fatalf("an empty view judged: %+v", vd)
	}
}
