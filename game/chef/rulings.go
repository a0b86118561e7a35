package chef

// This file holds every decision the rules leave to us, marked [ruling]:
// the spec's own rulings and the engine's where the spec and the original
// rulebook are silent. Change them here and nowhere else. docs/rules/chef.md
// states them for players.

// MinPlayers is the smallest table (the box says 2 to 8).
const MinPlayers = 2

// Who begins: the player left of the dealer; the dealer is the table's
// creator, so the bot passes the seat after the creator as Config.First.
// [ruling]

// Setup: cards are turned from the pile onto the discard pile until a dish
// shows; the action cards turned before it stay in the discard pile under
// the dish (they come back into play when the pile is rebuilt). [ruling]

// Announcing «Счёт!» (KindAnnounce) [ruling]:
//   - only the seat to act may announce, at any point of its turn (before
//     drawing or taking, or after drawing), when its cards are exactly six
//     dishes of six colours and it has not announced yet;
//   - it does not cost the turn: the seat goes on with the same step;
//   - a seat that draws the Addition, or wants to take it from the discard
//     pile, must have announced before: a seat that forgot cannot take it
//     from the discard pile (not_announced) and discards it when it draws
//     it, as the rulebook's "forgot to ask for the bill" says;
//   - with Config.AutoAnnounce the announce action does not exist
//     (auto_announce): after every action the engine announces each
//     complete menu, whoever's it is.

// An announcement lapses at the end of any turn (anyone's) after which the
// seat's menu is not complete: a dish lost to a penalty or a Chef, a card
// drawn and kept. Within the seat's own turn the menu may be incomplete for
// a moment without losing the announcement: drawing a dish one already has
// and discarding it keeps it, as does the Chef discarded for a redraw. The
// seat must announce again once its menu is complete again. [ruling]

// After drawing [ruling]:
//   - the seat may discard any one of its dishes (the drawn one included,
//     duplicate or not), never an action card; or play the card it just drew
//     if that is an action card (not another one: "no draw" for playing a
//     card from in front of you); or end the turn keeping everything. Ending
//     is an explicit action (EndAction), so that every turn's end is seen;
//   - an Addition drawn without an announced complete menu goes straight to
//     the discard pile and ends the turn (it is that turn's discard).

// The Chef redraw [ruling]: the seat may redraw when the card it just drew
// is a Chef and its other cards form a complete menu (announced or not).
// The Chef goes onto the discard pile and the next card is treated as a
// fresh draw: an Addition wins if the menu is announced, another Chef may be
// redrawn again. If the pile is empty the discard pile is rebuilt first
// (the Chef stays its top); at closing time there is no redraw.

// Taking the discard top: a dish of a colour the seat has none of (even with
// action cards or duplicates in front of it), or the Addition with an
// announced complete menu, which wins. Action cards other than the Addition
// can never be taken; an Addition that cannot be used cannot be taken
// either, since it would go straight back. [ruling]

// Penalties [ruling]:
//   - the victim is always the next seat in the current direction;
//   - the player names the victim's dishes (by colour); a Hangover's two
//     dishes may be of the same colour if the victim has two of it;
//   - the action card goes onto the discard pile first, then the lost
//     dishes in the order named, so a Hangover's second dish ends on top;
//   - with two players the lost dishes leave the game (Public.Removed), the
//     action card still goes onto the discard pile;
//   - a Chef moves the named dish from the victim to the player, and the
//     Chef goes onto the discard pile; it is no penalty, so no skip.
//   - Blank menu reverses the direction; with two players that changes
//     nothing else (the other player is next either way).

// Skips [ruling]: the victim of a Hangover, a Diet or an Empty plate is
// always the next to play, so its skip takes effect at once: the turn
// passes over it. Skips cannot pile up. Public shows the seat as Skipped
// until its next turn begins.

// MaxRebuilds is how many times the pile may be rebuilt from the discard
// pile. When a turn ends with the pile empty, the discard pile but its top
// is shuffled into a new pile (the rulebook's rule), at most MaxRebuilds
// times; when the pile runs out once more, the kitchen closes: the game ends
// and closingWinners decides. This bounds every game (the ten Additions are
// always in the pile or the discard pile, so there is always something to
// rebuild from, and without this rule random or stubborn play could go on
// forever). [ruling]
const MaxRebuilds = 2

// score is a seat's score in Result: the number of distinct dish colours in
// front of it (0–6), and 7 for the winner by the Addition. [ruling]
func score(s *seat) int {
	if s.n[Addition] > 0 {
		return NumColours + 1
	}
	return s.colours()
}

// closingWinners decides a game ended at closing time: the highest score
// (most colours) wins; among those, the fewest surplus cards (duplicates and
// action cards); a tie after that is a shared win. [ruling]
func closingWinners(seats []seat) uint8 {
	best, bestSurplus := -1, 0
	var w uint8
	for i := range seats {
		s := &seats[i]
		sc, sp := score(s), s.surplus()
		switch {
		case sc > best || sc == best && sp < bestSurplus:
			best, bestSurplus, w = sc, sp, 1<<i
		case sc == best && sp == bestSurplus:
			w |= 1 << i
		}
	}
	return w
}
