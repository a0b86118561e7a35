package sausages

import (
	"slices"

	"github.com/trickchef/trickchef/game"
)

// Sharp does not search: it reads its belief and acts. Judging a move
// («🔍 Разбор») needs a value for moves Sharp would not make, so the
// judge (Weigh, ai_weigh.go) measures every legal move the way the
// searching levels of the other games do: it deals the hidden cards as a
// belief weighs them, plays the game out from there and counts the games
// the seat wins, on the same deals and the same random numbers for every
// move. This file holds what it builds on: the verdict on one move, the
// state rebuilt from a seat's view, the deals of the hidden cards, and
// Sharp's mix.
//
// Sharp's play is mixed on purpose (the first card, adding or opening, a
// bluff's raise): a bluffing game is played by a mix, and no single
// choice among its options is a mistake. So a move Sharp itself makes in
// the same position for another seed costs nothing either.

// judgeMaxSteps bounds a played-out game (a real one takes well under 200
// moves).
const judgeMaxSteps = 2000

// Verdict is the judge's word on one action of a seat (Weighing.Verdict).
type Verdict struct {
	// Best is the move of Sharp's mix that won the most played-out games
	// (Sharp's move for the seed when nothing was measured). Why is its
	// reason, as AdviseSharp gives it.
	Best game.Action
	Why  Advice
	// Deals is how many sampled deals the moves were played out on; 0
	// for a view the engine could not have made.
	Deals int
	// Win and BestWin are the seat's chance to win the game after the
	// judged move and by Sharp's mix there (Par), or Win if the move did
	// better: the share of the played-out games the seat wins.
	Win, BestWin float64
}

// aiLevel is an AI level as a function of a view and a seed; nil is Sharp.
type aiLevel func(SeatView, uint64) game.Action

// playOutWith plays st to its end with pol[s] at seat s (Sharp where nil).
func playOutWith(st *State, seed uint64, pol *[MaxPlayers]aiLevel) uint8 {
	r := rng(seed)
	var buf [MaxPlayers]game.Seat
	for step := 0; step < judgeMaxSteps && st.phase != PhaseOver; {
		for _, s := range st.ToActAppend(buf[:0]) {
			v := st.SeatView(s)
			var a game.Action
			if p := pol[s]; p != nil {
				a = p(v, r.Next())
			} else {
				a = Sharp(v, r.Next())
			}
			if st.Apply(s, a) != nil {
				return noSeat // cannot happen: the AIs play legal moves
			}
			step++
		}
	}
	if st.phase != PhaseOver {
		return noSeat
	}
	return st.winner
}

// fromView rebuilds the state the view shows, every hidden card of the
// others left out (dealHiddenPrior deals them); false if the view is not one
// the engine could have made for a seat to act.
func fromView(v *SeatView) (State, bool) {
	var st State
	n := v.Players
	if n < MinPlayers || n > MaxPlayers || len(v.Seats) != n || v.Seat < 0 || int(v.Seat) >= n ||
		v.Phase >= PhaseOver || v.Round < 1 || len(v.Bids) > maxBids || len(v.Revealed) > MaxCards {
		return st, false
	}
	st.players, st.round, st.phase, st.winner = uint8(n), uint8(v.Round), v.Phase, noSeat
	st.roundFirst, st.bid = uint8(v.RoundFirst), uint8(v.Bid)
	if v.Phase != PhaseSetup {
		if len(v.ToAct) != 1 || v.ToAct[0] < 0 || int(v.ToAct[0]) >= n {
			return st, false
		}
		st.turn = uint8(v.ToAct[0])
	}
	switch {
	case v.Challenger >= 0:
		st.bidder = uint8(v.Challenger)
	case v.Bidder >= 0:
		st.bidder = uint8(v.Bidder)
	}
	for i, e := range v.Bids {
		st.bids[i] = uint8(e.Seat)<<5 | uint8(e.N)
	}
	st.nBids = uint8(len(v.Bids))
	for i, rv := range v.Revealed {
		st.rev[i] = uint8(rv.Seat) << 1
		if rv.Card == Boot {
			st.rev[i] |= 1
		}
	}
	st.nRev = uint8(len(v.Revealed))
	for i, s := range v.Seats {
		if s.Stack < 0 || s.Revealed < 0 || s.Revealed > s.Stack || s.Hand < 0 || s.Owned != s.Hand+s.Stack || s.Owned > CardsPerPlayer {
			return st, false
		}
		st.seats[i] = board{hs: uint8(s.Hand), n: uint8(s.Stack), rev: uint8(s.Revealed), side: uint8(s.Side), passed: s.Passed}
	}
	me := &st.seats[v.Seat]
	if v.Hand.Sausages+v.Hand.Boots != int(me.hand()) || len(v.Stack) != int(me.n) {
		return st, false
	}
	me.hs, me.hb = uint8(v.Hand.Sausages), uint8(v.Hand.Boots)
	for i, c := range v.Stack {
		if c == Boot {
			me.boot = uint8(i + 1)
		}
	}
	if o := v.LastRound; o != nil {
		st.last = outcome{valid: true, success: o.Success, out: o.Eliminated, round: uint8(o.Round),
			challenger: uint8(o.Challenger), n: uint8(o.N), nRev: uint8(len(o.Revealed))}
		if !o.Success {
			st.last.bootOwner = uint8(o.BootOwner)
		}
		if o.Lost {
			st.last.lost = Sausage // which card is the challenger's secret
			if o.Challenger == v.Seat {
				st.last.lost = v.Lost
			}
		}
		for i, rv := range o.Revealed {
			if i < MaxCards {
				st.last.rev[i] = uint8(rv.Seat) << 1
				if rv.Card == Boot {
					st.last.rev[i] |= 1
				}
			}
		}
	}
	return st, true
}

// dealHiddenPrior deals the others' hidden cards into st as Sharp's belief
// weighs them: for each other seat still in, whether it still holds its
// boot (the belief's prior: a seat that lost cards may have lost it), and
// if so which face-down card of its stack it is, or that it is in hand.
// The blind pick's order is dealt too.
// setupBoot is the prior that a player holding the boot laid it first.
func dealHiddenPrior(st *State, v *SeatView, b *belief, r *rng, setupBoot float64) {
	for i := 0; i < int(st.players); i++ {
		s := &st.seats[i]
		if game.Seat(i) == v.Seat || s.owned() == 0 {
			continue
		}
		hand := s.hand()
		s.hs, s.hb, s.boot = uint8(hand), 0, 0
		held := min(1, float64(s.owned())/CardsPerPlayer+0.15)
		down := int(s.n) - int(s.rev)
		u := r.Float64()
		inStack := false
		if down > 0 && b.down[i] == down {
			for j := 0; j < down; j++ { // j: from the top of the face-down cards
				if u < b.at[i][j] {
					s.boot, inStack = uint8(down-j), true // from the bottom, plus one
					break
				}
				u -= b.at[i][j]
			}
		}
		if inStack || hand == 0 {
			continue
		}
		// Not down: in hand, or lost. The belief's prior for a boot still
		// in hand once cards are down is the share not laid first nor
		// added; before any card is down, simply whether it is held.
		inHand := held
		if s.n > 0 {
			laid := held * (1 - setupBoot) * max(0, 1-beliefAddBoot*float64(s.n-1))
			if inHand = 0; laid > 0 {
				inHand = laid / (laid + 1 - held)
			}
		}
		if r.Float64() < inHand {
			s.hs, s.hb = uint8(hand-1), 1
		}
	}
	st.rng = rng(r.Next())
	if st.phase == PhasePick {
		st.fan = 0
		if c := &st.seats[st.bidder]; c.hb == 1 {
			st.fan = uint8(r.Below(c.owned())) + 1
		}
	}
}

// mixSeeds is how many other seeds inMix asks Sharp with: enough to find a
// branch of 15% with near certainty (1 − 0.85^64).
const mixSeeds = 64

// sharpMix is the moves Sharp plays in this view for the seed and
// mixSeeds seeds derived from it.
func sharpMix(v SeatView, seed uint64) []game.Action {
	mix := []game.Action{Sharp(v, seed)}
	r := rng(seed ^ 0x6d6978)
	for range mixSeeds {
		if a := Sharp(v, r.Next()); !slices.Contains(mix, a) {
			mix = append(mix, a)
		}
	}
	return mix
}

// Loss is what the judged move gave up against Best: the chance to win
// the game it lost, in [0, 1]; 0 for Sharp's move, a move of its mix, or
// one that measured as good.
func (vd Verdict) Loss() float64 { return min(1, max(0, vd.BestWin-vd.Win)) }
