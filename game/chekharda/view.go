package chekharda

import "github.com/trickchef/trickchef/game"

// Set is one set on the table.
type Set struct {
	Owner game.Seat
	Kind  Kind
	Size  int // 2..6 cards
}

// SeatPublic is what everyone sees of one seat.
type SeatPublic struct {
	Seat     game.Seat
	Hand     int   // cards in hand (their kinds are secret)
	Sets     []Set // the seat's sets in Kind order (Owner = Seat)
	SetCards int   // cards in those sets
	Total    int   // game score so far
}

// SeatScore is one seat's part of a round's scoring.
type SeatScore struct {
	SetCards  int // +1 each
	HandCards int // −1 each
	Bonus     int // OutBonus for the seat that went out, else 0
	Score     int // max(0, SetCards − HandCards + Bonus), added to the total
}

// RoundScore is the breakdown of a finished round.
type RoundScore struct {
	Round int
	Out   game.Seat   // who went out; -1 if the deck ran out with nobody able to act
	Seats []SeatScore // per seat
}

// Public is what the group chat may see.
type Public struct {
	Players     int
	Target      int
	DrawForSelf bool // variant «Хотите большего?»
	Phase       Phase
	Round       int
	Dealer      game.Seat
	Deck        int // cards left in the deck
	Seats       []SeatPublic
	Sets        []Set       // every set on the table, by owner then kind
	Last        *RoundScore // the last finished round (the current one in PhaseRoundEnd and PhaseOver); nil before
	Winners     []game.Seat // once over: the highest total (several on a tie)
	Events      []Event     // the last LogSize events, oldest first
	Seq         int         // Seq of the newest event (0 if none)
}

// SeatView is what one seat may see: Public plus its own hand and moves.
type SeatView struct {
	Public
	Seat  game.Seat
	Hand  []Kind        // own hand in Kind order, each kind at most once (pairs are always laid)
	Legal []game.Action // empty unless this seat may act now
}

// Holds reports whether the seat's hand has a card of kind k.
func (v *SeatView) Holds(k Kind) bool {
	for _, h := range v.Hand {
		if h == k {
			return true
		}
	}
	return false
}

// SetOf returns the size of seat s's set of kind k (0 if none).
func (p Public) SetOf(s game.Seat, k Kind) int {
	if s < 0 || int(s) >= len(p.Seats) {
		return 0
	}
	for _, x := range p.Seats[s].Sets {
		if x.Kind == k {
			return x.Size
		}
	}
	return 0
}

// LastSteal returns the newest steal of kind k from victim in the log:
// after a set_gone refusal it tells who was faster.
func (p Public) LastSteal(k Kind, victim game.Seat) (Event, bool) {
	for i := len(p.Events) - 1; i >= 0; i-- {
		if e := p.Events[i]; e.Type == EventSteal && e.Kind == k && e.Victim == victim {
			return e, true
		}
	}
	return Event{}, false
}

// PublicView returns what everyone may see.
func (st *State) PublicView() Public {
	n := int(st.players)
	p := Public{
		Players:     n,
		Target:      int(st.target),
		DrawForSelf: st.variant,
		Phase:       st.phase,
		Round:       int(st.round),
		Dealer:      game.Seat(st.dealer),
		Deck:        int(st.deckN),
		Seats:       make([]SeatPublic, n),
		Events:      st.events(),
		Seq:         int(st.seq),
	}
	for i := 0; i < n; i++ {
		s := &st.seats[i]
		sp := SeatPublic{Seat: game.Seat(i), Hand: s.handCards(), SetCards: s.setCards(), Total: int(s.total)}
		for k := Kind(1); k < kindSlots; k++ {
			if s.set[k] != 0 {
				set := Set{Owner: game.Seat(i), Kind: k, Size: int(s.set[k])}
				sp.Sets = append(sp.Sets, set)
				p.Sets = append(p.Sets, set)
			}
		}
		p.Seats[i] = sp
	}
	if st.phase != PhasePlay || st.round > 1 {
		r := &RoundScore{Round: int(st.round), Out: seatOf(st.lastOut), Seats: make([]SeatScore, n)}
		if st.phase == PhasePlay {
			r.Round--
		}
		for i := 0; i < n; i++ {
			s := &st.seats[i]
			sc := SeatScore{SetCards: int(s.lastSets), HandCards: int(s.lastHand)}
			if i == int(st.lastOut) {
				sc.Bonus = OutBonus
			}
			sc.Score = roundScore(sc.SetCards, sc.HandCards, sc.Bonus != 0)
			r.Seats[i] = sc
		}
		p.Last = r
	}
	p.Winners = st.Winners()
	return p
}

// SeatView returns what seat may see. game.System and out-of-range seats
// get the public view only.
func (st *State) SeatView(s game.Seat) SeatView {
	v := SeatView{Public: st.PublicView(), Seat: s}
	if s < 0 || int(s) >= int(st.players) {
		return v
	}
	p := &st.seats[s]
	for k := Kind(1); k < kindSlots; k++ {
		for c := 0; c < int(p.hand[k]); c++ {
			v.Hand = append(v.Hand, k)
		}
	}
	v.Legal = st.Legal(s)
	return v
}
