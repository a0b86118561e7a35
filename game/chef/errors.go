package chef

import "github.com/trickchef/trickchef/game"

// Rule error codes (lower-case snake_case: the bot shows locale key
// chef.error.<code>). The shared ones are re-exported so the bot can switch
// on one package's constants. Every refused action leaves the state as it
// was.
const (
	CodeNotYourTurn   = game.CodeNotYourTurn
	CodeGameOver      = game.CodeGameOver
	CodeUnknownAction = game.CodeUnknownAction
	// CodeBadSeat: the acting seat is not at the table.
	CodeBadSeat = game.CodeBadSeat

	// CodeMustFinishDraw: after drawing, only discarding a dish, playing
	// the drawn action card, redrawing, announcing or ending the turn is
	// possible (not a second draw, a take, or another action card).
	CodeMustFinishDraw game.Code = "must_finish_draw"
	// CodeNotAfterDraw: ending the turn or redrawing is only possible right
	// after drawing.
	CodeNotAfterDraw game.Code = "not_after_draw"
	// CodeNoSuchCard: playing an action card the seat does not have in
	// front of it.
	CodeNoSuchCard game.Code = "no_such_card"
	// CodeNotTheDrawnCard: after drawing, only the card just drawn may be
	// played.
	CodeNotTheDrawnCard game.Code = "not_the_drawn_card"
	// CodeNoSuchDish: discarding a dish one does not have, or naming a dish
	// the victim does not have (Diet, Hangover).
	CodeNoSuchDish game.Code = "no_such_dish"
	// CodeNotADuplicate: discarding, without drawing first, a dish one
	// holds fewer than two of.
	CodeNotADuplicate game.Code = "not_a_duplicate"
	// CodeNotEnoughDishes: a Hangover or a Diet at a next player with
	// fewer dishes than it removes.
	CodeNotEnoughDishes game.Code = "not_enough_dishes"
	// CodeNoDishToTake: a Chef at a next player who has no dish, or naming
	// a dish they do not have.
	CodeNoDishToTake game.Code = "no_dish_to_take"
	// CodeCannotTakeDiscard: the top of the discard pile is neither a dish
	// of a colour the seat lacks nor an Addition it can use.
	CodeCannotTakeDiscard game.Code = "cannot_take_discard"
	// CodeNotAnnounced: taking the Addition from the discard pile with a
	// complete menu that was not announced.
	CodeNotAnnounced game.Code = "not_announced"
	// CodeNotComplete: announcing, or redrawing after a Chef, without a
	// complete menu.
	CodeNotComplete game.Code = "not_complete"
	// CodeAlreadyAnnounced: announcing a menu that is already announced.
	CodeAlreadyAnnounced game.Code = "already_announced"
	// CodeAutoAnnounce: announcing at a table that announces complete menus
	// automatically (Config.AutoAnnounce).
	CodeAutoAnnounce game.Code = "auto_announce"
	// CodeCannotRedraw: redrawing when the card drawn is not a Chef, or
	// when the pile is out for good (closing time).
	CodeCannotRedraw game.Code = "cannot_redraw"
)
