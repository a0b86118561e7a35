package record

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAttackForgetPressed: a lobby keeps the press that seated each
// person (Pressed, by user id, for the v2 deal). /forgetme must not leave
// the person's id there: neither for a seat they still hold (its press
// goes with the seat's stand-in id, so the deal still mixes it in) nor
// for one they gave up (a lobby left, or cancelled and idle since).
func TestAttackForgetPressed(t *testing.T) {
	const me, other = 700000001, 700000002
	seated := &Table{ID: "-1", Phase: PhaseLobby, Secret: strings.Repeat("a", 32),
		Seats:   []Seat{{UserID: other, Name: "Серёжа"}, {UserID: me, Name: "Оля"}},
		Pressed: map[int64]string{me: "q1", other: "q2"}}
	if !seated.Forget(me, "игрок удалён") {
		t.Fatal("nothing changed")
	}
	if data, _ := json.Marshal(seated); strings.Contains(string(data), "700000001") {
		t.Errorf("the lobby still holds the person:\n%s", data)
	}
	if got := seated.Pressed[ForgottenUser(1)]; got != "q1" || seated.Pressed[other] != "q2" {
		t.Errorf("the presses after forgetting: %v", seated.Pressed)
	}
	left := &Table{ID: "-1", Phase: PhaseIdle, Secret: strings.Repeat("a", 32),
		Seats:   []Seat{{UserID: other, Name: "Серёжа"}},
		Pressed: map[int64]string{me: "q1", other: "q2"}}
	if !left.Forget(me, "игрок удалён") {
		t.Error("forgetting a press of a seat given up changed nothing")
	}
	if data, _ := json.Marshal(left); strings.Contains(string(data), "700000001") {
		t.Errorf("the table still holds the person:\n%s", data)
	}
}

// TestAttackTableIDs: a forged table id names no table unless TableID
// makes it: no 27th letter, no «a», no capital, no second letter, no
// second table of a private chat, no topic 0, no «+». (Guard.)
func TestAttackTableIDs(t *testing.T) {
	for _, id := range []string{"-100{", "-100a", "-100B", "-100bb", "1b", "-100_0b", "+100b", "-100_b", "-0100b", "-100 b", "b", "-100_5_6", "-100é"} {
		if _, _, _, err := ParseTable(id); err == nil {
			t.Errorf("ParseTable(%q) accepted", id)
		}
	}
	if _, _, n, err := ParseTable("-100z"); err != nil || n != MaxTables {
		t.Errorf("-100z: %d %v", n, err)
	}
	if Sibling("-100", 27) != "" || Sibling("-100", 0) != "" || Sibling("100", 2) != "" {
		t.Error("Sibling names a table out of range")
	}
}
