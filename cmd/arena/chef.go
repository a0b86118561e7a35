package main

import (
	"fmt"
	"time"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/chef"
)

// chefGame is «Меню шефа»: kinds are the AI levels novice, cook and shef,
// 2 to 8 of them. The score is the number of colours in front of a player
// at the end (7 for the winner by the Addition); a game that ends at
// closing time may have shared winners. «Счёт!» is announced by the
// robots themselves (no automatic announcement). -playouts and -budget set
// shef's search budget as for trickchef (chef.Budget).
type chefGame struct{}

func (chefGame) name() string { return "chef" }
func (chefGame) kinds() []string {
	return []string{string(chef.Novice), string(chef.Cook), string(chef.Shef)}
}
func (chefGame) aliases() map[string]string {
	return map[string]string{"top": string(chef.Shef), "middle": string(chef.Cook), "bottom": string(chef.Novice)}
}
func (chefGame) defaultPlayers() string { return "shef,cook,cook,cook" }
func (chefGame) seats() (int, int)      { return chef.MinPlayers, chef.MaxPlayers }
func (chefGame) scoreLabel() string     { return "colours" }
func (chefGame) about(c *config) string {
	return fmt.Sprintf("game chef, shef playouts %d, wall cap %v", c.playouts, c.budget)
}

func (chefGame) newTable(c *config, players int, seed uint64) (table, error) {
	st, err := chef.New(chef.Config{Players: players, First: 0, Seed: seed})
	if err != nil {
		return nil, err
	}
	t := chefTable{st: st, budget: chef.Budget{Playouts: c.playouts}}
	if c.budget > 0 {
		t.budget.Wall, t.budget.Clock = c.budget, time.Now
	}
	return t, nil
}

type chefTable struct {
	st     *chef.State
	budget chef.Budget
}

func (t chefTable) toAct() []game.Seat { return t.st.ToAct() }

func (t chefTable) decide(kind string, s game.Seat, seed uint64) (game.Action, time.Duration) {
	v := t.st.SeatView(s)
	t0 := time.Now()
	a := chef.DecideBudget(chef.Level(kind), v, seed, t.budget)
	return a, time.Since(t0)
}

func (t chefTable) apply(s game.Seat, a game.Action) error { return t.st.Apply(s, a) }

func (t chefTable) result() ([]int, []game.Seat) {
	r := t.st.Result()
	return r.Scores, r.Winners
}
