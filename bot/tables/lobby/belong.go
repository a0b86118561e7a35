package lobby

import (
	"context"
	"errors"
	"slices"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/play"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// What the tables do when Telegram says who is in a group: when someone
// left (a chat_member update, sent where the bot is an administrator; a
// left_chat_member service message), the cached yes goes at once, and so
// does their seat: out of the lobby, and out of a running game as if they
// had pressed «Выйти из игры» (a robot plays on for them).

// Belonging is what the tables do when Telegram says who is in a group.
type Belonging struct {
	members *members.Cache
	store   LastTable
	tx      *txn.Txn
	views   *view.Renderer
	group   *Group
	leaving *play.Leaving
	log     zerolog.Logger
	// then follows someone leaving a group once their seats are taken,
	// for each topic looked at (own: its table 1): the topic's cup
	// (bot/tables/cupplay); nil: nothing.
	then func(ctx context.Context, updateID int64, own string, user int64) error
}

// ThenGone sets what follows someone leaving a group once their seats
// are taken (the cup of each topic looked at: the group's own, and the
// topic they last sat down in).
func (b *Belonging) ThenGone(f func(ctx context.Context, updateID int64, own string, user int64) error) {
	b.then = f
}

// LastTable reads a person's pointer to the table they last sat down at.
type LastTable interface {
	Pointer(ctx context.Context, key string) (string, error)
}

// NewBelonging builds it: members is the cache of who is in a group, st
// holds a person's last table.
func NewBelonging(mc *members.Cache, st LastTable, tx *txn.Txn, views *view.Renderer, group *Group, leaving *play.Leaving, log zerolog.Logger) *Belonging {
	return &Belonging{members: mc, store: st, tx: tx, views: views, group: group, leaving: leaving, log: log}
}

// OnChatMember reads a chat_member update (the bot administers the group):
// someone left or was removed, or joined.
func (b *Belonging) OnChatMember(ctx context.Context, updateID int64, u *models.ChatMemberUpdated) error {
	if !IsGroup(u.Chat) {
		return nil
	}
	user := memberUser(u.NewChatMember)
	if user == 0 {
		return nil
	}
	if members.IsMember(&u.NewChatMember) {
		b.members.Forget(u.Chat.ID, user) // a cached no goes: they may sit down at once
		return nil
	}
	return b.gone(ctx, updateID, u.Chat.ID, user)
}

// OnServiceMessage reads a group's service message about its members (a
// group shows them where Telegram does not hide them); false when m is none.
func (b *Belonging) OnServiceMessage(ctx context.Context, updateID int64, m *models.Message) (bool, error) {
	switch {
	case !IsGroup(m.Chat):
		return false, nil
	case m.LeftChatMember != nil:
		return true, b.gone(ctx, updateID, m.Chat.ID, m.LeftChatMember.ID)
	case len(m.NewChatMembers) > 0:
		for _, u := range m.NewChatMembers {
			b.members.Forget(m.Chat.ID, u.ID)
		}
		return true, nil
	}
	return false, nil
}

// gone is what follows someone leaving group chat: the cache forgets them,
// and they lose their seat at the group's tables (every one it may hold,
// and those of the topic they last sat down in): out of a lobby, which passes to
// the next person when they ran it; out of a running game as with «Выйти
// из игры», a robot taking the seat and the group told. Every table the
// chat can hold is looked at, not only today's limit: a game opened
// before the limit was lowered plays on, and a stranger keeps no seat
// there.
func (b *Belonging) gone(ctx context.Context, updateID int64, chat, user int64) error {
	b.members.Forget(chat, user)
	var ids []string
	for n := 1; n <= record.MaxTables; n++ {
		ids = append(ids, record.TableID(chat, 0, n))
	}
	if id, err := b.store.Pointer(ctx, store.UserTableKey(user)); err == nil {
		// The topic they last sat down in: every table of it, as they may
		// play at one and wait in another's lobby.
		if c, _, err := record.ParseID(id); err == nil && c == chat {
			for n := 1; n <= record.MaxTables; n++ {
				if sib := record.Sibling(id, n); sib != "" && !slices.Contains(ids, sib) {
					ids = append(ids, sib)
				}
			}
		}
	}
	for _, id := range ids {
		if t, _, err := b.tx.Load(ctx, id); err == nil && (t.SeatOf(user) < 0 || b.group.CupsOwn(t)) {
			continue // a read is cheaper than a change that changes nothing; a cup unseats its own
		}
		_, _, err := b.tx.Transact(ctx, id, updateID, func(t *record.Table, ch *txn.Change) error {
			return b.unseat(t, ch, user)
		})
		if err != nil && !errors.Is(err, refusal.ErrNoChange) && !errors.Is(err, refusal.ErrDuplicate) {
			return refusal.Settle(err)
		}
	}
	if b.then == nil {
		return nil
	}
	// Out of the cups too: the group's, and the one of the topic they
	// last sat down in (its round's tables are its cup's to unseat).
	var owns []string
	for _, id := range ids {
		if own := record.Sibling(id, 1); own != "" && !slices.Contains(owns, own) {
			owns = append(owns, own)
		}
	}
	for _, own := range owns {
		if err := b.then(ctx, updateID, own, user); err != nil {
			return err
		}
	}
	return nil
}

// unseat takes user's seat at t, who left its group.
func (b *Belonging) unseat(t *record.Table, ch *txn.Change, user int64) error {
	seat := t.SeatOf(user)
	switch {
	case seat < 0 || b.group.CupsOwn(t):
		return refusal.ErrNoChange
	case t.Phase == record.PhaseLobby:
		LeaveLobby(t, seat)
		return nil
	case t.Phase != record.PhasePlaying:
		return refusal.ErrNoChange
	}
	g, st, err := txn.Decode(b.views, t)
	if err != nil {
		return err
	}
	if !view.CanLeave(g) {
		return refusal.ErrNoChange // no robot to take the seat: the game plays on as it is
	}
	b.log.Info().Str("table", t.ID).Int64("user", user).Msg("a player left the group: a robot takes the seat")
	return b.leaving.Leave(t, ch, g, st, seat)
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

// IsGroup reports whether c is a group or a supergroup.
func IsGroup(c models.Chat) bool {
	return c.Type == models.ChatTypeGroup || c.Type == models.ChatTypeSupergroup
}
