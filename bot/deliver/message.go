package deliver

import (
	"encoding/json"
	"hash/fnv"
	"strconv"

	"github.com/go-telegram/bot/models"
	"github.com/trickchef/trickchef/bot/adapter"
)

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

// noPreview turns link previews off: a message's links are buttons' or
// the rules', never something to preview.
func noPreview() *models.LinkPreviewOptions {
	disabled := true
	return &models.LinkPreviewOptions{IsDisabled: &disabled}
}
