package sausages

import "github.com/trickchef/trickchef/game"

// This file holds every decision marked [ruling] in docs/rules/sausages.md
// (listed there under «Rulings»): points where the published Russian rules
// are silent, ambiguous or contradict themselves. Each is ours, not the
// published game's: change it here, and in that page, and nowhere else.

// MinPlayers is the smallest table. The published rules only say "up to
// 6"; Skull's minimum is 3. [ruling]
const MinPlayers = 3

// The first player of round 1 is the table's creator, given as
// Config.First (the published rules say "choose a first player").
// [ruling] See New.

// Setup is simultaneous: every seat still in that has not placed its first
// card is in ToAct, in seat order, and they may place in any order. The
// add-or-challenge turns start once all have placed. [ruling]

// wholeOwnStack: the challenger's own stack is turned over all at once,
// even when it holds more cards than the bid; a boot anywhere in it is a
// failure, and the attempt succeeds at once if the stack alone reaches the
// bid. The published rules say the challenger first turns "ВСЕ свои
// карты", but also "переворачивает необходимое число карт, начиная со
// своих", which could be read as stopping at n. [ruling]
const wholeOwnStack = true

// Revealing from an opponent turns that stack's top face-down card; the
// challenger may switch stacks at will and need not finish one. [ruling:
// the published "starting with any card on the board" is read as "the top
// card of any board", as in Skull, because cards are stacked.]

// The opponent whose boot was revealed picks the lost card blind. The
// published summary says "the neighbouring player"; the detailed rules say
// the boot's owner. [ruling]

// Forced choices are still actions: a blind pick among one card and losing
// the only kind one holds are explicit moves, so the table sees who acted.
// [ruling]

// A seat that passed and tries to act again in the same bidding gets
// already_passed rather than not_your_turn. [ruling]

// Hand sizes are public (cards owned and stack sizes are, so hand size
// follows). The bid log of the current round is public. [ruling]

// The lost card stays visible to the challenger (SeatView.Lost) until the
// next round's outcome replaces it. [ruling]

// After a boot the attempt stops; the published rules let the boot's owner
// show their other cards for fun. The engine never does. [ruling]

// Result: each seat's score is its number of successful challenges (0–2),
// so the others can be ranked; the winner is the only one in Winners, even
// one who won as the last player left. [ruling] See State.Result.

// nextFirst returns the first player of the round after a failed attempt by
// challenger c on the boot of owner, once c has lost a card; named reports
// that c must name the first player (an action, PhaseName). Published
// rules: "Если претендент не выбыл из игры, он становится первым игроком
// следующего раунда"; if out, the boot's owner; if out on an own boot, the
// challenger chooses.
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
