// Package message is how delivery writes a rendering for the Bot API and
// how a message record tells whether its message shows it. It is its own
// package so that delivery and the hand in the group (bot/deliver/grouphand),
// which draw the same renderings, agree on both without importing each
// other.
package message

import (
	"encoding/json"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/view"
)

// Markup converts the keyboard for the Bot API; nil when there is none.
func Markup(m adapter.Message) models.ReplyMarkup {
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

// Digest identifies a rendering, so an unchanged view is not sent again.
// A platform state (view.PlatformState) has a digest of its own kind, so a
// record showing one is edited back into the hand even when the hand is
// lazy.
func Digest(m adapter.Message, platform bool) string {
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

// Shows reports whether the record's message already shows m.
func Shows(r view.MessageRecord, m adapter.Message, platform bool) bool {
	return r.ID != 0 && r.Digest == Digest(m, platform) && r.Ping == m.Ping
}

// ShowsPlatformState reports whether a message record shows one of the
// platform's states (the bot plays for you, confirm leaving) rather than
// the game's.
func ShowsPlatformState(rec view.MessageRecord) bool {
	return strings.HasPrefix(rec.Digest, platformDigest)
}

// NoPreview turns link previews off: a message's links are buttons' or
// the rules', never something to preview.
func NoPreview() *models.LinkPreviewOptions {
	disabled := true
	return &models.LinkPreviewOptions{IsDisabled: &disabled}
}
