package chef_test

import (
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// TestOpenScene: everything in front of a seat is public already, so the
// replay shows every seat's cards as the table does, and the pile's next
// card face up; nothing to press.
func TestOpenScene(t *testing.T) {
	last := reviewtest.CheckOpenScene(t, chef.Game(), 30, func(st game.State, seat int) int {
		n := 0
		for _, c := range st.(*ce.State).PublicView().Seats[seat].Cards {
			n += c
		}
		return n
	})
	golden.Check(t, "open_scene", last)
}

// The replay turns the pile's next card face up.
func TestOpenScenePile(t *testing.T) {
	tab, st := golden.Table(t, chef.Game(), 3, 0, "", 5, nil)
	golden.Sync(t, tab, st)
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	sc := chef.Game().(adapter.ReplayGame).OpenScene(l, adapter.View(tab), st)
	for _, p := range sc.Center {
		for _, c := range p.Cards {
			if c.Back {
				t.Fatalf("a card face down in the replay: %+v", p)
			}
		}
	}
	next := st.(*ce.State).Pile()[0]
	name := l.T("chef.card." + next.Key())
	if next.IsDish() {
		name = l.T("chef.dish." + next.Key())
	}
	if len(sc.Center) == 0 || len(sc.Center[0].Cards) != 1 || sc.Center[0].Cards[0].Name != name {
		t.Fatalf("the pile's next card, %s, not shown: %+v", name, sc.Center)
	}
}
