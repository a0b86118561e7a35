package chekharda

import "github.com/trickchef/trickchef/game"

// Reason says why Shef would make the grab a hint names.
type Reason string

const (
	ReasonOutWin Reason = "out_win" // the last card goes out and wins the game
	ReasonOut    Reason = "out"     // the last card goes out
	ReasonHold   Reason = "hold"    // going out would hand someone else the game: wait for a deal
	ReasonWait   Reason = "wait"    // nothing presses: Shef would hold its cards back; this is its best grab
	ReasonSteal  Reason = "steal"   // the best steal (Took cards, Risk of losing the set again)
	ReasonAdd    Reason = "add"     // an add to an own set (Risk of losing it)
	ReasonDraw   Reason = "draw"    // a stuck seat's only move
)

// Advice is the best grab Shef sees for a seat now, and why.
type Advice struct {
	// Action is the grab, -1 when there is none worth making (Hold) or
	// nothing legal. With Wait Shef itself would not act yet.
	Action game.Action
	Wait   bool
	Reason Reason
	Took   int     // a steal: the cards it takes from the victim
	Risk   float64 // a steal or add: the chance an opponent holds a copy to steal the set back
}

// Advise is Shef's view of the seat's best grab now: when Decide(Shef, …)
// acts, the same action; when it waits, the grab it ranks first, marked
// Wait (or none, when every grab would end the game in another's favour).
func Advise(v SeatView, seed uint64) Advice {
	a, ok := Decide(Shef, v, seed)
	if len(v.Legal) == 0 || v.Phase != PhasePlay || v.Seat < 0 || int(v.Seat) >= min(len(v.Seats), MaxPlayers) {
		return Advice{Action: -1}
	}
	l := newLook(&v)
	moves := decodeAll(v.Legal)
	if len(moves) == 0 {
		return Advice{Action: -1}
	}
	if !ok {
		if _, _, done := l.goingOut(moves, l.shefPick); done {
			return Advice{Action: -1, Wait: true, Reason: ReasonHold}
		}
		a = l.shefPick(moves).Action()
	}
	m, _ := Decode(a)
	ad := Advice{Action: a, Wait: !ok}
	switch {
	case m.Type == MoveSteal || m.Type == MoveAdd:
		if l.hand[l.me] == 1 {
			ad.Reason = ReasonOut
			if l.gameEnd(m) == 1 {
				ad.Reason = ReasonOutWin
			}
		} else if m.Type == MoveSteal {
			ad.Reason, ad.Took = ReasonSteal, l.set[m.Victim][m.Kind]
		} else {
			ad.Reason = ReasonAdd
		}
		if m.Type == MoveSteal {
			ad.Took = l.set[m.Victim][m.Kind]
		}
		ad.Risk = l.takeBack(l.unseen(m.Kind))
	default:
		ad.Reason = ReasonDraw
	}
	if !ok && ad.Reason != ReasonOut && ad.Reason != ReasonOutWin {
		ad.Reason = ReasonWait
	}
	return ad
}
