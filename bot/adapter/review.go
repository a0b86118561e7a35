package adapter

import "github.com/trickchef/trickchef/game"

// ReviewGame is a RobotGame whose robots' engine judges a person's
// decisions after the game («🔍 Разбор», package bot/review): for each
// move the person made, every legal move there weighed by the engine's
// evaluation from what the seat could see then (never the others' hidden
// cards), with more playouts than the top level (the last of Levels)
// plays with and a seed of its own, so the top level is measured too.
type ReviewGame interface {
	// Judge weighs seat's action a (one of its legal moves) in st, the
	// state before it, against every legal move there: Level is the top
	// level, Memory the robots' memory there, Seed the judge's own (not
	// the one the top level's decision there had), Playouts the judge's
	// budget (0: the game's judging default, more than the top level's).
	// It never changes st, and the same inputs give the same Judgement;
	// judging the judge's own Best costs nothing (Loss 0). Budget (a
	// wall-clock cap) is never set for a review.
	Judge(st game.State, seat game.Seat, a game.Action, d Decision) Judgement
	// Describe puts j, the Judgement of seat's move in st, into words for
	// the person who made it.
	Describe(l Loc, t TableView, st game.State, seat game.Seat, j Judgement) Judged
}

// Judgement is the top level's verdict on one move.
type Judgement struct {
	Action game.Action // the move judged
	Best   game.Action // the judge's best move there
	// Loss is what Action gave up against Best, normalised to [0, 1]: the
	// seat's chance to win lost, or its expected points lost over the
	// game's scale of everything a move can lose (docs/ai.md, «Разбор»).
	// 0 when Action is Best or measured as good.
	Loss float64
	// Random is what a uniformly random legal move gives up against
	// Best on average, on Loss's scale: how much the choice mattered.
	// 0 when every legal move measured the same.
	Random float64
	// Moot reports that no move of the seat's could have cost anything
	// here (every legal move measured the same): not a decision to count
	// in an accuracy.
	Moot bool
	// Detail is the game's own verdict (its engine's numbers, the reason
	// of the robot's move) for Describe; the platform only carries it.
	Detail any
}

// Judged is a Judgement in words, for the person whose move it was: each
// field a line or two of Telegram HTML in the game's own words, like a
// hint.
type Judged struct {
	Moment string // the moment: when, the hand as it was, the trick or the table
	Played string // what the person played
	Best   string // what the top level plays there, and why
	Cost   string // what the move cost, in the game's terms
}

// Reviewable reports whether the top level of g's robots can review its
// moves.
func Reviewable(g Game) bool {
	_, ok := g.(ReviewGame)
	return ok && len(Levels(g)) > 0
}
