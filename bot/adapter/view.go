package adapter

import (
	"slices"
	"time"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// TableView is what a game's adapter sees of a table: a read-only view of
// the record the platform keeps, so rendering a message or choosing a
// robot's move cannot change what is stored. The render helpers and the
// button makers take it too.
type TableView struct {
	t   *record.Table
	now time.Time
}

// View is the read-only view of t without a clock: what a game's logic
// (Start, Delay) sees. The platform renders through ViewAt, whose views
// know the moment they are drawn at, so a deadline can say how long is left.
func View(t *record.Table) TableView { return TableView{t: t} }

// ViewAt is the read-only view of t at the moment now, for rendering.
func ViewAt(t *record.Table, now time.Time) TableView { return TableView{t: t, now: now} }

// Now is the moment the view is rendered at (the bot's clock); zero in a
// view without one (View), where nothing depends on the time.
func (v TableView) Now() time.Time { return v.now }

// Title is the chat's title as Telegram gives it (escape it with Esc).
func (v TableView) Title() string { return v.t.Title }

// Playing reports whether the game goes on: a game's renderers see false
// once it was stopped or ended (the table shows the final state).
func (v TableView) Playing() bool { return v.t.Phase == record.PhasePlaying }

// Seed is the table's seed for this game: Start deals from it, so a
// replay deals the same.
func (v TableView) Seed() uint64 { return v.t.Seed }

// Seats is the number of seats, people and robots.
func (v TableView) Seats() int { return len(v.t.Seats) }

// CreatorSeat is the seat of the person who opened the lobby, if they
// play.
func (v TableView) CreatorSeat() (int, bool) {
	for i, s := range v.t.Seats {
		if s.Human() && s.UserID == v.t.Creator {
			return i, true
		}
	}
	return 0, false
}

// Seat is the view of an engine seat; ok=false for game.System and seats
// out of range.
func (v TableView) Seat(s game.Seat) (SeatView, bool) {
	ts := v.t.Seat(s)
	if ts == nil {
		return SeatView{}, false
	}
	return SeatView{s: ts}, true
}

// Draft is the seat's choice in progress on its keyboard (DraftGame), a
// copy; nil when there is none or the seat is out of range.
func (v TableView) Draft(seat int) []int {
	if seat < 0 || seat >= len(v.t.Seats) {
		return nil
	}
	return slices.Clone(v.t.Seats[seat].Draft)
}

// SeatView is a read-only view of one seat.
type SeatView struct{ s *record.Seat }

// Name is the player's name as Telegram gives it, or the robot's (escape
// it with Esc; SeatName does).
func (v SeatView) Name() string { return v.s.Name }

// Human reports whether a person sits here (not a robot).
func (v SeatView) Human() bool { return v.s.Human() }

// Level is a robot's level; "" for a person.
func (v SeatView) Level() string { return v.s.AI }

// Auto reports whether the bot plays for the person (they let their time
// run out twice in a row).
func (v SeatView) Auto() bool { return v.s.Auto() }

// Due is when the bot acts for the seat (a person's deadline, a robot's
// moment); zero while the seat has nothing to do.
func (v SeatView) Due() time.Time { return v.s.Due }
