package tables

import (
	"context"
	"errors"
	"slices"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
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
// «Выйти из игры» (a robot plays on for them). docs/bot.md «Buttons and
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

// seatOp reports whether op is a seat's button (a hand's, the 💤 message's):
// shown in its person's private chat only.
func seatOp(op callback.Op) bool {
	switch op {
	case callback.Action, callback.Draft, callback.Back, callback.Hint, callback.Leave:
		return true
	}
	return false
}

// mayPress refuses, before the transaction, a press from a chat its button
// was never shown in, or by someone who does not belong at the table: the
// lobby's buttons, the game picker, «▶️» under /help, the language, /stop's
// question and «🔁 Сыграть ещё» are pressed in the table's chat (the last
// also under a player's private result) by a member of its group; getting
// up from a lobby asks no membership. A seat's buttons are judged with the
// seat (fromItsChat). Only ctx ending is an error.
func (c *core) mayPress(ctx context.Context, q *models.CallbackQuery, p callback.Data) error {
	if seatOp(p.Op) {
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
	member, err := c.cfg.Members.Belongs(ctx, table, q.From.ID)
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
// theirs by the seat's own check), and «🔁 Сыграть ещё» from a private chat
// by someone who did not play there (only players get a private result).
func fromItsChat(q *models.CallbackQuery, t *record.Table, p callback.Data) error {
	chat, _ := pressChat(q)
	switch {
	case seatOp(p.Op) && chat != q.From.ID:
		if s := t.Seat(game.Seat(p.Args[0])); s != nil && s.Human() && s.UserID == q.From.ID {
			return refusal.New("error.elsewhere")
		}
	case p.Op == callback.Again && chat != t.ChatID && t.SeatOf(q.From.ID) < 0:
		return refusal.New("error.elsewhere")
	}
	return nil
}

// belonging is what the tables do when Telegram says who is in a group.
type belonging struct {
	*core
	leaving *leaving
}

// onChatMember reads a chat_member update (the bot administers the group):
// someone left or was removed, or joined.
func (b *belonging) onChatMember(ctx context.Context, updateID int64, u *models.ChatMemberUpdated) error {
	if !isGroup(u.Chat) {
		return nil
	}
	user := memberUser(u.NewChatMember)
	if user == 0 {
		return nil
	}
	if members.IsMember(&u.NewChatMember) {
		b.cfg.Members.Forget(u.Chat.ID, user) // a cached no goes: they may sit down at once
		return nil
	}
	return b.gone(ctx, updateID, u.Chat.ID, user)
}

// onServiceMessage reads a group's service message about its members (a
// group shows them where Telegram does not hide them); false when m is none.
func (b *belonging) onServiceMessage(ctx context.Context, updateID int64, m *models.Message) (bool, error) {
	switch {
	case !isGroup(m.Chat):
		return false, nil
	case m.LeftChatMember != nil:
		return true, b.gone(ctx, updateID, m.Chat.ID, m.LeftChatMember.ID)
	case len(m.NewChatMembers) > 0:
		for _, u := range m.NewChatMembers {
			b.cfg.Members.Forget(m.Chat.ID, u.ID)
		}
		return true, nil
	}
	return false, nil
}

// gone is what follows someone leaving group chat: the cache forgets them,
// and they lose their seat at the group's tables (every one it may hold,
// and the topic's table they last sat down at): out of a lobby, which passes to
// the next person when they ran it; out of a running game as with «Выйти
// из игры», a robot taking the seat and the group told.
func (b *belonging) gone(ctx context.Context, updateID int64, chat, user int64) error {
	b.cfg.Members.Forget(chat, user)
	var ids []string
	for n := 1; n <= b.limit(); n++ {
		ids = append(ids, record.TableID(chat, 0, n))
	}
	if id, err := b.store.Pointer(ctx, store.UserTableKey(user)); err == nil {
		if c, _, err := record.ParseID(id); err == nil && c == chat && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		_, _, err := b.transact(ctx, id, updateID, func(t *record.Table, ch *change) error {
			return b.unseat(t, ch, user)
		})
		if err != nil && !errors.Is(err, refusal.ErrNoChange) && !errors.Is(err, refusal.ErrDuplicate) {
			return refusal.Settle(err)
		}
	}
	return b.cupGone(ctx, updateID, chat, user) // out of the group's cup too (cups.go)
}

// unseat takes user's seat at t, who left its group.
func (b *belonging) unseat(t *record.Table, ch *change, user int64) error {
	seat := t.SeatOf(user)
	switch {
	case seat < 0:
		return refusal.ErrNoChange
	case t.Phase == record.PhaseLobby:
		leaveLobby(t, seat)
		return nil
	case t.Phase != record.PhasePlaying:
		return refusal.ErrNoChange
	}
	g, st, err := b.decode(t)
	if err != nil {
		return err
	}
	if !view.CanLeave(g) {
		return refusal.ErrNoChange // no robot to take the seat: the game plays on as it is
	}
	b.log.Info().Str("table", t.ID).Int64("user", user).Msg("a player left the group: a robot takes the seat")
	return b.leaving.leave(t, ch, g, st, seat)
}

// memberUser is the person a chat member is.
func memberUser(cm models.ChatMember) int64 {
	var u *models.User
	switch {
	case cm.Owner != nil:
		u = cm.Owner.User
	case cm.Administrator != nil:
		return cm.Administrator.User.ID
	case cm.Member != nil:
		u = cm.Member.User
	case cm.Restricted != nil:
		u = cm.Restricted.User
	case cm.Left != nil:
		u = cm.Left.User
	case cm.Banned != nil:
		u = cm.Banned.User
	}
	if u == nil {
		return 0
	}
	return u.ID
}
