package sausages

import "github.com/trickchef/trickchef/game"

// Reveal is one card turned face up in an attempt.
type Reveal struct {
	Seat game.Seat // whose stack it came from
	Card Card
}

// BidEvent is one step of the bidding: a bid (N ≥ 1) or a pass (N = 0).
type BidEvent struct {
	Seat game.Seat
	N    int
}

// Pass reports whether the event is a pass.
func (e BidEvent) Pass() bool { return e.N == 0 }

// SeatPublic is what everyone sees of one seat.
type SeatPublic struct {
	Seat     game.Seat
	Out      bool // lost all cards
	Side     int  // board side up: 1, or 2 after one success
	Stack    int  // cards on the board
	Revealed int  // of those, turned face up in the attempt (from the top)
	Owned    int  // cards still owned (hand + stack)
	Hand     int  // cards in hand
	Passed   bool // passed in the current bidding
}

// Outcome is a decided attempt as everyone saw it. Which card a failed
// challenger lost is not in it (see SeatView.Lost).
type Outcome struct {
	Round      int
	Challenger game.Seat
	N          int  // the bid
	Success    bool // n sausages revealed
	Won        bool // the success was the challenger's second: game won
	BootOwner  game.Seat
	OwnBoot    bool // failure on the challenger's own boot
	Lost       bool // the challenger has lost their card (false while it is being chosen)
	Eliminated bool // ... and it was their last
	Revealed   []Reveal
}

// Public is what the group chat may see.
type Public struct {
	Players    int
	Round      int
	Phase      Phase
	ToAct      []game.Seat // every seat still to place in setup; one seat otherwise; none once over
	RoundFirst game.Seat   // the round's first player
	Total      int         // cards on all boards
	Bid        int         // highest bid so far (0 before the bidding opens)
	Bidder     game.Seat   // its bidder, -1 if none
	Bids       []BidEvent  // this round's bidding, in order
	Challenger game.Seat   // from the attempt until the round ends; -1 otherwise
	Target     int         // the challenger's n (0 when no challenger)
	Revealed   []Reveal    // this round's attempt so far: own stack top first, then one per reveal
	Seats      []SeatPublic
	LastRound  *Outcome  // the most recent decided attempt (this round's once decided); nil before
	Winner     game.Seat // -1 until over
}

// Hand is a hand by kind.
type Hand struct {
	Sausages, Boots int
}

// SeatView is what one seat may see: Public plus its own secrets.
type SeatView struct {
	Public
	Seat  game.Seat
	Hand  Hand
	Stack []Card        // own stack, bottom to top
	Legal []game.Action // empty unless this seat may act
	// Lost is the card this seat lost as the challenger of LastRound
	// (NoCard otherwise); no one else learns it.
	Lost Card
}

// PublicView returns what everyone may see.
func (st *State) PublicView() Public {
	n := int(st.players)
	p := Public{
		Players:    n,
		Round:      int(st.round),
		Phase:      st.phase,
		ToAct:      st.ToAct(),
		RoundFirst: game.Seat(st.roundFirst),
		Total:      st.total(),
		Bid:        int(st.bid),
		Bidder:     -1,
		Challenger: -1,
		Winner:     -1,
		Seats:      make([]SeatPublic, n),
	}
	if st.bid > 0 {
		p.Bidder = game.Seat(st.bidder)
	}
	for i := 0; i < int(st.nBids); i++ {
		e := st.bids[i]
		p.Bids = append(p.Bids, BidEvent{Seat: game.Seat(e >> 5), N: int(e & 31)})
	}
	switch st.phase {
	case PhaseAttempt, PhasePick, PhaseLose, PhaseName:
		p.Challenger, p.Target = game.Seat(st.bidder), int(st.bid)
	}
	p.Revealed = reveals(st.rev[:st.nRev])
	for i := 0; i < n; i++ {
		b := &st.seats[i]
		p.Seats[i] = SeatPublic{
			Seat: game.Seat(i), Out: b.out(), Side: int(b.side), Stack: int(b.n),
			Revealed: int(b.rev), Owned: b.owned(), Hand: b.hand(), Passed: b.passed,
		}
	}
	if l := &st.last; l.valid {
		o := &Outcome{
			Round: int(l.round), Challenger: game.Seat(l.challenger), N: int(l.n),
			Success: l.success, BootOwner: -1, Lost: l.lost != NoCard, Eliminated: l.out,
			Revealed: reveals(l.rev[:l.nRev]),
		}
		if l.success {
			o.Won = st.phase == PhaseOver && st.winner == l.challenger
		} else {
			o.BootOwner, o.OwnBoot = game.Seat(l.bootOwner), l.bootOwner == l.challenger
		}
		p.LastRound = o
	}
	if st.phase == PhaseOver {
		p.Winner = game.Seat(st.winner)
	}
	return p
}

func reveals(log []uint8) []Reveal {
	if len(log) == 0 {
		return nil
	}
	out := make([]Reveal, len(log))
	for i, e := range log {
		out[i] = Reveal{Seat: game.Seat(e >> 1), Card: Sausage}
		if e&1 != 0 {
			out[i].Card = Boot
		}
	}
	return out
}

// SeatView returns what seat may see. An out-of-range seat gets the public
// view only.
func (st *State) SeatView(seat game.Seat) SeatView {
	v := SeatView{Public: st.PublicView(), Seat: seat}
	if seat < 0 || int(seat) >= int(st.players) {
		return v
	}
	b := &st.seats[seat]
	v.Hand = Hand{Sausages: int(b.hs), Boots: int(b.hb)}
	for i := 0; i < int(b.n); i++ {
		v.Stack = append(v.Stack, b.at(i))
	}
	v.Legal = st.Legal(seat)
	if st.last.valid && !st.last.success && st.last.challenger == uint8(seat) {
		v.Lost = st.last.lost
	}
	return v
}
