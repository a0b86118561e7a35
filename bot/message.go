package bot

import (
	"encoding/json"
	"hash/fnv"
	"html"
	"strconv"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"
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
	// platform marks a state the platform shows in place of the game's
	// message (the bot plays for you, confirm leaving); its digest says
	// so, and a record showing one is edited back into the hand even when
	// the hand is lazy (renderView).
	platform bool
}

// outMsg is an announcement queued in a table's outbox: posted once, in order.
type outMsg struct {
	ChatID int64 `json:"chat"`
	Thread int   `json:"thread,omitempty"`
	Message
	// Result, when set, is a finished game the worker records (nothing is
	// sent); Query is a results command it answers when the queue reaches
	// it (see results.go).
	Result *resultEntry `json:"result,omitempty"`
	Query  *resultQuery `json:"query,omitempty"`
	// Reply marks the answer to a command, which may use all of the
	// group's calls; anything else is an announcement (budget.go).
	Reply bool `json:"reply,omitempty"`
	// Edit, when set, is a message of the chat that this entry changes in
	// place (a rules page turned, a question answered) instead of posting
	// a new one; a later entry editing the same message supersedes it.
	Edit int `json:"edit,omitempty"`
	// Unbutton takes Edit's buttons away and leaves its text.
	Unbutton bool `json:"unbutton,omitempty"`
}

func (m outMsg) encode() ([]byte, error) { return json.Marshal(m) }

func decodeOutMsg(data []byte) (outMsg, error) {
	var m outMsg
	err := json.Unmarshal(data, &m)
	return m, err
}

// markup converts the keyboard for the Bot API; nil when there is none.
func (m Message) markup() models.ReplyMarkup {
	if len(m.Keyboard) == 0 {
		return nil
	}
	rows := make([][]models.InlineKeyboardButton, 0, len(m.Keyboard))
	for _, r := range m.Keyboard {
		row := make([]models.InlineKeyboardButton, 0, len(r))
		for _, bt := range r {
			btn := models.InlineKeyboardButton{Text: bt.Text, CallbackData: bt.Data, URL: bt.URL}
			if bt.WebApp != "" {
				btn.WebApp = &models.WebAppInfo{URL: bt.WebApp}
			}
			row = append(row, btn)
		}
		rows = append(rows, row)
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// digest identifies a rendering, so an unchanged view is not sent again.
func (m Message) digest() string {
	h := fnv.New64a()
	raw, _ := json.Marshal(m)
	h.Write(raw)
	d := strconv.FormatUint(h.Sum64(), 36)
	if m.platform {
		return platformDigest + d
	}
	return d
}

// platformDigest starts the digest of a platform state (base 36 never
// has it).
const platformDigest = "!"

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
