package trickchef

import "github.com/trickchef/trickchef/game"

// Rule error codes. The shared ones are re-exported so the bot can switch on
// one package's constants.
const (
	CodeNotYourTurn   = game.CodeNotYourTurn
	CodeGameOver      = game.CodeGameOver
	CodeUnknownAction = game.CodeUnknownAction
	CodeBadSeat       = game.CodeBadSeat

	// CodeCardNotInHand: the card is not in the acting seat's hand.
	CodeCardNotInHand game.Code = "card_not_in_hand"
	// CodeMustFollowSuit: the seat holds the led suit but played another.
	CodeMustFollowSuit game.Code = "must_follow_suit"
	// CodeNotEnoughCoins: more coins placed than the seat owns.
	CodeNotEnoughCoins game.Code = "not_enough_coins"
	// CodeChefNotAvailable: no chef of that suit is set aside (round start)
	// or left in the centre pool (trick award).
	CodeChefNotAvailable game.Code = "chef_not_available"
	// CodeWrongPhase: a valid action of the wrong kind for the phase, e.g.
	// playing a card while a chef must be chosen.
	CodeWrongPhase game.Code = "wrong_phase"
)
