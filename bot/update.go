package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/store"
)

// HandleUpdate applies one update durably. Bad input is answered and counts
// as handled; an error means the update must be delivered again (the store
// is unreachable, say), which is safe because applied updates are recorded
// with their change.
func (b *Bot) HandleUpdate(ctx context.Context, u *models.Update) error {
	switch {
	case u.CallbackQuery != nil:
		return b.onCallback(ctx, u.ID, u.CallbackQuery)
	case u.Message != nil:
		return b.onMessage(ctx, u.ID, u.Message)
	case u.MyChatMember != nil:
		return b.onMyChatMember(ctx, u.ID, u.MyChatMember)
	}
	return nil
}

// command is a parsed bot command: "/newgame@bot trickchef" → newgame, [trickchef].
type command struct {
	name string
	args []string
	// addressed is set when the command names this bot ("/cmd@ourbot"):
	// a name it does not know then gets an answer, not silence.
	addressed bool
}

// parseCommand recognises "/cmd", "/cmd@ourbot" and their arguments; a
// command addressed to another bot (or plain text) gives ok=false.
func parseCommand(text, username string) (command, bool) {
	if !strings.HasPrefix(text, "/") {
		return command{}, false
	}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return command{}, false
	}
	name, target, addressed := strings.Cut(fields[0][1:], "@")
	if addressed && !strings.EqualFold(target, username) {
		return command{}, false
	}
	if name == "" {
		return command{}, false
	}
	return command{name: strings.ToLower(name), args: fields[1:], addressed: addressed}, true
}

func isGroup(c models.Chat) bool {
	return c.Type == models.ChatTypeGroup || c.Type == models.ChatTypeSupergroup
}

// userName is how the bot calls a user in the group.
func userName(u *models.User) string {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.Username
	}
	if r := []rune(name); len(r) > 32 {
		name = string(r[:32])
	}
	return name
}

func (b *Bot) onMessage(ctx context.Context, updateID int64, m *models.Message) error {
	if m.MigrateToChatID != 0 {
		return b.migrate(ctx, m.Chat.ID, m.MigrateToChatID)
	}
	if m.From == nil {
		return nil
	}
	cmd, ok := parseCommand(m.Text, b.cfg.Username)
	if !ok {
		if m.Chat.Type == models.ChatTypePrivate && strings.TrimSpace(m.Text) != "" {
			// Plain text in private: say what the bot understands.
			return b.reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: b.loc(b.userLang(m.From)).T("command.hint_private")})
		}
		return nil
	}
	if isGroup(m.Chat) {
		return b.onGroupCommand(ctx, updateID, m, cmd)
	}
	if m.Chat.Type == models.ChatTypePrivate {
		return b.onPrivateCommand(ctx, updateID, m, cmd)
	}
	return nil
}

// onMyChatMember closes the table of a group the bot was removed from.
func (b *Bot) onMyChatMember(ctx context.Context, updateID int64, u *models.ChatMemberUpdated) error {
	if !isGroup(u.Chat) {
		return nil
	}
	switch u.NewChatMember.Type {
	case models.ChatMemberTypeLeft, models.ChatMemberTypeBanned:
	default:
		return nil
	}
	_, _, err := b.transact(ctx, record.ID(u.Chat.ID, 0), updateID, func(t *record.Table, ch *change) error {
		if t.Phase == record.PhaseIdle {
			return errNoChange
		}
		b.closeTable(t)
		return nil
	})
	if errors.Is(err, errNoChange) || errors.Is(err, errDuplicate) {
		return nil
	}
	return err
}

// closeTable ends whatever the table was doing without a result.
func (b *Bot) closeTable(t *record.Table) {
	t.Phase = record.PhaseIdle
	t.StopTimers()
	t.StopAsked = 0
}

// reply queues answers to an update in a private chat, through that
// chat's own outbox (see queue).
func (b *Bot) reply(ctx context.Context, updateID, chatID int64, msgs ...adapter.Message) error {
	out := make([]outMsg, len(msgs))
	for i, m := range msgs {
		out[i] = outMsg{ChatID: chatID, Message: m, Reply: true}
	}
	return b.queue(ctx, record.ID(chatID, 0), updateID, out...)
}

// queue hands what an update has to say, and that changes no table, to
// the delivery worker: it joins table id's outbox, recorded with the
// update (a redelivered update is not answered twice), and the handler
// returns at once. A private chat's outbox is its own table's, which holds
// nothing else until a game is played there.
func (b *Bot) queue(ctx context.Context, id string, updateID int64, msgs ...outMsg) error {
	c := store.Change{OnlyQueue: true, UpdateID: updateID, WakeAt: b.now()}
	for _, m := range msgs {
		raw, err := m.encode()
		if err != nil {
			return err
		}
		c.Outbox = append(c.Outbox, raw)
	}
	if _, err := b.store.Commit(ctx, id, c); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return fmt.Errorf("queue %s: %w", id, err)
	}
	b.poke()
	return nil
}

func noPreview() *models.LinkPreviewOptions {
	disabled := true
	return &models.LinkPreviewOptions{IsDisabled: &disabled}
}
