package main

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/sausages"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// trickchefGame is Трик-н-Шеф: kinds are the AI levels (prevshef, the
// first «Шеф», is the yardstick for today's) plus the engine's Baseline;
// the score is the game total.
type trickchefGame struct{}

// baseline names the engine's Baseline heuristic, the yardstick under the
// three levels (Novice is Baseline with slips).
const baseline tc.Level = "baseline"

func (trickchefGame) name() string { return "trickchef" }
func (trickchefGame) kinds() []string {
	return []string{string(tc.Novice), string(tc.Cook), string(tc.Shef), string(tc.PrevShef), string(baseline)}
}

// prevShef is the level that keeps the previous top level's algorithm
// (today's «Шеф») once game/trickchef has a new top; kinds lists it only
// when the engine offers it, so until then prevtop is refused.
const prevShef tc.Level = "prevshef"

func (trickchefGame) aliases() map[string]string {
	return map[string]string{"top": string(tc.Shef), "middle": string(tc.Cook), "bottom": string(tc.Novice),
		"prevtop": string(prevShef)}
}
func (trickchefGame) defaultPlayers() string { return "shef,cook,cook,cook" }
func (trickchefGame) seats() (int, int)      { return 3, 4 }
func (trickchefGame) scoreLabel() string     { return "avg score" }
func (trickchefGame) about(c *config) string {
	return fmt.Sprintf("shef playouts %d, wall cap %v", c.playouts, c.budget)
}

func (trickchefGame) newTable(c *config, players int, seed uint64) (table, error) {
	st, err := tc.New(tc.DefaultConfig(players, 0, seed))
	if err != nil {
		return nil, err
	}
	t := &trickchefTable{st: st, budget: tc.Budget{Playouts: c.playouts}}
	if c.budget > 0 {
		t.budget.Wall, t.budget.Clock = c.budget, time.Now
	}
	return t, nil
}

// trickchefTable keeps the round's public History beside the state, as the
// bot does.
type trickchefTable struct {
	st     *tc.State
	h      tc.History
	budget tc.Budget
}

func (t *trickchefTable) toAct() []game.Seat { return t.st.ToAct() }

func (t *trickchefTable) decide(kind string, s game.Seat, seed uint64) (game.Action, time.Duration) {
	v := t.st.SeatView(s)
	t0 := time.Now()
	var a game.Action
	if l := tc.Level(kind); l == baseline {
		a = tc.Baseline(v, seed)
	} else {
		a = tc.Decide(l, v, t.h, seed, t.budget)
	}
	return a, time.Since(t0)
}

func (t *trickchefTable) apply(s game.Seat, a game.Action) error {
	if err := t.st.Apply(s, a); err != nil {
		return err
	}
	t.h.Observe(t.st.PublicView())
	return nil
}

func (t *trickchefTable) result() ([]int, []game.Seat) {
	r := t.st.Result()
	return r.Scores, r.Winners
}

// sausagesGame is Сосиски: novice is the engine's Baseline, sly its Sly,
// sharp its Sharp (the top level), random a uniformly random legal action. One winner per game; the score
// is the number of successes.
type sausagesGame struct{}

func (sausagesGame) name() string    { return "sausages" }
func (sausagesGame) kinds() []string { return []string{"novice", "sly", "sharp", "random"} }
func (sausagesGame) aliases() map[string]string {
	return map[string]string{"top": "sharp", "middle": "sly", "bottom": "novice"}
}
func (sausagesGame) defaultPlayers() string { return "sly,novice,novice,novice" }
func (sausagesGame) seats() (int, int)      { return sausages.MinPlayers, sausages.MaxPlayers }
func (sausagesGame) scoreLabel() string     { return "successes" }
func (sausagesGame) about(c *config) string { return "game sausages" }
func (sausagesGame) newTable(_ *config, players int, seed uint64) (table, error) {
	st, err := sausages.New(sausages.Config{Players: players, First: 0, Seed: seed})
	if err != nil {
		return nil, err
	}
	return sausagesTable{st}, nil
}

type sausagesTable struct{ st *sausages.State }

// toAct lists every seat still to place in setup (simultaneous), else one.
func (t sausagesTable) toAct() []game.Seat { return t.st.ToAct() }

func (t sausagesTable) decide(kind string, s game.Seat, seed uint64) (game.Action, time.Duration) {
	if kind == "random" {
		l := t.st.Legal(s)
		t0 := time.Now()
		a := l[rand.New(rand.NewPCG(seed, 0x5a05a9e5)).IntN(len(l))]
		return a, time.Since(t0)
	}
	v := t.st.SeatView(s)
	t0 := time.Now()
	var a game.Action
	switch kind {
	case "sly":
		a = sausages.Sly(v, seed)
	case "sharp":
		a = sausages.Sharp(v, seed)
	default:
		a = sausages.Baseline(v, seed)
	}
	return a, time.Since(t0)
}

func (t sausagesTable) apply(s game.Seat, a game.Action) error { return t.st.Apply(s, a) }

// result scores each seat's successes: board side 2 is one, and the
// winning attempt of a winner by successes is the second.
func (t sausagesTable) result() ([]int, []game.Seat) {
	p := t.st.PublicView()
	scores := make([]int, p.Players)
	for i, s := range p.Seats {
		scores[i] = s.Side - 1
	}
	w, _ := t.st.Winner()
	if p.LastRound != nil && p.LastRound.Won {
		scores[w] = 2
	}
	return scores, []game.Seat{w}
}
