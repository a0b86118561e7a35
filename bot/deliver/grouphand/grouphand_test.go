package grouphand

import (
	"context"
	"testing"

	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
)

// Without a client there are no hands (New gives nil), and delivery calls
// them anyway: a nil *Hands sends, drops and draws nothing.
func TestNilHandsDrawNothing(t *testing.T) {
	h := New(Params{})
	if h != nil {
		t.Fatalf("New without a client: %v, want nil", h)
	}
	ctx := context.Background()
	tab := &record.Table{ID: "-1", ChatID: -1, GameNo: 1, Phase: record.PhasePlaying, State: []byte("{}"),
		Seats: []record.Seat{{UserID: 7, Name: "Аня", Group: true}}}
	hand := &outbox.Hand{GameNo: 1, Seat: 0, User: 7}
	if at := h.Send(ctx, tab, outbox.Entry{Hand: hand}); !at.IsZero() {
		t.Errorf("Send: try again at %v, want done", at)
	}
	if at := h.Drop(ctx, tab, hand); !at.IsZero() {
		t.Errorf("Drop: try again at %v, want done", at)
	}
	records := map[string]string{view.GroupHand(1, 0): view.MessageRecord{ID: 5}.String()}
	if j, proved := h.Job(tab, view.Hand(1, 0), records); j != nil || proved {
		t.Errorf("Job: %v, proved %v; want none", j, proved)
	}
}
