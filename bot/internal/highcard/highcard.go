// Package highcard is the engine of «Старшая карта», the tiny example game
// that docs/bot.md walks through: two players are dealt three cards each
// of the six cards 1–6; the leader plays a card, then the other player;
// the higher card wins the round and its owner leads the next one. After
// three rounds the player with more rounds wins.
//
// It is a test fixture that stands for a game/<id> engine and keeps its
// rules (pure, deterministic, no I/O, the game.State contract checked by
// game/gametest); it is not offered to players.
package highcard

import (
	"encoding/json"
	"math/rand/v2"
	"slices"

	"github.com/trickchef/trickchef/game"
)

const (
	// Players is the number of seats.
	Players = 2
	// Cards is the highest card; the deck holds 1..Cards.
	Cards = 6
	// Rounds is the number of rounds: every card is played.
	Rounds = Cards / Players
)

// CodeNotInHand refuses a card the player does not hold.
const CodeNotInHand game.Code = "not_in_hand"

// State is a game in progress or over. An action is the value of the card
// played (1..Cards). Nothing is hidden for long: each player can work out
// the other's hand from their own.
type State struct {
	Hands  [Players][]int `json:"hands"`  // sorted, the cards not yet played
	Played [Players]int   `json:"played"` // this round's cards, 0: not yet
	Turn   game.Seat      `json:"turn"`
	Score  [Players]int   `json:"score"`
	Round  int            `json:"round"` // rounds finished
	// Last are the cards of the last finished round, by seat.
	Last [Players]int `json:"last"`
}

// New deals a game from seed; seat 0 leads the first round.
func New(seed uint64) *State {
	deck := make([]int, Cards)
	for i := range deck {
		deck[i] = i + 1
	}
	r := rand.New(rand.NewPCG(seed, 0x6869676863617264))
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	s := &State{}
	for p := range s.Hands {
		s.Hands[p] = slices.Sorted(slices.Values(deck[p*Rounds : (p+1)*Rounds]))
	}
	return s
}

// Decode reads what MarshalBinary wrote.
func Decode(data []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// MarshalBinary encodes the state.
func (s *State) MarshalBinary() ([]byte, error) { return json.Marshal(s) }

// Seats is always Players.
func (s *State) Seats() int { return Players }

// Over reports whether every round has been played.
func (s *State) Over() bool { return s.Round >= Rounds }

// ToAct is the seat whose card is due, or nobody once the game is over.
func (s *State) ToAct() []game.Seat {
	if s.Over() {
		return nil
	}
	return []game.Seat{s.Turn}
}

// Legal lists the cards seat p may play now.
func (s *State) Legal(p game.Seat) []game.Action {
	if s.Over() || p != s.Turn {
		return nil
	}
	out := make([]game.Action, len(s.Hands[p]))
	for i, c := range s.Hands[p] {
		out[i] = game.Action(c)
	}
	return out
}

// Apply plays card a for seat p; the second card of a round settles it.
func (s *State) Apply(p game.Seat, a game.Action) error {
	switch {
	case s.Over():
		return game.Errorf(game.CodeGameOver, "round %d", s.Round)
	case p < 0 || int(p) >= Players:
		return game.Errorf(game.CodeBadSeat, "seat %d", p)
	case p != s.Turn:
		return game.Errorf(game.CodeNotYourTurn, "seat %d, turn %d", p, s.Turn)
	}
	i := slices.Index(s.Hands[p], int(a))
	if i < 0 {
		return game.Errorf(CodeNotInHand, "card %d", a)
	}
	s.Hands[p] = slices.Delete(s.Hands[p], i, i+1)
	s.Played[p] = int(a)
	other := 1 - p
	if s.Played[other] == 0 {
		s.Turn = other
		return nil
	}
	winner := p
	if s.Played[other] > s.Played[p] {
		winner = other
	}
	s.Score[winner]++
	s.Last, s.Played = s.Played, [Players]int{}
	s.Round++
	s.Turn = winner
	return nil
}

// Result scores rounds won; the player with more wins.
func (s *State) Result() game.Result {
	r := game.Result{Scores: s.Score[:]}
	if s.Score[1] > s.Score[0] {
		r.Winners = []game.Seat{1}
	} else {
		r.Winners = []game.Seat{0}
	}
	return r
}

// Winner is the winner of the last finished round (ok=false before the
// first one ends).
func (s *State) Winner() (game.Seat, bool) {
	if s.Round == 0 {
		return 0, false
	}
	if s.Last[1] > s.Last[0] {
		return 1, true
	}
	return 0, true
}
