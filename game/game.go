// Package game holds what every game on the platform shares: seats, actions,
// coded rule errors and the narrow interface the bot drives a game through.
//
// Engines are pure: no I/O, no clock, no logging. All randomness comes from
// a seeded generator kept inside the state, so a game is fully determined by
// its configuration, its seed and the actions applied to it.
package game

import (
	"encoding"
	"errors"
	"fmt"
)

// Seat is a player's place at the table: 0-based, in clockwise order.
type Seat int

// System is the seat the platform acts as for moves that belong to no
// player, such as dealing after a quiet pause in a real-time game.
const System Seat = -1

// Action is one move encoded as a small non-negative integer, so that a
// Telegram button (64 bytes of callback data) can carry it next to a table id
// and a version. Each game defines its own encoding.
type Action int

// Code names a rule violation. The bot turns codes into text in the
// player's language; engines never produce user-facing text.
type Code string

// Codes shared by every game. Games add their own (for example
// "must_follow_suit").
const (
	CodeGameOver      Code = "game_over"
	CodeNotYourTurn   Code = "not_your_turn"
	CodeUnknownAction Code = "unknown_action"
	CodeBadSeat       Code = "bad_seat"
)

// RuleError reports an illegal action. A state that returns one is unchanged.
type RuleError struct {
	Code   Code
	Detail string // for logs and tests, never shown to players
}

func (e *RuleError) Error() string {
	if e.Detail == "" {
		return "illegal action: " + string(e.Code)
	}
	return "illegal action: " + string(e.Code) + ": " + e.Detail
}

// Errorf builds a RuleError with a formatted detail.
func Errorf(code Code, format string, args ...any) *RuleError {
	return &RuleError{Code: code, Detail: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of a RuleError anywhere in err's chain, or "".
func CodeOf(err error) Code {
	var re *RuleError
	if errors.As(err, &re) {
		return re.Code
	}
	return ""
}

// Result is the outcome of a finished game.
type Result struct {
	Scores  []int  // final score per seat
	Winners []Seat // one seat, or several on a shared win
}

// State is what the platform needs from any game in progress. The bot's
// lobby, store, delivery and timer code uses only this; rendering and
// keyboards live in a per-game adapter that knows the concrete type.
//
// Turn-based games return one seat from ToAct; a game with simultaneous
// moves (Чехарда) returns every seat that may act. ToAct is empty when the
// game is over.
type State interface {
	Seats() int
	ToAct() []Seat
	// Legal lists the actions seat s may take now (empty if none).
	Legal(s Seat) []Action
	// Apply performs action a for seat s, or returns a *RuleError and
	// leaves the state exactly as it was.
	Apply(s Seat, a Action) error
	Over() bool
	// Result is meaningful once Over is true.
	Result() Result
	encoding.BinaryMarshaler
}

// Viewed is implemented by states that offer a public view (what the group
// chat may see) and a private view per seat (adds that seat's secrets).
// Views must never contain information their audience may not hold.
type Viewed[Public, Private any] interface {
	PublicView() Public
	SeatView(s Seat) Private
}
