package chekharda

import "time"

// This file holds every ruling: decisions where the printed rules are
// silent or leave the bot to choose. Each is ours, not the rulebook's:
// change it here and in docs/rules/chekharda.md, nowhere else.

// MinPlayers and MaxPlayers bound the table. The rulebook says "2 or more
// players"; six keeps a deal of 7 each (42 cards) well inside the 72.
// [ruling]
const (
	MinPlayers = 2
	MaxPlayers = 6
)

// Targets: the rulebook's 77, and a short game for a quick table.
// Config.Target 0 means TargetFull; any value 1..MaxTarget is accepted.
// [ruling]
const (
	TargetFull  = 77
	TargetShort = 30
	MaxTarget   = 999
)

// HandSize is the deal at the start of every round, OutBonus the round
// winner's bonus. [rulebook]
const (
	HandSize = 7
	OutBonus = 5
)

// QuietPause is the default quiet pause after which the platform applies
// the dealer's deal (a table setting; every committed action restarts it).
// When Stuck reports that no player has any action, the platform deals at
// once. The rulebook: "even the slightest pause tells the dealer to deal".
// [ruling]
const QuietPause = 3 * time.Second

// Laying is automatic: after the deal of a round and after every deal or
// draw, every pair (or more) in a hand is laid down at once as a set,
// merging with the seat's own set of that kind. Seats are handled
// clockwise from the dealer's left, kinds in Kind order. [ruling: the
// rulebook has players lay sets "at once"; the bot does it for them]

// A deal gives one card to each player clockwise from the dealer's left
// and stops when the deck runs out, so the last deal may reach only some
// players. The dealer deals whenever the platform applies the deal: after
// the quiet pause, or at once when nobody can act. [ruling]

// Going out: a player goes out the moment their hand becomes empty: after
// a steal or an add with their last card, or when the cards they were
// dealt or drew all went into sets. The round ends inside that same
// Apply. If one deal empties several hands, the first of them clockwise
// from the dealer's left went out; the others simply have no hand cards.
// [ruling]

// Deck exhausted: no more dealing or drawing. If then nobody can steal or
// add, the round ends inside the Apply that caused it, with no winner (no
// bonus); it is scored as usual. [ruling] (With fewer than six players
// this cannot happen: every kind then has a set on the table, so anyone
// holding a card can act, and someone goes out.)

// Variant «Хотите большего?» (Config.DrawForSelf): there is no dealer's
// deal; a player who can neither steal nor add may draw the top card for
// themselves (a button), any number of times while the deck lasts. A
// player who can act gets not_stuck. [ruling: the rulebook says "must
// draw"; in the bot drawing is a button the stuck player presses]

// Scoring: +1 per card in one's sets, −1 per card in hand, +OutBonus for
// the player who went out; a round score below 0 counts as 0. [rulebook]

// End of the game: after a round, if anyone's total reaches the target,
// the game ends; the highest total wins; equal highest totals share the
// win. Otherwise the next dealer clockwise deals a new round. [ruling]

// Hands stay hidden at the end of a round: the breakdown shows how many
// cards each player held, not which. [ruling]

// Between rounds the platform applies the next-round move after a pause so
// that people can read the results (PhaseRoundEnd). [ruling]
