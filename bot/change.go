package bot

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
)

// The methods of change, the effects a transaction's closure records
// (the type itself is declared with Bot.transact in bot.go).

// post queues a message to the table's chat (and topic).
func (ch *change) post(t *record.Table, m adapter.Message) {
	ch.outbox = append(ch.outbox, outMsg{ChatID: t.ChatID, Thread: t.Thread, Message: m})
}

// change collects what one mutation does besides rewriting the table. The
// closure that fills it is retried on conflicts, so it must be pure: no
// Telegram call and no store write. Effects are recorded here and carried
// out by the commit (the outbox) or after it (seated).
type change struct {
	outbox []outMsg
	// answer is the toast for the callback that caused the change.
	answer string
	// seated are users whose /start pointer moves to this table after the
	// commit.
	seated []int64
	// finished is set when the change ended a game.
	finished bool
	// viewRecord is the message record of the view transactSeeing was asked
	// to read along ("" for none): input, not an effect.
	viewRecord string
}
