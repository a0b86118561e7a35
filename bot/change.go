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
