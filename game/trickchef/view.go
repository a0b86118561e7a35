package trickchef

import "github.com/trickchef/trickchef/game"

// Played is one card in a trick.
type Played struct {
	Seat      game.Seat
	Card      Card
	Coins     int // +k: k coins on the +2 side; −k: on the −2 side
	Effective int // face value + 2×Coins
}

// TrickResult is a completed trick as everyone saw it.
type TrickResult struct {
	Round, Number int // which trick of which round
	Cards         []Played
	Trumps        []Suit // trump suits it was resolved with
	Winner        game.Seat
	ChefTaker     game.Seat   // who played the lowest effective card
	ChefChosen    bool        // false while the taker is choosing
	ChefSuit      Suit        // the suit taken, once ChefChosen
	Income        []game.Seat // seats paid 1 coin, in playing order
	NoIncome      []game.Seat // seats owed a coin the empty reserve could not pay
}

// SeatPublic is what everyone sees of one seat.
type SeatPublic struct {
	Seat        game.Seat
	Chefs       [NumSuits]int // chefs held, per suit
	Coins       int
	HandSize    int
	TricksWon   int   // this round
	RoundScores []int // finished rounds, in order
	Total       int
}

// SuitResult is one suit of one seat's round scoring.
type SuitResult struct {
	Suit    Suit
	Won     []Card // won cards of the suit, ascending
	Chefs   int    // chefs of the suit held
	Covered []Card // the cards the chefs sit on (the lowest)
	Stars   int    // points from Covered
}

// SeatRoundResult is one seat's scoring of a finished round.
type SeatRoundResult struct {
	Seat  game.Seat
	Suits []SuitResult // suits in play, in suit order
	Stars int          // sum over Suits
	Coins int          // coins held at round end, 1 point each
	Score int          // Stars + Coins
}

// RoundResult is the scoring of a finished round (won piles revealed).
type RoundResult struct {
	Round int
	First game.Seat // the round's first player
	Seats []SeatRoundResult
}

// FinalResult is the outcome of a finished game.
type FinalResult struct {
	Scores   []int // totals per seat
	Winners  []game.Seat
	TieBreak TieBreak // what decided it
}

// Public is what the group chat may see.
type Public struct {
	Players      int
	Round        int // 1..3
	Trick        int // 1..10
	Phase        Phase
	ToAct        game.Seat     // -1 when over
	Leader       game.Seat     // who leads (or led) the current trick
	RoundFirst   game.Seat     // the round's first player
	Suits        []Suit        // suits in play
	Trumps       []Suit        // trumps if the trick were resolved now
	Pool         [NumSuits]int // chefs in the centre pool, per suit
	SetAside     [NumSuits]int // chefs still to be picked at round start
	Reserve      int
	CurrentTrick []Played
	LastTrick    *TrickResult // nil before the first trick completes
	Seats        []SeatPublic
	RoundResults []RoundResult // finished rounds
	Result       *FinalResult  // set once the game is over
}

// SeatView is what one seat may see: Public plus its own secrets.
type SeatView struct {
	Public
	Seat     game.Seat
	Hand     []Card        // by suit then value
	Won      []Card        // this round's won pile
	Legal    []game.Action // empty unless this seat acts
	Playable []Card        // hand cards playable now (empty unless playing)
}

// PublicView returns what everyone may see.
func (st *State) PublicView() Public {
	n := int(st.players)
	p := Public{
		Players:    n,
		Round:      int(st.round),
		Trick:      int(st.trick),
		Phase:      st.phase,
		ToAct:      -1,
		Leader:     game.Seat(st.leader),
		RoundFirst: game.Seat(st.roundFirst),
		Suits:      st.suits().Suits(),
		Trumps:     trumpsOf(&st.pool).Suits(),
		Reserve:    int(st.reserve),
	}
	if s, ok := st.Current(); ok {
		p.ToAct = s
	}
	for s := 0; s < NumSuits; s++ {
		p.Pool[s], p.SetAside[s] = int(st.pool[s]), int(st.setAside[s])
	}
	for i := 0; i < int(st.nPlayed); i++ {
		p.CurrentTrick = append(p.CurrentTrick, st.played(st.leader, i, st.plays[i]))
	}
	if st.last.valid {
		p.LastTrick = st.lastTrick()
	}
	done := st.finishedRounds()
	for r := 0; r < done; r++ {
		p.RoundResults = append(p.RoundResults, st.roundResult(r))
	}
	for i := 0; i < n; i++ {
		sp := SeatPublic{
			Seat: game.Seat(i), Coins: int(st.coins[i]),
			HandSize: st.hands[i].count(), TricksWon: int(st.tricksWon[i]),
		}
		for s := 0; s < NumSuits; s++ {
			sp.Chefs[s] = int(st.chefs[i][s])
		}
		for r := 0; r < done; r++ {
			sc := p.RoundResults[r].Seats[i].Score
			sp.RoundScores = append(sp.RoundScores, sc)
			sp.Total += sc
		}
		p.Seats = append(p.Seats, sp)
	}
	if st.phase == PhaseOver {
		scores, winners, tb := st.finalResult()
		p.Result = &FinalResult{Scores: scores, Winners: winners, TieBreak: tb}
	}
	return p
}

func (st *State) played(leader uint8, i int, pl play) Played {
	c := cardAt(pl.card)
	return Played{
		Seat: game.Seat((int(leader) + i) % int(st.players)), Card: c,
		Coins: int(pl.coins), Effective: Effective(c, int(pl.coins)),
	}
}

func (st *State) lastTrick() *TrickResult {
	t := &TrickResult{Round: int(st.round), Number: int(st.trick)}
	switch {
	case st.phase == PhasePick || st.phase == PhasePlay && st.trick == 1:
		t.Round, t.Number = t.Round-1, HandSize // the previous round's last
	case st.phase == PhasePlay:
		t.Number--
	}
	l := &st.last
	for i := 0; i < int(st.players); i++ {
		pl := st.played(l.leader, i, l.plays[i])
		t.Cards = append(t.Cards, pl)
		if pl.Seat != game.Seat(l.winner) && pl.Seat != game.Seat(l.taker) {
			if l.income&(1<<pl.Seat) != 0 {
				t.Income = append(t.Income, pl.Seat)
			} else {
				t.NoIncome = append(t.NoIncome, pl.Seat)
			}
		}
	}
	t.Trumps = l.trumps.Suits()
	t.Winner, t.ChefTaker = game.Seat(l.winner), game.Seat(l.taker)
	if l.chefSuit != noSuit {
		t.ChefChosen, t.ChefSuit = true, Suit(l.chefSuit)
	}
	return t
}

func (st *State) roundResult(r int) RoundResult {
	rec := &st.results[r]
	out := RoundResult{Round: r + 1, First: game.Seat(rec.first)}
	suits := st.suits()
	for i := 0; i < int(st.players); i++ {
		sr := SeatRoundResult{Seat: game.Seat(i), Coins: int(rec.coins[i])}
		for s := Suit(0); s < NumSuits; s++ {
			if !suits.Has(s) {
				continue
			}
			cov := covered(rec.won[i], s, int(rec.chefs[i][s]))
			x := SuitResult{
				Suit: s, Won: rec.won[i].ofSuit(s).cards(), Chefs: int(rec.chefs[i][s]),
				Covered: cov.cards(), Stars: starsOf(cov),
			}
			sr.Stars += x.Stars
			sr.Suits = append(sr.Suits, x)
		}
		sr.Score = sr.Stars + sr.Coins
		out.Seats = append(out.Seats, sr)
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
	v.Hand = st.hands[seat].cards()
	v.Won = st.won[seat].cards()
	v.Legal = st.Legal(seat)
	if st.phase == PhasePlay && game.Seat(st.turn) == seat {
		v.Playable = st.playable(uint8(seat)).cards()
	}
	return v
}
