package adapter

import (
	"html"
	"regexp"

	"github.com/trickchef/trickchef/game"
)

// WebGame is a game the «Стол» web page can draw. The page is one generic
// drawer of a Scene: the game says what is on the table (seats, piles,
// cards as pictures, the viewer's hand and choices) and the page lays it
// out, so adding a game to the web table needs no JavaScript.
//
// Scene is the table as seat sees it, or as a spectator sees it when seat
// is Spectator: a spectator's scene must hold only what the group table
// shows (no hidden card), a seat's only what that seat may know. Cards
// and choices a seat may press carry the same data as its chat buttons
// (ActionButton, DraftButton, InfoButton: Button.Data), and the page sends
// that data back through the same apply path as a press in the chat.
//
// Texts are plain (no HTML): the page escapes everything it shows. Use
// PlainText to reuse a catalog line written for Telegram's HTML.
type WebGame interface {
	Scene(l Loc, t TableView, st game.State, seat int) Scene
}

// Spectator is the seat a Scene is drawn for when the viewer plays no seat.
const Spectator = -1

// Scene is what the web table draws. The platform fills the seats' common
// marks (name, you, robot, away, deadline) after the game's Scene; a game
// fills what only it knows.
type Scene struct {
	// Status is the headline: whose turn and what to do, or who won.
	Status string `json:"status"`
	// Info are short lines under the headline (trump, pool, round).
	Info []string `json:"info,omitempty"`
	// Seats are every seat of the game in seat order. A game that leaves
	// it empty gets one entry per seat from the platform.
	Seats []SceneSeat `json:"seats"`
	// Center is what lies in the middle of the table: the trick, the
	// board, the stacks.
	Center []Pile `json:"center,omitempty"`
	// Hand is the viewer's own cards (empty for a spectator).
	Hand []Card `json:"hand,omitempty"`
	// HandLabel names the hand ("Ваши карты"), shown above it.
	HandLabel string `json:"hand_label,omitempty"`
	// Choices are the viewer's other buttons (a suit to pick, the coins
	// to put on the next card, a steal), in groups shown as rows.
	Choices []Choice `json:"choices,omitempty"`
	// Prompt tells the viewer what the hand and choices are for now
	// ("Ваш ход: выберите карту"); empty while they wait.
	Prompt string `json:"prompt,omitempty"`
	// Hint is the advice the viewer took for this position (plain text;
	// the platform sets it and marks the advised card or choice).
	Hint string `json:"hint,omitempty"`
	// Log is the recent moves, oldest first, a few at most.
	Log []string `json:"log,omitempty"`
}

// SceneSeat is one seat around the table.
type SceneSeat struct {
	Name string `json:"name"`
	// Stats are short marks shown under the name ("🃏 5", "🪙 3").
	Stats []string `json:"stats,omitempty"`
	// Cards lie in front of the seat: played, won, or face down.
	Cards []Card `json:"cards,omitempty"`
	// Turn marks a seat that has to act now.
	Turn bool `json:"turn,omitempty"`
	// Leader marks a seat ahead in the score (or the winner at the end).
	Leader bool `json:"leader,omitempty"`
	// Out marks a seat out of the game (eliminated).
	Out bool `json:"out,omitempty"`

	// Filled by the platform.
	You      bool  `json:"you,omitempty"`
	Robot    bool  `json:"robot,omitempty"`
	Away     bool  `json:"away,omitempty"`     // the bot plays for the person
	Deadline int64 `json:"deadline,omitempty"` // the person's turn ends (Unix ms); 0: none
}

// Pile is a labelled group of cards in the middle of the table.
type Pile struct {
	Label string `json:"label,omitempty"`
	Cards []Card `json:"cards"`
	// Taker, when set, is the seat that took these cards (a trick's
	// winner): the page moves them there as they leave the table.
	Taker *int `json:"taker,omitempty"`
}

// Card is one card drawn as a picture: a face in the game's colour with
// a large mark and a small one in the corners, or its back.
type Card struct {
	// Face is the large mark in the middle: a value or an emoji.
	Face string `json:"face,omitempty"`
	// Corner is the small mark in the corners (the suit); empty: Face.
	Corner string `json:"corner,omitempty"`
	// Suit, when set, is drawn as a shape (one of the Suit* shapes) in
	// the corners under the value, and beside the face: suits told apart
	// without their colour, and a fanned hand shows every card's value.
	Suit string `json:"suit,omitempty"`
	// Color is the face's colour, a CSS hex colour ("#d94c3d").
	Color string `json:"color,omitempty"`
	// Name says what the card is in words, for screen readers and for
	// the toast after a tap ("красная 7").
	Name string `json:"name"`
	// Back draws the card face down (Face and Color are ignored).
	Back bool `json:"back,omitempty"`
	// Note is a line under the card (the coins on it, its owner).
	Note string `json:"note,omitempty"`
	// Act is the data of the press the card makes (Button.Data); empty:
	// the card cannot be pressed.
	Act string `json:"act,omitempty"`
	// Dim draws a card that cannot be played now; pressing it still
	// explains why.
	Dim bool `json:"dim,omitempty"`
	// Selected marks the card chosen in a choice in progress.
	Selected bool `json:"selected,omitempty"`
	// Hinted marks the card the hint the person took advises to play.
	Hinted bool `json:"hinted,omitempty"`
}

// The suit shapes the page draws (Card.Suit).
const (
	SuitCircle   = "circle"
	SuitTriangle = "triangle"
	SuitSquare   = "square"
	SuitDiamond  = "diamond"
	SuitStar     = "star"
	SuitCross    = "cross"
)

// Choice is a button of the viewer's that is not a card.
type Choice struct {
	Text string `json:"text"`
	// Act is the data of the press (Button.Data).
	Act string `json:"act"`
	// Row groups choices into one row; choices of a row stay together.
	Row int `json:"row,omitempty"`
	// Selected marks the option chosen in a choice in progress.
	Selected bool `json:"selected,omitempty"`
	// Hinted marks the move the hint the person took advises.
	Hinted bool `json:"hinted,omitempty"`
}

// ChoicesFrom turns a keyboard's rows into choices, row by row, for a
// game whose web buttons are its chat buttons (URL buttons are left out).
func ChoicesFrom(rows [][]Button) []Choice {
	var out []Choice
	for i, r := range rows {
		for _, b := range r {
			if b.Data != "" {
				out = append(out, Choice{Text: b.Text, Act: b.Data, Row: i})
			}
		}
	}
	return out
}

var tagPattern = regexp.MustCompile(`<[^>]*>`)

// PlainText turns a catalog line written for Telegram's HTML into plain
// text: tags dropped, entities decoded.
func PlainText(s string) string { return html.UnescapeString(tagPattern.ReplaceAllString(s, "")) }

// SeatPlainName is the seat's name as plain text, for a Scene.
func SeatPlainName(v TableView, s game.Seat) string {
	if ts := v.t.Seat(s); ts != nil {
		return ts.Name
	}
	return "?"
}
