// Package review is «🔍 Разбор»: after a game, the engine of the game's
// top robot level goes through a person's decisions and judges each from
// what the person could see then (adapter.ReviewGame), weighing every
// legal move with more playouts than the top level plays with. It replays
// a finished table record from its seed and log exactly as the game went,
// asks the judge at each of the person's own moves (the robots' memory
// then, a seed derived apart from the top level's there, the judge's
// budget counted in playouts), and sums the verdicts up in a Report: an
// accuracy for the game, its inaccuracies, mistakes and blunders, and the
// three costliest decisions in words. It is pure: no clock, no store, no
// Telegram.
package review

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// Options shape a review.
type Options struct {
	// Playouts is the judge's budget for each judgement, as a count
	// (adapter.Decision.Playouts); 0: the game's judging default, more
	// than its top level plays with.
	Playouts int
	// Judged, if set, is called after each judgement: the runtime paces a
	// review with it (it may sleep), so a review never takes more of the
	// machine than its share. It does not change the Report.
	Judged func()
}

// Moments is how many of the costliest decisions a Report tells.
const Moments = 3

// Report is a person's game as the judge saw it.
type Report struct {
	Game  string // the game's id
	Level string // the top level of its robots, whose engine judged
	// Accuracy is 0–100: Score of the judged decisions (100 when none
	// was judged).
	Accuracy float64
	// Judged is how many decisions were judged: the person's own moves
	// where they had more than one legal move, and one could cost
	// something (adapter.Judgement.Moot).
	Judged int
	// Inaccuracies, Mistakes and Blunders count the judged decisions by
	// their loss (Grade).
	Inaccuracies, Mistakes, Blunders int
	// Moments are the costliest decisions, costliest first (earlier first
	// on a tie), at most Moments, only those that cost something.
	Moments []Moment
	// Costs are every judged decision that cost something, in the order
	// of the game: what the replay in «Стол» marks on the person's moves.
	Costs []Cost
}

// Cost is one decision that cost something: its move in the game's log,
// the judge's move there and the loss.
type Cost struct {
	Move int
	Best game.Action
	Loss float64
}

// Moment is one decision of a Report in words.
type Moment struct {
	Move   int     // its index in the game's log
	Loss   float64 // the Judgement's Loss
	Judged adapter.Judged
}

// Score is a game's accuracy, 0–100, from its decisions' losses and what
// a random legal move would have lost at each (adapter.Judgement's Loss
// and Random): 100·(1 − Σloss / Σrandom), at least 0. Each decision
// scores 1 − loss/random (1 for the judge's move, 0 on average for a
// random one) weighted by random, how much the choice mattered, so a
// forced or all-equal choice counts for nothing and uniformly random play
// scores about 0; 100 when nothing mattered.
func Score(loss, random []float64) float64 {
	var l, r float64
	for i := range loss {
		l += min(1, max(0, loss[i]))
		r += min(1, max(0, random[i]))
	}
	if r <= 0 {
		return 100
	}
	return 100 * max(0, 1-l/r)
}

// Grade is a decision's class by its loss, on Lichess's thresholds of lost
// winning chances (0.1, 0.2, 0.3 of its −1…1 scale, so 5%, 10% and 15%
// of the chance to win): 0 none, 1 an inaccuracy, 2 a mistake, 3 a blunder.
// The loss counts in ten-thousandths, as the stored form keeps it, so a
// report read back grades alike.
func Grade(loss float64) int {
	loss = math.Round(loss*1e4) / 1e4
	switch {
	case loss >= 0.15:
		return 3
	case loss >= 0.10:
		return 2
	case loss >= 0.05:
		return 1
	}
	return 0
}

// JudgeSeed is the seed of the judge at the move whose top-level decision
// seed is seed: derived apart from it, so the judge does not replay the
// top level's own sampling.
func JudgeSeed(seed uint64) uint64 {
	z := seed ^ 0x6a75646765736564 // "judgesed"
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// ErrNotReviewable is returned for a game whose top level cannot review.
var ErrNotReviewable = errors.New("review: the game's robots do not review")

// Review replays the finished table t of game g and judges every move seat
// made itself (Move.Auto false) where it had a choice, with the judge's
// Decision at that point (the robots' memory then, JudgeSeed of the
// table's decision seed there); the Report's words are in l. t is not
// changed. The cost is one judgement per judged move (docs/ai.md,
// «Разбор», has it measured per game).
func Review(g adapter.Game, t *record.Table, seat int, l adapter.Loc, o Options) (Report, error) {
	rg, ok := g.(adapter.ReviewGame)
	if !ok || !adapter.Reviewable(g) {
		return Report{}, ErrNotReviewable
	}
	if seat < 0 || seat >= len(t.Seats) {
		return Report{}, fmt.Errorf("review: no seat %d", seat)
	}
	levels := adapter.Levels(g)
	top := levels[len(levels)-1]
	view := adapter.View(t)
	r := Report{Game: g.ID(), Level: top}
	var costly []costlyMove
	var losses, randoms []float64
	err := Replay(g, t, func(i int, st game.State, memory []byte) {
		m := t.Log[i]
		if int(m.Seat) != seat || m.Auto {
			return
		}
		legal := st.Legal(m.Seat)
		if len(legal) < 2 || !slices.Contains(legal, m.Action) {
			return // no choice (or not a move the seat could make: Replay fails on it)
		}
		d := adapter.Decision{Level: top, Seed: JudgeSeed(record.DecisionSeed(t.Seed, i)), Memory: memory, Playouts: o.Playouts}
		j := rg.Judge(st, m.Seat, m.Action, d)
		if o.Judged != nil {
			o.Judged()
		}
		if j.Moot || j.Random <= 0 {
			return // no move could have cost anything: not a decision
		}
		j.Loss = min(1, max(0, j.Loss))
		r.Judged++
		losses, randoms = append(losses, j.Loss), append(randoms, j.Random)
		switch Grade(j.Loss) {
		case 1:
			r.Inaccuracies++
		case 2:
			r.Mistakes++
		case 3:
			r.Blunders++
		}
		if j.Loss > 0 && j.Best >= 0 {
			r.Costs = append(r.Costs, Cost{Move: i, Best: j.Best, Loss: j.Loss})
			costly = keepCostly(costly, costlyMove{i: i, j: j, st: st, g: g})
		}
	})
	if err != nil {
		return Report{}, err
	}
	r.Accuracy = Score(losses, randoms)
	for _, c := range costly {
		st, err := c.state()
		if err != nil {
			return Report{}, err
		}
		r.Moments = append(r.Moments, Moment{Move: c.i, Loss: c.j.Loss, Judged: rg.Describe(l, view, st, game.Seat(seat), c.j)})
	}
	return r, nil
}

// costlyMove is a judged move kept for the Report, with the state before
// it (its bytes: the replay goes on changing the state).
type costlyMove struct {
	i    int
	j    adapter.Judgement
	st   game.State
	g    adapter.Game
	data []byte
}

func (c *costlyMove) state() (game.State, error) { return c.g.Decode(c.data) }

// keepCostly adds c to the Moments costliest moves so far, costliest first.
func keepCostly(kept []costlyMove, c costlyMove) []costlyMove {
	at := len(kept)
	for at > 0 && kept[at-1].j.Loss < c.j.Loss {
		at--
	}
	if at >= Moments {
		return kept
	}
	data, err := c.st.MarshalBinary()
	if err != nil {
		return kept // a state that does not marshal is not told; its verdict counts
	}
	c.data, c.st = data, nil
	kept = slices.Insert(kept, at, c)
	if len(kept) > Moments {
		kept = kept[:Moments]
	}
	return kept
}

// Replay deals the table t's game again from its seed and options and
// applies its log in order, as the runtime did: before move i, visit gets
// the state and the robots' memory at that point (adapter.MemoryGame,
// observed after the deal and after every move). The state is the
// replay's own; visit must not change it. An error means the log does not
// replay (a record of another version of the game).
func Replay(g adapter.Game, t *record.Table, visit func(i int, st game.State, memory []byte)) error {
	dealt := *t
	dealt.Log, dealt.State, dealt.Memory = nil, nil, nil
	st, err := g.Start(adapter.View(&dealt))
	if err != nil {
		return fmt.Errorf("review: deal: %w", err)
	}
	mg, remembers := g.(adapter.MemoryGame)
	var memory []byte
	if remembers {
		memory = mg.Observe(nil, st)
	}
	for i, m := range t.Log {
		if visit != nil {
			visit(i, st, memory)
		}
		if err := st.Apply(m.Seat, m.Action); err != nil {
			return fmt.Errorf("review: move %d (seat %d, action %d): %w", i, m.Seat, m.Action, err)
		}
		if remembers {
			memory = mg.Observe(memory, st)
		}
	}
	return nil
}
