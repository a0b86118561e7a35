package grouphand

import (
	"context"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deliver/internal/message"
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

// views draws a private note and nothing else; turns gives every table
// the same time for a move.
type views struct{}

func (views) GroupSeat(*record.Table, int) (adapter.Message, error) { return adapter.Message{}, nil }
func (views) PlaysFromGroup(*record.Table) adapter.Message {
	return adapter.Message{Text: "🖐 Вы играете из группы"}
}

type turns time.Duration

func (d turns) TurnTime(*record.Table) time.Duration { return time.Duration(d) }

// A person who plays from the group hears of their turn in private a
// minute into it; at once when the hand in the group is stalled; and a
// turn told there stays told though the stall is over.
func TestPrivateTellsAStalledTurn(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	h := &Hands{p: Params{Views: views{}, Turns: turns(3 * time.Minute), Now: func() time.Time { return now }}}
	tab := &record.Table{ID: "-1", ChatID: -1, GameNo: 1, Phase: record.PhasePlaying, State: []byte("{}"),
		Seats: []record.Seat{{UserID: 7, Name: "Аня", Group: true, Due: now.Add(3 * time.Minute)}}}
	turn := adapter.Message{Text: "Ваш ход", Ping: true}
	note := view.MessageRecord{ID: 5, Digest: message.Digest(views{}.PlaysFromGroup(tab), false)}
	if q := h.Private(tab, 0, turn, note, 0, false); q.Nudge || !q.Hold.Equal(now.Add(time.Minute)) {
		t.Errorf("a turn with the group's calls free: %+v, want held until a minute into it", q)
	}
	if q := h.Private(tab, 0, turn, note, 0, true); !q.Nudge {
		t.Errorf("a stalled turn: %+v, want it told in private", q)
	}
	told := view.MessageRecord{ID: 6, Digest: message.Digest(turn, false), Ping: true}
	if q := h.Private(tab, 0, turn, told, 0, false); !q.Nudge {
		t.Errorf("a turn told in private, the stall over: %+v, want it left told", q)
	}
	waiting := adapter.Message{Text: "Ждите"}
	if q := h.Private(tab, 0, waiting, told, 0, true); q.Nudge {
		t.Errorf("no turn: %+v, want no nudge", q)
	}
}
