package tables

import (
	"context"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/game"
)

// Who belongs at a table. A group's table is its members' (a practice table
// its person's): only they may sit down, run a lobby, start or change a game
// there, and a press counts only from the chat its button was shown in — a
// button's data copied into another group or a private chat is refused and
// changes nothing. The question "is this person in the group?" is one
// function (members.Cache.Belongs, asked of Telegram and cached briefly),
// the same for a lobby's buttons, «🔁 Сыграть ещё», a join link and the
// «Стол» page. When Telegram says someone left the group (a chat_member
// update, sent where the bot is an administrator; a left_chat_member
// service message), the cached yes goes at once, and so does their seat:
// out of the lobby, and out of a running game as if they had pressed
// «Выйти из игры» (a robot plays on for them: bot/tables/lobby). docs/bot.md «Buttons and
// stale presses» has the table of who may press what.

// pressChat is the chat a press came from: its message's, even one too old
// for Telegram to send along; false for none (an inline message).
func pressChat(q *models.CallbackQuery) (int64, bool) {
	switch {
	case q.Message.Message != nil:
		return q.Message.Message.Chat.ID, true
	case q.Message.InaccessibleMessage != nil:
		return q.Message.InaccessibleMessage.Chat.ID, true
	}
	return 0, false
}

// mayPress refuses, before the transaction, a press from a chat its button
// was never shown in, or by someone who does not belong at the table: the
// lobby's buttons, the game picker, «▶️» under /help, the language, /stop's
// question and «🔁 Сыграть ещё» are pressed in the table's chat (the last
// also under a player's private result) by a member of its group; getting
// up from a lobby asks no membership. A seat's buttons are judged with the
// seat (fromItsChat; seat tells a seat's button, op.seat). Only ctx
// ending is an error.
func (c *presses) mayPress(ctx context.Context, q *models.CallbackQuery, p callback.Data, seat bool) error {
	if seat {
		return nil
	}
	table, _, err := record.ParseID(p.Table)
	if err != nil {
		return refusal.New("error.bad_button")
	}
	chat, ok := pressChat(q)
	if !ok || chat != table && !(p.Op == callback.Again && chat == q.From.ID) {
		return refusal.New("error.elsewhere")
	}
	if p.Op == callback.Lobby && len(p.Args) > 0 && p.Args[0] == callback.LobbyLeave {
		return nil // getting up is never refused
	}
	member, err := c.members.Belongs(ctx, table, q.From.ID)
	if err != nil {
		return err
	}
	if !member {
		c.log.Info().Str("table", p.Table).Int64("user", q.From.ID).Msg("press refused: not in the group")
		return refusal.New("error.not_member")
	}
	return nil
}

// fromItsChat refuses, inside the transaction, what mayPress could not
// judge without the table: a seat's button pressed by its own person
// anywhere but their private chat (someone else's seat is refused as not
// theirs by the seat's own check) — or on their hand in the table's group
// (an ephemeral message, grouphand.go) —, and «🔁 Сыграть ещё» from a private chat
// by someone who did not play there (only players get a private result).
func fromItsChat(q *models.CallbackQuery, t *record.Table, p callback.Data, seat bool) error {
	chat, _ := pressChat(q)
	switch {
	case seat && chat != q.From.ID && !(chat == t.ChatID && fromGroupHand(q)):
		if s := t.Seat(game.Seat(p.Args[0])); s != nil && s.Human() && s.UserID == q.From.ID {
			return refusal.New("error.elsewhere")
		}
	case p.Op == callback.Again && chat != t.ChatID && t.SeatOf(q.From.ID) < 0:
		return refusal.New("error.elsewhere")
	}
	return nil
}
