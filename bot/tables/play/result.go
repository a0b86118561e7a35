package play

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// ResultOf describes a finished game: seats in seat order with their place
// and score from the final standings. Robots are rated per level, so two
// robots of one level would be one player twice: only the better placed
// of them is recorded (rating updates need distinct players).
//
// The seats and places are the game's one result list (adapter.FinalList):
// a person who left is recorded in place of the robot that finished for
// them, last, with score 0. A robot is recorded under its name at the
// table («Робот 1»). A person the bot played for in most of their moves is
// marked unrated, and so is one who took a hint.
func ResultOf(t *record.Table, g adapter.Game, st game.State, ended time.Time) *record.Result {
	r := &record.Result{ID: record.ResultID(t), Game: t.GameID, Chat: t.ChatID, Started: t.Started, Ended: ended, Options: OptionsText(t, g),
		GameNo: t.GameNo, Players: len(t.Seats)}
	moves, auto := make([]int, len(t.Seats)), make([]int, len(t.Seats))
	for _, mv := range t.Log {
		if s := int(mv.Seat); s >= 0 && s < len(t.Seats) {
			moves[s]++
			if mv.Auto {
				auto[s]++
			}
		}
	}
	list := adapter.FinalList(adapter.View(t), st.Result(), st.Over())
	slices.SortFunc(list, func(a, b adapter.FinalSeat) int { return a.Seat - b.Seat }) // the record is in seat order
	at := map[string]int{}
	for _, f := range list {
		if f.Level == "" && record.Forgotten(f.User) {
			continue // a person forgotten: the results keep nothing of them
		}
		seat := record.ResultSeat{Player: record.PersonPlayer(f.User), Name: f.Name, Place: f.Place, Score: f.Score, Left: f.Left}
		switch {
		case f.Left:
		case f.Level != "":
			seat.Player = record.RobotPlayer(f.Level)
		default:
			hinted := t.Seats[f.Seat].Hinted // a hint taken: not rated
			seat.Unrated, seat.Hinted = 2*auto[f.Seat] > moves[f.Seat] || hinted, hinted
		}
		if j, dup := at[seat.Player]; dup {
			if seat.Place < r.Seats[j].Place {
				r.Seats[j] = seat
			}
			continue
		}
		at[seat.Player] = len(r.Seats)
		r.Seats = append(r.Seats, seat)
	}
	return r
}

// OptionsText is the table's option values as text ("removed=2"), in the
// game's option order; "" for a game without options.
func OptionsText(t *record.Table, g adapter.Game) string {
	var parts []string
	for _, o := range adapter.Options(g) {
		parts = append(parts, o.Key+"="+strconv.Itoa(adapter.OptionValue(adapter.View(t), g, o.Key)))
	}
	return strings.Join(parts, ",")
}
