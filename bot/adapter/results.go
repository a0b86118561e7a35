package adapter

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// A finished game has one result list, and every text of it is drawn from
// that list: the group's «Итоги» (ResultTable, WinnerLine), the stored
// record (bot/results.go), and through the record the private results and
// /history. Those who stayed to the end are placed by the engine among
// themselves; a person who left is last, with 🚪 and no score (a robot
// played the rest for them and is not listed), several leavers sharing
// the last place. Shared places are shared the same way everywhere.

// FinalSeat is one line of the list.
type FinalSeat struct {
	Seat  int    // the table's seat
	Name  string // as at the table: the person's, the robot's («Робот 1»), the leaver's own
	User  int64  // the person (the leaver, at a leaver's seat); 0 for a robot
	Level string // a robot's level
	Place int    // 1 = best; equal places are shared
	Score int    // the engine's; 0 for a leaver
	Left  bool
}

// FinalList is the one result list of the table whose engine result is r
// (over=false: the game ended with everyone gone, and all who stayed share
// first place), best first, equal places in seat order.
func FinalList(v TableView, r game.Result, over bool) []FinalSeat {
	t := v.t
	engine := make([]int, len(t.Seats))
	score := make([]int, len(t.Seats))
	if over {
		for i := range engine {
			engine[i] = len(t.Seats) // a seat the engine gave no score: last
		}
		for _, s := range Standings(r) {
			if int(s.Seat) >= 0 && int(s.Seat) < len(t.Seats) && s.Place >= 1 {
				engine[s.Seat], score[s.Seat] = s.Place, s.Score
			}
		}
	}
	stayed := 0
	for _, s := range t.Seats {
		if s.Leaver == nil {
			stayed++
		}
	}
	out := make([]FinalSeat, 0, len(t.Seats))
	for i, s := range t.Seats {
		f := FinalSeat{Seat: i, Name: s.Name, User: s.UserID, Level: s.AI, Place: 1, Score: score[i]}
		if s.Leaver != nil {
			f = FinalSeat{Seat: i, Name: s.Leaver.Name, User: s.Leaver.UserID, Place: stayed + 1, Left: true}
		} else {
			for j, o := range t.Seats {
				if o.Leaver == nil && engine[j] < engine[i] {
					f.Place++ // places among those who stayed
				}
			}
		}
		out = append(out, f)
	}
	slices.SortStableFunc(out, func(a, b FinalSeat) int { return a.Place - b.Place })
	return out
}

// SharedBy is how many lines of list hold place p.
func SharedBy(list []FinalSeat, p int) int {
	n := 0
	for _, f := range list {
		if f.Place == p {
			n++
		}
	}
	return n
}
