package chef

import "github.com/trickchef/trickchef/game"

// EventKind tells the events of the log apart.
type EventKind uint8

const (
	// EventDraw: Seat drew Card from the pile (face up, in front of it,
	// unless it is an Addition: see EventBillDiscarded and EventWin).
	EventDraw EventKind = iota + 1
	// EventRedraw: Seat discarded the Chef it drew onto a complete menu, to
	// draw again (an EventDraw follows).
	EventRedraw
	// EventBillDiscarded: the Addition Seat drew was of no use: it went
	// onto the discard pile and Seat's turn ended.
	EventBillDiscarded
	// EventTake: Seat took Card from the top of the discard pile.
	EventTake
	// EventDiscard: Seat discarded dish Card.
	EventDiscard
	// EventPlay: Seat played action Card at Target. Dishes: what Target
	// lost (Hangover: both, in order, the second on the discard top; Diet:
	// the first) or what Seat took from it (ChefCard: the first). Hangover,
	// Diet and EmptyPlate make Target skip; BlankMenu reversed the
	// direction. With two players lost dishes left the game.
	EventPlay
	// EventAnnounce: Seat announced «Счёт!» (by itself, or automatically).
	EventAnnounce
	// EventLapse: Seat's announcement lapsed: its menu is no longer complete.
	EventLapse
	// EventRebuild: the discard pile but its top (Card) was shuffled into
	// a new pile. Seat is -1.
	EventRebuild
	// EventWin: Seat took the Addition with an announced complete menu and
	// won (the EventDraw or EventTake before it says from where).
	EventWin
	// EventClosing: the pile ran out for good: the game ended on points
	// (Public.Winners). Seat is -1.
	EventClosing
)

// String names the kind.
func (k EventKind) String() string {
	switch k {
	case EventDraw:
		return "draw"
	case EventRedraw:
		return "redraw"
	case EventBillDiscarded:
		return "bill_discarded"
	case EventTake:
		return "take"
	case EventDiscard:
		return "discard"
	case EventPlay:
		return "play"
	case EventAnnounce:
		return "announce"
	case EventLapse:
		return "lapse"
	case EventRebuild:
		return "rebuild"
	case EventWin:
		return "win"
	case EventClosing:
		return "closing"
	}
	return "?"
}

// Event is one thing that happened, for the table's log and announcements.
type Event struct {
	Seq    int // 1-based number of the event in the game (tells new ones from old)
	Kind   EventKind
	Seat   game.Seat // who acted; -1 for table events (rebuild, closing)
	Target game.Seat // EventPlay: the victim; -1 otherwise
	Card   Card      // the card drawn, taken, discarded or played; the kept top on rebuild
	Dishes [2]Card   // EventPlay: dishes lost or taken (NoCard where none)
}

// Skips reports whether the event made its Target skip a turn.
func (e Event) Skips() bool {
	return e.Kind == EventPlay && (e.Card == Hangover || e.Card == Diet || e.Card == EmptyPlate)
}

// SeatPublic is what everyone sees of one seat: every card in front of it.
type SeatPublic struct {
	Seat game.Seat
	// Cards counts the cards in front of the seat by kind (index Card):
	// dishes by colour (Cards[Starter]..Cards[Drink], duplicates counted)
	// and action cards (Cards[Hangover]..Cards[ChefCard]). Cards[Addition]
	// is 1 only for the winner by the Addition.
	Cards     [NumKinds]int
	Dishes    int  // dishes in front (duplicates included)
	Colours   int  // distinct colours among them
	Actions   int  // action cards in front
	Complete  bool // exactly six dishes of six colours, nothing else
	Announced bool // «Счёт!» announced and not lapsed
	Skipped   bool // its latest turn was skipped by a penalty (until its next turn begins)
	Score     int  // what Result would score now: colours, 7 for a winner by the Addition
}

// Public is what the group chat may see: everything but the order of the
// face-down pile.
type Public struct {
	Players      int
	AutoAnnounce bool
	Step         Step
	Turn         game.Seat   // whose turn it is; -1 once over
	TurnNumber   int         // turns begun, from 1
	ToAct        []game.Seat // the seat to act; none once over
	// Drawn is the card just drawn in StepDrawn (in front of Turn; only
	// it may be played now); NoCard otherwise.
	Drawn     Card
	Clockwise bool      // direction of play: seat+1 (true) or seat−1
	Next      game.Seat // the seat Turn's action cards would hit; -1 once over
	Pile      int       // cards in the face-down pile
	// PileCards is the pile's composition (public by counting), not its
	// order.
	PileCards   [NumKinds]int
	Discard     []Card        // the discard pile, bottom to top (each card was seen going there)
	DiscardTop  Card          // its top card (NoCard only if empty, which cannot happen in play)
	Removed     [NumKinds]int // dishes that left the game (two-player penalties)
	Rebuilds    int           // times the pile was rebuilt from the discard pile
	MaxRebuilds int           // when the pile runs out after that many, the kitchen closes
	Seats       []SeatPublic
	// Events are the most recent events, oldest first (at most MaxEvents).
	Events  []Event
	Winners []game.Seat // once over
	Closed  bool        // over at closing time rather than by the Addition
}

// SeatView is what one seat sees: everything is public, so it is the
// public view plus the seat's legal actions.
type SeatView struct {
	Public
	Seat  game.Seat
	Legal []game.Action // empty unless this seat is to act
}

// PublicView returns what everyone may see.
func (st *State) PublicView() Public {
	n := int(st.players)
	p := Public{
		Players:      n,
		AutoAnnounce: st.auto,
		Step:         st.step,
		Turn:         -1,
		TurnNumber:   int(st.turnNo),
		ToAct:        st.ToAct(),
		Drawn:        st.drawn,
		Clockwise:    !st.ccw,
		Next:         -1,
		Pile:         int(st.npile),
		DiscardTop:   st.discTop(),
		Rebuilds:     int(st.rebuilds),
		MaxRebuilds:  MaxRebuilds,
		Seats:        make([]SeatPublic, n),
		Winners:      st.Winners(),
		Closed:       st.closed,
	}
	if st.step != StepOver {
		p.Turn, p.Next = game.Seat(st.turn), game.Seat(st.nextOf(st.turn))
	}
	for i := 0; i < int(st.npile); i++ {
		p.PileCards[st.pile[i]]++
	}
	if st.ndisc > 0 {
		p.Discard = make([]Card, st.ndisc)
		copy(p.Discard, st.disc[:st.ndisc])
	}
	for c := range st.removed {
		p.Removed[c] = int(st.removed[c])
	}
	for i := 0; i < n; i++ {
		s := &st.seats[i]
		sp := SeatPublic{
			Seat: game.Seat(i), Dishes: s.dishes(), Colours: s.colours(), Actions: s.actions(),
			Complete: s.complete(), Announced: s.announced(), Skipped: s.flags&flagSkipped != 0, Score: score(s),
		}
		for c := range s.n {
			sp.Cards[c] = int(s.n[c])
		}
		p.Seats[i] = sp
	}
	k := min(st.nev, MaxEvents)
	if k > 0 {
		p.Events = make([]Event, 0, k)
	}
	for i := st.nev - k; i < st.nev; i++ {
		e := &st.ev[i%MaxEvents]
		p.Events = append(p.Events, Event{
			Seq: int(i) + 1, Kind: e.kind, Seat: seatOrNone(e.seat), Target: seatOrNone(e.target),
			Card: e.card, Dishes: [2]Card{e.d1, e.d2},
		})
	}
	return p
}

func seatOrNone(s uint8) game.Seat {
	if s == noSeat {
		return -1
	}
	return game.Seat(s)
}

// SeatView returns what seat s may see. An out-of-range seat gets the
// public view only.
func (st *State) SeatView(s game.Seat) SeatView {
	v := SeatView{Public: st.PublicView(), Seat: s}
	if s >= 0 && int(s) < int(st.players) {
		v.Legal = st.Legal(s)
	}
	return v
}
