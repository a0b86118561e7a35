package adapter

import "github.com/trickchef/trickchef/game"

// ReplayGame is a WebGame whose finished games the «Стол» page replays
// move by move («▶️ Повтор»), everyone's cards face up.
type ReplayGame interface {
	// OpenScene is the table at st as the replay shows it: the
	// spectator's Scene with every seat's hidden cards face up in front
	// of it (SceneSeat.Cards; a card in hand noted «🖐» where a seat also
	// has cards on the table) and the face-down pile's next card turned,
	// with no hand, choices or prompt. st is any state of the game (the
	// replay's); t is the table as it was played (Playing true), with no
	// clock. It shows hidden cards: only ever for a game that is over.
	OpenScene(l Loc, t TableView, st game.State) Scene
}

// HandNote marks a card in a seat's hand among its cards on the table in
// an OpenScene.
const HandNote = "🖐"

// RoundGame is a game played in rounds: the replay's round picker jumps
// to the move where each round begins. A game without it is one round.
type RoundGame interface {
	// Round is the round st is in, counted from 1.
	Round(st game.State) int
}
