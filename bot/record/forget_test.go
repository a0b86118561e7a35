package record

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestForget: every trace of a person in a record goes — their seat and a
// seat they left renamed with a stand-in id (one per seat, so the creator's
// seat is still known), their /stop question, their rating on the page,
// their seat in a result not yet recorded, a results command they asked
// for, and the same in the finished game kept with a job — and nothing of
// anyone else. Forgetting again changes nothing.
func TestForget(t *testing.T) {
	const me, other = 700000001, 700000002
	finished := &Table{ID: "-1", Creator: me, Seats: []Seat{{UserID: other, Name: "Серёжа"}, {UserID: me, Name: "Оля"}}}
	tab := &Table{ID: "-1", Creator: me, StopAsked: me, Phase: PhaseIdle,
		Seats:      []Seat{{UserID: other, Name: "Серёжа"}, {Name: "Робот 1", AI: "novice", Leaver: &Leaver{UserID: me, Name: "Оля"}}},
		WebRatings: map[string][2]float64{PersonPlayer(me): {1, 2}, PersonPlayer(other): {3, 4}},
		Jobs: []Job{
			{Result: &Result{ID: "r", Seats: []ResultSeat{{Player: PersonPlayer(other), Name: "Серёжа", Place: 1}, {Player: PersonPlayer(me), Name: "Оля", Place: 2}}}, Finished: finished},
			{Query: &Query{Cmd: "stats", User: me, Name: "Оля"}},
			{Query: &Query{Cmd: "top", User: other, Name: "Серёжа"}},
		}}
	if !tab.Forget(me, "игрок удалён") {
		t.Fatal("nothing changed")
	}
	data, _ := json.Marshal(tab)
	if strings.Contains(string(data), "700000001") || strings.Contains(string(data), "Оля") {
		t.Errorf("the record still holds the person:\n%s", data)
	}
	if l := tab.Seats[1].Leaver; l == nil || l.UserID != ForgottenUser(1) || l.Name != "игрок удалён" || tab.Creator != ForgottenUser(1) {
		t.Errorf("the seat they left: %+v, creator %d", l, tab.Creator)
	}
	if tab.StopAsked != 0 || len(tab.WebRatings) != 1 || len(tab.Jobs) != 2 || tab.Jobs[1].Query.User != other {
		t.Errorf("stop %d, ratings %v, jobs %+v", tab.StopAsked, tab.WebRatings, tab.Jobs)
	}
	if r := tab.Jobs[0].Result; len(r.Seats) != 1 || r.Seats[0].Player != PersonPlayer(other) {
		t.Errorf("the result not yet recorded: %+v", r.Seats)
	}
	if f := tab.Jobs[0].Finished; f.Seats[1].UserID != ForgottenUser(1) || f.Creator != ForgottenUser(1) || f.Seats[0].Name != "Серёжа" {
		t.Errorf("the finished game kept with the job: %+v, creator %d", f.Seats, f.Creator)
	}
	if tab.Forget(me, "игрок удалён") || tab.Forget(0, "x") {
		t.Error("forgetting again changed something")
	}
	if !Forgotten(ForgottenUser(0)) || Forgotten(AnyAdmin) || Forgotten(0) || Forgotten(me) {
		t.Error("Forgotten tells a stand-in id wrong")
	}
	// A creator who sat at none of the seats (an admin's lobby): no one.
	lone := &Table{Creator: me, Seats: []Seat{{UserID: other}}}
	if !lone.Forget(me, "x") || lone.Creator != 0 {
		t.Errorf("creator without a seat: %d", lone.Creator)
	}
}
