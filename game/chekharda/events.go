package chekharda

import "github.com/trickchef/trickchef/game"

// EventType tells what happened.
type EventType uint8

const (
	// EventRound: a round began. Seat is its dealer, N the cards dealt to
	// each player (HandSize). Sets laid from the deal follow as EventLay.
	EventRound EventType = iota + 1
	// EventDeal: the dealer (Seat) dealt one card to each player clockwise
	// from their left; N is the number of cards dealt (fewer than the
	// players when the deck ran out).
	EventDeal
	// EventDraw: Seat drew a card for themselves (variant). N is 1.
	EventDraw
	// EventLay: Seat laid N cards of Kind from their hand (a pair or more
	// after a deal or draw); Size is their set of Kind now (larger than N
	// when it merged with a set they had).
	EventLay
	// EventSteal: Seat played their single Kind onto Victim's set of N
	// cards and took it; Size is Seat's set of Kind now (N + 1, plus the
	// set they had).
	EventSteal
	// EventAdd: Seat added their single Kind to their own set; N is 1,
	// Size the set now.
	EventAdd
	// EventOut: Seat's hand is empty: «ЧЕХАРДА!», the round is over and
	// Seat gets the bonus.
	EventOut
	// EventDeadlock: the deck is empty and nobody can steal or add: the
	// round is over without a winner. Seat is game.System (-1).
	EventDeadlock
)

// String names the event type.
func (t EventType) String() string {
	switch t {
	case EventRound:
		return "round"
	case EventDeal:
		return "deal"
	case EventDraw:
		return "draw"
	case EventLay:
		return "lay"
	case EventSteal:
		return "steal"
	case EventAdd:
		return "add"
	case EventOut:
		return "out"
	case EventDeadlock:
		return "deadlock"
	}
	return "?"
}

// LogSize is the number of most recent events the state keeps (and
// Public.Events shows). One Apply logs at most 1 + 6·3 + 1 = 20 events
// (a round's deal, every seat laying three sets, someone out), so a
// client that renders after every Apply never misses one.
const LogSize = 24

// Event is one thing that happened at the table, as everyone saw it.
type Event struct {
	Seq    int       // 1, 2, ... over the whole game: render the events newer than the last one shown
	Round  int       // the round it happened in
	Type   EventType //
	Seat   game.Seat // who acted (the dealer for EventRound and EventDeal); -1 for EventDeadlock
	Kind   Kind      // EventLay, EventSteal, EventAdd; NoKind otherwise
	Victim game.Seat // EventSteal: whose set was taken; -1 otherwise
	N      int       // see EventType
	Size   int       // see EventType
}

// event is the stored form: seats as uint8 with noSeat for none.
type event struct {
	typ          EventType
	seat, victim uint8
	kind         Kind
	n, size      uint8
	round        uint16
}

// logEvent appends e (stamped with the round) to the log, dropping the
// oldest when full.
func (st *State) logEvent(e event) {
	e.round = st.round
	st.seq++
	if int(st.nLog) == LogSize {
		copy(st.log[:], st.log[1:])
		st.nLog--
	}
	st.log[st.nLog] = e
	st.nLog++
}

func seatOf(s uint8) game.Seat {
	if s == noSeat {
		return -1
	}
	return game.Seat(s)
}

// events returns the log in public form, oldest first.
func (st *State) events() []Event {
	if st.nLog == 0 {
		return nil
	}
	out := make([]Event, st.nLog)
	first := int(st.seq) - int(st.nLog) + 1
	for i := range out {
		e := &st.log[i]
		out[i] = Event{Seq: first + i, Round: int(e.round), Type: e.typ, Seat: seatOf(e.seat), Kind: e.kind,
			Victim: seatOf(e.victim), N: int(e.n), Size: int(e.size)}
	}
	return out
}
