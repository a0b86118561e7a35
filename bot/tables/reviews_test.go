package tables

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/record"
)

// TestForgetRenamesAGameWaitingToBeKept: a person who asks to be forgotten
// in the moments between their game's end and its job keeping it for the
// reviews leaves no name in the copy to be kept (their seat, and a seat
// they left), and nobody else's name changes.
func TestForgetRenamesAGameWaitingToBeKept(t *testing.T) {
	tb := newTables(t, nil, nil)
	tab := &record.Table{ID: "-100555", ChatID: -100555, Lang: "ru", Phase: record.PhaseIdle, GameNo: 2, GameID: "sausages",
		Started: time.Unix(1795000000, 0),
		Seats:   []record.Seat{{UserID: 5, Name: "Аня"}, {UserID: 6, Name: "Борис"}, {Name: "Робот 1", AI: "sharp", Leaver: &record.Leaver{UserID: 7, Name: "Вера"}}}}
	tab.Jobs = []record.Job{{Result: &record.Result{ID: "r"}, Finished: tab.Finished()}}
	save(t, tb, tab)
	for _, user := range []int64{5, 7} {
		if err := tb.forget.ForgetSeat(t.Context(), tab.ID, user); err != nil {
			t.Fatal(err)
		}
	}
	f := load(t, tb, tab.ID).Jobs[0].Finished
	var names []string
	for _, s := range f.Seats {
		names = append(names, s.Name)
		if s.Leaver != nil {
			names = append(names, s.Leaver.Name)
		}
	}
	forgotten := tb.views.Loc("ru").T("history.forgotten")
	if got, want := strings.Join(names, ", "), strings.Join([]string{forgotten, "Борис", "Робот 1", forgotten}, ", "); got != want {
		t.Errorf("the copy to keep names %s, want %s", got, want)
	}
}
