package chef

import (
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// chefDeal seats n people at a table of Меню шефа and replaces the dealt
// game with a position from chef.ParseDeal, then plays the given moves
// (chef notation) for the seats to act.
func chefDeal(t *testing.T, n int, opts map[string]int, deal string, moves ...string) (*record.Table, *ce.State) {
	t.Helper()
	tab, _ := golden.Table(t, Game(), n, 0, "", 1, opts)
	st, err := ce.ParseDeal(deal)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range moves {
		m, err := ce.ParseMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		s := st.ToAct()[0]
		if err := st.Apply(s, m.Action()); err != nil {
			t.Fatalf("%s by seat %d: %v", mv, s, err)
		}
		tab.Seats[s].Nonce++
	}
	golden.Sync(t, tab, st)
	return tab, st
}

// playChefRobots plays the Cook for every seat until the game ends,
// returning the state before the last move (for its announcement).
func playChefRobots(t *testing.T, tab *record.Table, st *ce.State, seed uint64) game.State {
	t.Helper()
	var before game.State
	for i := 0; !st.Over(); i++ {
		if i > 100000 {
			t.Fatal("the robots' game did not end")
		}
		s := st.ToAct()[0]
		before = st.Clone()
		if err := st.Apply(s, ce.Decide(ce.Cook, st.SeatView(s), seed+uint64(i))); err != nil {
			t.Fatal(err)
		}
		tab.Seats[s].Nonce++
	}
	golden.Sync(t, tab, st)
	return before
}

func TestGoldenChef(t *testing.T) {
	g := Game()
	t.Run("start", func(t *testing.T) {
		// Eight seats, the longest table: six people and two robots.
		tab, _ := golden.Table(t, g, 8, 2, "shef", 31, nil)
		golden.Check(t, "chef_start", golden.Render(t, g, tab, nil))
	})
	t.Run("mid", func(t *testing.T) {
		// Eight seats after a round of penalties: Серёжа and Артём skip,
		// Маша has announced, and Оля has chosen Похмелье's first dish.
		tab, _ := chefDeal(t, 8, nil,
			"0:orpgHH 1:orppgbn 2:orpgbn 3:ooC 4:rgbD 5:pnE 6:orgbn 7:- discard:b pile:goHbr turn:5",
			"play:E", "draw", "end", "play:H:pn", "announce", "draw", "discard:o", "play:C:r",
			"draw", "play:H:pn", "draw", "discard:b", "draw", "end")
		tab.Seats[0].Draft = []int{chefFlowCard + int(ce.Hangover), int(ce.Sauce)}
		tab.Seats[3].Timeouts = 2 // the bot plays for Дима
		golden.Check(t, "chef_mid", golden.Render(t, g, tab, nil))
	})
	t.Run("turn", func(t *testing.T) {
		// Оля may take the discard's top, draw, play her Диета and discard
		// her second 🍤: the turn's line names all four; Серёжа, next,
		// has three dishes of two colours.
		tab, _ := chefDeal(t, 3, nil, "0:oorpD 1:rrg 2:b discard:n pile:go")
		golden.Check(t, "chef_turn", golden.Render(t, g, tab, nil))
	})
	t.Run("announced", func(t *testing.T) {
		// Оля announced «Счёт!» and drew a Chef onto her complete menu:
		// she may redraw, play the Chef, discard a dish or end the turn.
		tab, _ := chefDeal(t, 4, nil,
			"0:orpgbn 1:orpgb 2:ooHC 3:rg discard:n pile:C",
			"announce", "draw")
		golden.Check(t, "chef_announced", golden.Render(t, g, tab, nil))
	})
	t.Run("two", func(t *testing.T) {
		// Two players, «Счёт!» announced automatically: Серёжа's menu was
		// announced for him, then Оля's Diet took his 🍅 out of the game,
		// his «Счёт!» lapsed and he skips, so Оля plays again.
		tab, _ := chefDeal(t, 2, map[string]int{chefOptAnnounce: 1},
			"0:orpgbnD 1:orpgbnn discard:p auto turn:1",
			"discard:n", "play:D:r")
		golden.Check(t, "chef_two", golden.Render(t, g, tab, nil))
	})
	t.Run("cards", func(t *testing.T) {
		// Every action card drawn (the drawer's prompt, the log line) and
		// drawn and played at once: each card name after «тянет», «Вы
		// вытянули» and «сбрасывает», for the eye and for locales'
		// TestCardCases.
		var sb strings.Builder
		for _, c := range []struct{ card, play string }{
			{"H", "play:H:or"}, {"D", "play:D:o"}, {"E", "play:E"},
			{"M", "play:M"}, {"C", "play:C:o"}, {"A", ""},
		} {
			deal := "0:pg 1:org discard:n pile:" + c.card
			tab, _ := chefDeal(t, 2, nil, deal, "draw")
			sb.WriteString("════════ " + deal + ": draw\n" + golden.Render(t, g, tab, nil))
			if c.play != "" {
				tab, _ = chefDeal(t, 2, nil, deal, "draw", c.play)
				sb.WriteString("════════ " + deal + ": draw, " + c.play + "\n" + golden.Render(t, g, tab, nil))
			}
		}
		// What the drawer is told can be done: only what the buttons do.
		for _, deal := range []string{
			"0:- 1:org 2:o discard:n pile:D", // playable, nothing to discard
			"0:pg 1:- 2:o discard:n pile:D",  // not playable (Серёжа has no dish), a dish to discard
			"0:- 1:- 2:org discard:n pile:D", // neither: only «keep»
			"0:- 1:- 2:org discard:n pile:C",
		} {
			tab, _ := chefDeal(t, 3, nil, deal, "draw")
			sb.WriteString("════════ " + deal + ": draw\n" + golden.Render(t, g, tab, nil))
		}
		tab, _ := chefDeal(t, 2, nil, "0:orpgbn 1:org discard:n pile:Cb", "announce", "draw", "redraw")
		sb.WriteString("════════ a Chef drawn onto a complete menu, redrawn\n" + golden.Render(t, g, tab, nil))
		golden.Check(t, "chef_cards", sb.String())
	})
	t.Run("over", func(t *testing.T) {
		tab, st := golden.Table(t, g, 5, 0, "", 33, nil)
		before := playChefRobots(t, tab, st.(*ce.State), 3)
		golden.Check(t, "chef_over", golden.Render(t, g, tab, before))
	})
	t.Run("closed", func(t *testing.T) {
		// Random play rarely completes a menu: the kitchen closes.
		tab, st := golden.Table(t, g, 3, 0, "", 34, nil)
		before := golden.PlayRandom(t, g, tab, st, 100000, 5)
		if !st.(*ce.State).PublicView().Closed {
			t.Fatal("want a game ended at closing time")
		}
		golden.Check(t, "chef_closed", golden.Render(t, g, tab, before))
	})
}
