package sausages

import "github.com/trickchef/trickchef/game"

// Rule error codes. The shared ones are re-exported so the bot can switch on
// one package's constants.
const (
	CodeNotYourTurn   = game.CodeNotYourTurn
	CodeGameOver      = game.CodeGameOver
	CodeUnknownAction = game.CodeUnknownAction
	// CodeBadSeat: the acting seat, or the seat named by a reveal or by
	// "name the first player", is not at the table; for naming, also a seat
	// that is out.
	CodeBadSeat = game.CodeBadSeat

	// CodeWrongPhase: a valid action of the wrong kind for the phase, e.g.
	// passing while cards are being added, or revealing during bidding.
	CodeWrongPhase game.Code = "wrong_phase"
	// CodeNoSuchCard: placing or losing a kind of card the seat does not
	// hold in hand.
	CodeNoSuchCard game.Code = "no_such_card"
	// CodeBidTooLow: a raise not above the current bid.
	CodeBidTooLow game.Code = "bid_too_low"
	// CodeBidTooHigh: a bid above the number of cards on all boards.
	CodeBidTooHigh game.Code = "bid_too_high"
	// CodeMustChallenge: placing a card with none left in hand; the seat
	// must open the bidding.
	CodeMustChallenge game.Code = "must_challenge"
	// CodeAlreadyPassed: a seat that passed tries to act again in the same
	// bidding.
	CodeAlreadyPassed game.Code = "already_passed"
	// CodeStackEmpty: revealing from a stack with no face-down card left
	// (exhausted, empty, out, or the challenger's own, which is turned over
	// automatically).
	CodeStackEmpty game.Code = "stack_empty"
	// CodeBadPick: a blind pick outside the challenger's fanned cards.
	CodeBadPick game.Code = "bad_pick"
)
