package adapter

import "github.com/trickchef/trickchef/game"

// DealGame is a game whose deals can be told once it is over, so anyone
// can check them against the reveal the table showed (package bot/deal;
// cmd/aibench deal prints them): the reveal's seed deals the first time
// again, and with the game's moves every later shuffle.
type DealGame interface {
	// Deal tells the cards as a shuffle left them in st (the state right
	// after Start, or right after a move Shuffled reports): every seat's
	// hand, the cards face up and the face-down pile in the order it is
	// drawn — plain text, a line each. It shows hidden cards: only ever
	// for a game that is over.
	Deal(l Loc, t TableView, st game.State) string
	// Shuffled reports whether the move from before to after shuffled
	// afresh: a new round's deal, a rebuilt pile, a blind pick's cards.
	Shuffled(before, after game.State) bool
}
