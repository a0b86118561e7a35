// Package outbox is what the tables hand delivery: a message to post in a
// chat, or to change in place, queued in a table's durable outbox with the
// change that caused it and posted once, in order.
package outbox

import (
	"encoding/json"

	"github.com/trickchef/trickchef/bot/adapter"
)

// Entry is one message of a table's outbox.
type Entry struct {
	ChatID int64 `json:"chat"`
	Thread int   `json:"thread,omitempty"`
	adapter.Message
	// Reply marks the answer to a command, which may use all of the
	// group's calls; anything else is an announcement.
	Reply bool `json:"reply,omitempty"`
	// Edit, when set, is a message of the chat that this entry changes in
	// place (a rules page turned, a question answered) instead of posting
	// a new one; a later entry editing the same message supersedes it.
	Edit int `json:"edit,omitempty"`
	// Disarm takes Edit's buttons away and leaves its text.
	Disarm bool `json:"unbutton,omitempty"` // the stored name is older
	// Document, when set, is a file this entry sends (sendDocument),
	// Text its caption: a finished game's file of moves (bot/deal).
	Document *Document `json:"doc,omitempty"`
	// Hand, when set, sends a seat's hand to its person in the group, as
	// an ephemeral message only they see, in answer to their press of
	// «🖐 Мои карты» (bot/deliver/grouphand). It is drawn when sent.
	Hand *Hand `json:"hand,omitempty"`
	// HandGone, when set, deletes a seat's hand in the group (its person
	// forgot themselves, /forgetme): the message only they saw goes with
	// the rest. Query and At are unused.
	HandGone *Hand `json:"hand_gone,omitempty"`
}

// Hand is the press a hand in the group answers: the seat and its person,
// the game, the callback query and when it was pressed (Telegram takes
// the answer within 15 seconds of it).
type Hand struct {
	Seat   int    `json:"seat"`
	User   int64  `json:"user"`
	GameNo int    `json:"game"`
	Query  string `json:"query"`
	At     int64  `json:"at"` // unix ms
}

// Document is a file to send: its name and its bytes.
type Document struct {
	Name string `json:"name"`
	Data []byte `json:"data"`
}

// Encode is the entry as the store keeps it.
func (e Entry) Encode() ([]byte, error) { return json.Marshal(e) }

// Decode reads an entry the store kept. Legacy reports an entry written
// before finished games and results commands became the tables' own work:
// it carries one of those instead of a message (Decode leaves it to the
// tables, which adopt it).
func Decode(data []byte) (e Entry, legacy bool, err error) {
	var raw struct {
		Entry
		Result json.RawMessage `json:"result,omitempty"`
		Query  json.RawMessage `json:"query,omitempty"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Entry{}, false, err
	}
	return raw.Entry, len(raw.Result) > 0 || len(raw.Query) > 0, nil
}
