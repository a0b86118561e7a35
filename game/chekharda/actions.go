package chekharda

import (
	"strconv"

	"github.com/trickchef/trickchef/game"
)

// Action encoding (small non-negative ints, so they fit Telegram callback
// data next to a table id and a version):
//
//	0..71   steal: (kind-1)*6 + victim     StealAction(kind, victim)
//	72..83  add:   72 + kind-1             AddAction(kind)
//	84      draw a card for oneself        DrawAction()      (variant only)
//	85      deal one card to everyone      DealAction()      (game.System)
//	86      start the next round           NextRoundAction() (game.System)
//
// MaxAction is 86; everything else decodes as invalid (unknown_action).
// A steal names its victim, so a button pressed on an older view ("steal
// 🐷 from Оля") means the same move whatever happened since: it is judged
// against the state as it is when it arrives.
const (
	stealBase   = 0
	addBase     = stealBase + NumKinds*MaxPlayers
	actDraw     = addBase + NumKinds
	actDeal     = actDraw + 1
	actNext     = actDeal + 1
	numActions  = actNext + 1
	noActionVal = -1
)

// MaxAction is the largest action any state can accept.
const MaxAction = game.Action(numActions - 1)

// MoveType tells the moves apart.
type MoveType uint8

const (
	MoveSteal     MoveType = iota + 1 // Kind, Victim: play the single card onto Victim's set and take it
	MoveAdd                           // Kind: play the single card onto one's own set
	MoveDraw                          // draw the top card for oneself (variant, when stuck)
	MoveDeal                          // game.System: the dealer deals one card to every player
	MoveNextRound                     // game.System: shuffle and deal the next round
)

// String names the move type as in notation.
func (t MoveType) String() string {
	switch t {
	case MoveSteal:
		return "steal"
	case MoveAdd:
		return "add"
	case MoveDraw:
		return "draw"
	case MoveDeal:
		return "deal"
	case MoveNextRound:
		return "next"
	}
	return "?"
}

// System reports whether the move belongs to the platform (game.System).
func (t MoveType) System() bool { return t == MoveDeal || t == MoveNextRound }

// Move is a decoded action; only the fields its Type uses are set.
type Move struct {
	Type   MoveType
	Kind   Kind      // MoveSteal, MoveAdd
	Victim game.Seat // MoveSteal
}

// StealAction steals victim's set of kind k. An invalid kind or seat
// encodes as -1, which every state refuses with unknown_action.
func StealAction(k Kind, victim game.Seat) game.Action {
	if !k.Valid() || victim < 0 || victim >= MaxPlayers {
		return noActionVal
	}
	return game.Action(stealBase + int(k-1)*MaxPlayers + int(victim))
}

// AddAction adds the single card of kind k to one's own set.
func AddAction(k Kind) game.Action {
	if !k.Valid() {
		return noActionVal
	}
	return game.Action(addBase + int(k-1))
}

// DrawAction draws a card for oneself (variant «Хотите большего?»).
func DrawAction() game.Action { return actDraw }

// DealAction is the platform's deal: one card to every player.
func DealAction() game.Action { return actDeal }

// NextRoundAction is the platform's move that starts the next round.
func NextRoundAction() game.Action { return actNext }

// Decode reverses the constructors; false if a is no valid encoding.
func Decode(a game.Action) (Move, bool) {
	switch {
	case a < 0 || a >= numActions:
		return Move{}, false
	case a < addBase:
		return Move{Type: MoveSteal, Kind: Kind(a/MaxPlayers) + 1, Victim: game.Seat(a % MaxPlayers)}, true
	case a < actDraw:
		return Move{Type: MoveAdd, Kind: Kind(a-addBase) + 1}, true
	case a == actDraw:
		return Move{Type: MoveDraw}, true
	case a == actDeal:
		return Move{Type: MoveDeal}, true
	}
	return Move{Type: MoveNextRound}, true
}

// Action encodes the move (-1 if it is not a valid move).
func (m Move) Action() game.Action {
	switch m.Type {
	case MoveSteal:
		return StealAction(m.Kind, m.Victim)
	case MoveAdd:
		return AddAction(m.Kind)
	case MoveDraw:
		return DrawAction()
	case MoveDeal:
		return DealAction()
	case MoveNextRound:
		return NextRoundAction()
	}
	return noActionVal
}

// String renders the move in notation: "steal:P@2" (steal the pig set of
// seat 2), "add:P", "draw", "deal", "next".
func (m Move) String() string {
	switch m.Type {
	case MoveSteal:
		return "steal:" + m.Kind.String() + "@" + strconv.Itoa(int(m.Victim))
	case MoveAdd:
		return "add:" + m.Kind.String()
	case MoveDraw, MoveDeal, MoveNextRound:
		return m.Type.String()
	}
	return "?"
}
