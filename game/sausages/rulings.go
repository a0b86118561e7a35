package sausages

import "github.com/trickchef/trickchef/game"

// This file holds every decision marked [ruling]: those of
// shared/rules/sausages.md and the engine's own where the spec and the
// Russian rulebook (shared/seeds/sausages.ru.txt) disagree or are silent.
// Each is ours, not the rulebook's: change it here and nowhere else.

// MinPlayers is the smallest table. The rulebook only says "up to 6";
// Skull's minimum is 3. [ruling]
const MinPlayers = 3

// The first player of round 1 is the table's creator, given as
// Config.First (the rulebook says "choose a first player"). [ruling] See New.

// Setup is simultaneous: every seat still in that has not placed its first
// card is in ToAct, in seat order, and they may place in any order. The
// add-or-challenge turns start once all have placed. [ruling]

// wholeOwnStack: the challenger's own stack is turned over all at once,
// even when it holds more cards than the bid; a boot anywhere in it is a
// failure, and the attempt succeeds at once if the stack alone reaches the
// bid. The spec says "all of their own cards"; the rulebook's
// "переворачивает необходимое число карт, начиная со своих" could be read as
// stopping at n. [ruling]
const wholeOwnStack = true

// Revealing from an opponent turns that stack's top face-down card; the
// challenger may switch stacks at will and need not finish one. [ruling:
// the rulebook's "starting with any card on the board" is read as "the top
// card of any board", as in Skull, because cards are stacked.]

// The opponent whose boot was revealed picks the lost card blind. The
// rulebook's summary says "the neighbouring player"; its detailed rules and
// the spec say the boot's owner. [ruling]

// Forced choices are still actions: a blind pick among one card and losing
// the only kind one holds are explicit moves, so the table sees who acted.
// [ruling]

// A seat that passed and tries to act again in the same bidding gets
// already_passed rather than not_your_turn. [ruling]

// Hand sizes are public (cards owned and stack sizes are, so hand size
// follows). The bid log of the current round is public. [ruling]

// The lost card stays visible to the challenger (SeatView.Lost) until the
// next round's outcome replaces it. [ruling]

// After a boot the attempt stops; the rulebook lets the boot's owner show
// their other cards for fun. The engine never does. [ruling]

// Result: Scores are 1 for the winner and 0 for everyone else; successes
// are in the views. [ruling]

// nextFirst returns the first player of the round after a failed attempt by
// challenger c on the boot of owner, once c has lost a card; named reports
// that c must name the first player (an action, PhaseName). Rulebook:
// "Если претендент не выбыл из игры, он становится первым игроком
// следующего раунда"; if out, the boot's owner; if out on an own boot, the
// challenger chooses. [spec]
func nextFirst(c, owner uint8, cOut bool) (first uint8, named bool) {
	switch {
	case !cOut:
		return c, false
	case owner != c:
		return owner, false
	}
	return 0, true
}

// The out challenger naming the next first player may name any seat still
// in the game (themselves excluded, being out). [ruling]
func canName(st *State, s game.Seat) bool {
	return s >= 0 && int(s) < int(st.players) && !st.seats[s].out()
}
