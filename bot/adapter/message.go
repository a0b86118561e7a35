package adapter

import (
	"html"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
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

// Clip keeps a text inside Telegram's limit, counting as Telegram does:
// the text it shows (tags count nothing, a character reference one
// character), in UTF-16 code units. A text too long is cut between
// characters shown — never inside a tag, a character reference or a
// character — ends with an ellipsis, and closes the tags left open, so
// Telegram still accepts it as HTML.
func Clip(s string) string {
	units := 0
	var open []string // the tags open where the scan is, innermost last
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '<':
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				return s // not our HTML: leave it to Telegram's judgement
			}
			tag := s[i+1 : i+end]
			if name, closing := strings.CutPrefix(tag, "/"); closing {
				if n := len(open); n > 0 && open[n-1] == tagName(name) {
					open = open[:n-1]
				}
			} else if !strings.HasSuffix(tag, "/") {
				open = append(open, tagName(tag))
			}
			i += end + 1
			continue
		case c == '&':
			if end := strings.IndexByte(s[i:], ';'); end > 0 && end <= 10 {
				if units+1 > maxMessageUnits {
					return cut(s[:i], open)
				}
				units++
				i += end + 1
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		if units+n > maxMessageUnits {
			return cut(s[:i], open)
		}
		units += n
		i += size
	}
	return s
}

// tagName is an opening tag's name: "a" of `a href="…"`.
func tagName(tag string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(tag), " ")
	return strings.ToLower(name)
}

// cut ends a clipped text: the ellipsis, then the open tags closed.
func cut(s string, open []string) string {
	var b strings.Builder
	b.WriteString(s)
	b.WriteString("…")
	for i := len(open) - 1; i >= 0; i-- {
		b.WriteString("</" + open[i] + ">")
	}
	return b.String()
}
