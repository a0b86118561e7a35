package trickchef

import "github.com/trickchef/trickchef/game"

// This file holds every decision marked [ruling] in docs/rules/trickchef.md
// (listed there under «Rulings»). Each is ours, not the published game's:
// change it here, and in that page, and nowhere else.

// DefaultRemoved is the suit left in the box with 3 players unless the table
// creator picks another. [ruling]
const DefaultRemoved = Green

// starsUnverified is the star value printed on a card, by face value. The
// published rules do not print the table, so this is a placeholder until the
// real card data is known: 1–3 → 1★, 4–6 → 2★, 7–9 → 3★, 10 → 4★, in every
// suit. [ruling, UNVERIFIED]
var starsUnverified = [MaxValue + 1]int{0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4}

// stars returns the stars a card of face value v scores under a chef.
func stars(v int) int {
	if v < 1 || v > MaxValue {
		return 0
	}
	return starsUnverified[v]
}

// The first player of round 1 is the table's creator, given as
// Config.First (the published rules say "whoever last visited a fast-food
// restaurant"). [ruling] See New.

// tieWinnerIsLast: among winning candidates with equal effective values the
// card played last wins. The published rules say so for trumps; we apply
// the same rule when no trump was played. [ruling]
const tieWinnerIsLast = true

// settleTrickCoins returns the coins placed on cards to the reserve and then
// pays income: 1 coin to every seat flagged in needs, in the trick's playing
// order, until the reserve is empty. Returning coins BEFORE paying income is
// our ruling (the published rules order neither): it makes a dry reserve
// rarer.
// Paying in playing order when the reserve runs dry is also a [ruling].
// order lists the seats in playing order; it returns the seats paid as a
// bit mask.
func settleTrickCoins(reserve *uint8, coins *[4]uint8, placed int, order *[4]uint8, n int, needs uint8) (paid uint8) {
	*reserve += uint8(placed) // [ruling] placed coins go back first
	for i := 0; i < n; i++ {
		seat := order[i]
		if needs&(1<<seat) == 0 {
			continue
		}
		if *reserve == 0 {
			break // [ruling] pay in playing order until empty
		}
		*reserve--
		coins[seat]++
		paid |= 1 << seat
	}
	return paid
}

// nextRoundFirst picks the first player of the next round: the seat with the
// most total points; on a tie the tied seat that comes first clockwise from
// the previous round's first player, that player included. [ruling]
func nextRoundFirst(totals [4]int, players int, prevFirst game.Seat) game.Seat {
	best := -1 << 31
	for i := 0; i < players; i++ {
		if totals[i] > best {
			best = totals[i]
		}
	}
	for k := 0; k < players; k++ {
		seat := (int(prevFirst) + k) % players
		if totals[seat] == best {
			return game.Seat(seat)
		}
	}
	return prevFirst
}
