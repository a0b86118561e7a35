package bot

import (
	"testing"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/chef"
)

// chefDeal seats n people at a table of Меню шефа and replaces the dealt
// game with a position from chef.ParseDeal, then plays the given moves
// (chef notation) for the seats to act.
func chefDeal(t *testing.T, n int, opts map[string]int, deal string, moves ...string) (*Table, *chef.State) {
	t.Helper()
	tab, _ := goldenTable(t, Chef(), n, 0, "", 1, opts)
	st, err := chef.ParseDeal(deal)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range moves {
		m, err := chef.ParseMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		s := st.ToAct()[0]
		if err := st.Apply(s, m.Action()); err != nil {
			t.Fatalf("%s by seat %d: %v", mv, s, err)
		}
		tab.Seats[s].Nonce++
	}
	syncGolden(t, tab, st)
	return tab, st
}

// playChefRobots plays the Cook for every seat until the game ends,
// returning the state before the last move (for its announcement).
func playChefRobots(t *testing.T, tab *Table, st *chef.State, seed uint64) game.State {
	t.Helper()
	var before game.State
	for i := 0; !st.Over(); i++ {
		if i > 100000 {
			t.Fatal("the robots' game did not end")
		}
		s := st.ToAct()[0]
		before = st.Clone()
		if err := st.Apply(s, chef.Decide(chef.Cook, st.SeatView(s), seed+uint64(i))); err != nil {
			t.Fatal(err)
		}
		tab.Seats[s].Nonce++
	}
	syncGolden(t, tab, st)
	return before
}

func TestGoldenChef(t *testing.T) {
	g := Chef()
	t.Run("start", func(t *testing.T) {
		// Eight seats, the longest table: six people and two robots.
		tab, _ := goldenTable(t, g, 8, 2, "shef", 31, nil)
		golden(t, "chef_start", renderGolden(t, g, tab, nil))
	})
	t.Run("mid", func(t *testing.T) {
		// Eight seats after a round of penalties: Серёжа and Артём skip,
		// Маша has announced, and Оля has chosen Похмелье's first dish.
		tab, _ := chefDeal(t, 8, nil,
			"0:orpgHH 1:orppgbn 2:orpgbn 3:ooC 4:rgbD 5:pnE 6:orgbn 7:- discard:b pile:goHbr turn:5",
			"play:E", "draw", "end", "play:H:pn", "announce", "draw", "discard:o", "play:C:r",
			"draw", "play:H:pn", "draw", "discard:b", "draw", "end")
		tab.Seats[0].Draft = []int{chefFlowCard + int(chef.Hangover), int(chef.Sauce)}
		tab.Seats[3].Timeouts = 2 // the bot plays for Дима
		golden(t, "chef_mid", renderGolden(t, g, tab, nil))
	})
	t.Run("announced", func(t *testing.T) {
		// Оля announced «Счёт!» and drew a Chef onto her complete menu:
		// she may redraw, play the Chef, discard a dish or end the turn.
		tab, _ := chefDeal(t, 4, nil,
			"0:orpgbn 1:orpgb 2:ooHC 3:rg discard:n pile:C",
			"announce", "draw")
		golden(t, "chef_announced", renderGolden(t, g, tab, nil))
	})
	t.Run("two", func(t *testing.T) {
		// Two players, «Счёт!» announced automatically: Серёжа's menu was
		// announced for him, then Оля's Diet took his 🍅 out of the game,
		// his «Счёт!» lapsed and he skips, so Оля plays again.
		tab, _ := chefDeal(t, 2, map[string]int{chefOptAnnounce: 1},
			"0:orpgbnD 1:orpgbnn discard:p auto turn:1",
			"discard:n", "play:D:r")
		golden(t, "chef_two", renderGolden(t, g, tab, nil))
	})
	t.Run("over", func(t *testing.T) {
		tab, st := goldenTable(t, g, 5, 0, "", 33, nil)
		before := playChefRobots(t, tab, st.(*chef.State), 3)
		golden(t, "chef_over", renderGolden(t, g, tab, before))
	})
	t.Run("closed", func(t *testing.T) {
		// Random play rarely completes a menu: the kitchen closes.
		tab, st := goldenTable(t, g, 3, 0, "", 34, nil)
		before := playRandom(t, g, tab, st, 100000, 5)
		if !st.(*chef.State).PublicView().Closed {
			t.Fatal("want a game ended at closing time")
		}
		golden(t, "chef_closed", renderGolden(t, g, tab, before))
	})
}
