package chekharda

import "github.com/trickchef/trickchef/game"

// Rule error codes (game.Code, lowercase snake_case; the bot shows
// chekharda.error.<code>). The shared ones are re-exported so the adapter
// can switch on one package's constants. Apply checks in this order:
// game_over, bad_seat (acting seat), unknown_action, not_your_turn,
// round_over / wrong_phase, then the move's own checks as listed below.
const (
	// CodeGameOver: the game has ended.
	CodeGameOver = game.CodeGameOver
	// CodeBadSeat: the acting seat is not at the table (nor game.System),
	// or a steal names a victim seat that is not at the table.
	CodeBadSeat = game.CodeBadSeat
	// CodeUnknownAction: the value encodes no move (see actions.go).
	CodeUnknownAction = game.CodeUnknownAction
	// CodeNotYourTurn: a player sent a platform move (deal, next round), or
	// game.System sent a player's move (steal, add, draw).
	CodeNotYourTurn = game.CodeNotYourTurn

	// CodeRoundOver: a steal, add, draw or deal between rounds (the round
	// has ended; only the platform's next-round move is possible).
	CodeRoundOver game.Code = "round_over"
	// CodeWrongPhase: the next-round move while a round is being played.
	CodeWrongPhase game.Code = "wrong_phase"
	// CodeOwnSet: a steal naming one's own seat as the victim (add to it
	// instead).
	CodeOwnSet game.Code = "own_set"
	// CodeNoSingleCard: steal or add of a kind the seat does not hold
	// exactly one card of (it holds none: pairs never stay in a hand).
	CodeNoSingleCard game.Code = "no_single_card"
	// CodeSetGone: the victim has no set of that kind (any more): usually
	// someone else stole it first. The public Events say who.
	CodeSetGone game.Code = "set_gone"
	// CodeNoOwnSet: adding to a kind the seat has no set of.
	CodeNoOwnSet game.Code = "no_own_set"
	// CodeNoDraw: drawing for oneself without the «Хотите большего?»
	// variant (the dealer deals instead).
	CodeNoDraw game.Code = "no_draw"
	// CodeNoDeal: a dealer's deal with the variant on (players draw for
	// themselves instead).
	CodeNoDeal game.Code = "no_deal"
	// CodeDeckEmpty: a deal or draw with no card left in the deck.
	CodeDeckEmpty game.Code = "deck_empty"
	// CodeNotStuck: drawing (variant) while the seat can steal or add.
	CodeNotStuck game.Code = "not_stuck"
)
