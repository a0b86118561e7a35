package adapter

import (
	"html"
	"unicode/utf16"
)

// Button is an inline keyboard button: callback data or a URL. Adapters
// make their buttons with ActionButton, DraftButton and InfoButton, which
// carry the data the platform routes back to the game.
type Button struct {
	Text string `json:"t"`
	Data string `json:"d,omitempty"`
	URL  string `json:"u,omitempty"`
	// WebApp opens this address as a Mini App (private chats only).
	WebApp string `json:"w,omitempty"`
}

// Message is a rendered view: Telegram HTML text and an inline keyboard.
// The platform cuts the text at Telegram's limit and sends it only when it
// differs from what the chat shows.
type Message struct {
	Text     string     `json:"text"`
	Keyboard [][]Button `json:"kb,omitempty"`
	// Ping asks for a fresh message instead of an edit when the view turns
	// to pinging: edits don't notify, and a player must learn it's their turn.
	Ping bool `json:"ping,omitempty"`
	// Lazy marks a rendering not worth a call while the game goes on: a
	// waiting player's hand. Its message is left as it was (its buttons are
	// refused as stale) until the next Ping replaces it.
	Lazy bool `json:"lazy,omitempty"`
}

// Esc escapes user-provided text (names, titles) for HTML parse mode.
func Esc(s string) string { return html.EscapeString(s) }

// maxMessageUnits is where we cut a text: Telegram's limit is 4096 UTF-16
// code units, and the ellipsis needs room.
const maxMessageUnits = 4000

// Clip keeps a text inside Telegram's limit, counting as Telegram does
// (UTF-16 code units) and never splitting a character.
func Clip(s string) string {
	units := 0
	for i, r := range s {
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		if units+n > maxMessageUnits {
			return s[:i] + "…"
		}
		units += n
	}
	return s
}
