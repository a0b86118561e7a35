package bot

import (
	"encoding/json"
	"hash/fnv"
	"strconv"

	"github.com/go-telegram/bot/models"
	"github.com/trickchef/trickchef/bot/adapter"
)

// outMsg is an announcement queued in a table's outbox: posted once, in order.
type outMsg struct {
	ChatID int64 `json:"chat"`
	Thread int   `json:"thread,omitempty"`
	adapter.Message
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
func markup(m adapter.Message) models.ReplyMarkup {
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
// A platform state (platformState) has a digest of its own kind, so a record
// showing one is edited back into the hand even when the hand is lazy.
func digest(m adapter.Message, platform bool) string {
	h := fnv.New64a()
	raw, _ := json.Marshal(m)
	h.Write(raw)
	d := strconv.FormatUint(h.Sum64(), 36)
	if platform {
		return platformDigest + d
	}
	return d
}

// platformDigest starts the digest of a platform state (base 36 never
// has it).
const platformDigest = "!"
