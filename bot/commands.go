package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// commandNames are the commands in the menu, in menu order.
func commandNames() []string {
	return []string{"newgame", "table", "stop", "rules", "help", "lang", "start"}
}

// registerCommands publishes the command menu in every language.
func (b *Bot) registerCommands(ctx context.Context) error {
	for _, lang := range []string{"", "ru", "en"} {
		l := b.loc(lang)
		if lang == "" {
			l = b.loc(b.cfg.DefaultLang)
		}
		var cmds []models.BotCommand
		for _, name := range commandNames() {
			cmds = append(cmds, models.BotCommand{Command: name, Description: l.T("commands." + name)})
		}
		_, err := b.tg.SetMyCommands(ctx, &tgbot.SetMyCommandsParams{Commands: cmds, LanguageCode: lang})
		if err != nil {
			return fmt.Errorf("setMyCommands %q: %w", lang, err)
		}
	}
	return nil
}

// threadOf is the forum topic a message belongs to (0 outside topics).
func threadOf(m *models.Message) int {
	if m.Chat.IsForum && m.IsTopicMessage {
		return m.MessageThreadID
	}
	return 0
}

// post queues a message to the table's chat (and topic).
func (ch *change) post(t *Table, m message) {
	ch.outbox = append(ch.outbox, outMsg{ChatID: t.ChatID, Thread: t.Thread, message: m})
}

func (b *Bot) onGroupCommand(ctx context.Context, updateID int64, m *models.Message, cmd command) error {
	id := tableID(m.Chat.ID, threadOf(m))
	var fn func(t *Table, ch *change) error
	switch cmd.name {
	case "newgame":
		fn = func(t *Table, ch *change) error { return b.newGame(ctx, t, ch, m, cmd) }
	case "stop":
		admin := b.isAdmin(ctx, m.Chat.ID, m.From.ID)
		fn = func(t *Table, ch *change) error { return b.askStop(t, ch, m.From.ID, admin) }
	case "table":
		fn = func(t *Table, ch *change) error {
			if t.Phase == PhaseIdle {
				ch.post(t, message{Text: b.loc(t.Lang).T("table.none")})
				return nil
			}
			// Forget the old message: the worker posts the view anew at the bottom.
			return b.store.DeleteMessage(ctx, t.ID, tableView(t.GameNo))
		}
	case "rules":
		fn = func(t *Table, ch *change) error {
			ch.post(t, message{Text: b.loc(t.Lang).T(b.rulesKey(t, cmd.args))})
			return nil
		}
	case "help", "start":
		fn = func(t *Table, ch *change) error {
			ch.post(t, message{Text: b.loc(t.Lang).T("help.text")})
			return nil
		}
	case "lang":
		fn = func(t *Table, ch *change) error {
			t.Lang = nextLang(t.Lang, cmd.args)
			ch.post(t, message{Text: b.loc(t.Lang).T("lang.set")})
			return nil
		}
	default:
		return nil // maybe another bot's command
	}
	_, _, err := b.update(ctx, id, updateID, func(t *Table, ch *change) error {
		if m.Chat.Title != "" {
			t.Title = m.Chat.Title
		}
		return fn(t, ch)
	})
	return b.settle(err)
}

// settle turns the outcome of an update into the handler's error: bad
// input was answered, a duplicate was applied before; only real failures
// (worth a redelivery) remain.
func (b *Bot) settle(err error) error {
	var r *refusal
	if err == nil || errors.Is(err, errDuplicate) || errors.Is(err, errNoChange) || errors.As(err, &r) {
		return nil
	}
	return err
}

// rulesKey picks the rules to show: the game named after /rules, else the
// table's game, else the first game.
func (b *Bot) rulesKey(t *Table, args []string) string {
	if len(args) > 0 {
		if k, ok := b.games.find(strings.Join(args, " ")); ok {
			return k.Rules()
		}
	}
	if t != nil {
		if k, ok := b.games.get(t.Kind); ok {
			return k.Rules()
		}
	}
	return b.games.kinds[0].Rules()
}

// nextLang picks the language named in args, or the other one.
func nextLang(cur string, args []string) string {
	if len(args) > 0 {
		switch strings.ToLower(args[0]) {
		case "ru", "рус", "русский":
			return "ru"
		case "en", "eng", "english":
			return "en"
		}
	}
	if cur == "ru" {
		return "en"
	}
	return "ru"
}

// isAdmin asks Telegram whether a user administers the group.
func (b *Bot) isAdmin(ctx context.Context, chatID, userID int64) bool {
	cm, err := b.tg.GetChatMember(ctx, &tgbot.GetChatMemberParams{ChatID: chatID, UserID: userID})
	if err != nil {
		b.log.Warn().Err(err).Int64("chat", chatID).Msg("getChatMember failed")
		return false
	}
	return cm.Type == models.ChatMemberTypeOwner || cm.Type == models.ChatMemberTypeAdministrator
}

func (b *Bot) onPrivateCommand(ctx context.Context, m *models.Message, cmd command) error {
	l := b.loc(langOf(m.From, b.cfg.DefaultLang))
	switch cmd.name {
	case "start":
		return b.onStart(ctx, m, cmd, l)
	case "help":
		b.reply(ctx, m.Chat.ID, message{Text: l.T("help.text")})
	case "rules":
		b.reply(ctx, m.Chat.ID, message{Text: l.T(b.rulesKey(nil, cmd.args))})
	case "newgame", "stop", "table", "lang":
		b.reply(ctx, m.Chat.ID, message{Text: l.T("command.group_only")})
	default:
		b.reply(ctx, m.Chat.ID, message{Text: l.T("command.unknown")})
	}
	return nil
}

// langOf picks a language for a user from their Telegram client.
func langOf(u *models.User, def string) string {
	switch {
	case u == nil || u.LanguageCode == "":
		return def
	case strings.HasPrefix(u.LanguageCode, "ru"), strings.HasPrefix(u.LanguageCode, "uk"),
		strings.HasPrefix(u.LanguageCode, "be"), strings.HasPrefix(u.LanguageCode, "kk"):
		return "ru"
	}
	return "en"
}

// joinPrefix starts a deep-link payload that seats the user at a table.
const joinPrefix = "j"

// deepLink opens the private chat with the bot and sends /start payload.
func (b *Bot) deepLink(payload string) string {
	return "https://t.me/" + b.cfg.Username + "?start=" + payload
}

func startedKey(user int64) string { return fmt.Sprintf("started:%d", user) }
func userKey(user int64) string    { return fmt.Sprintf("user:%d", user) }

// onStart greets a user in private, seats them when they came through a
// table's deep link, and brings their hand back when they are in a game.
func (b *Bot) onStart(ctx context.Context, m *models.Message, cmd command, l loc) error {
	user := m.From.ID
	if err := b.store.SetPointer(ctx, startedKey(user), "1"); err != nil {
		return err
	}
	if len(cmd.args) > 0 && strings.HasPrefix(cmd.args[0], joinPrefix) {
		id := strings.TrimPrefix(cmd.args[0], joinPrefix)
		if _, _, err := parseTableID(id); err != nil {
			b.reply(ctx, m.Chat.ID, message{Text: l.T("start.bad_link")})
			return nil
		}
		t, _, err := b.update(ctx, id, 0, func(t *Table, ch *change) error {
			return b.joinFromLink(t, m.From)
		})
		var r *refusal
		switch {
		case errors.As(err, &r):
			b.reply(ctx, m.Chat.ID, message{Text: l.T(r.key, r.args...)})
			return nil
		case err != nil:
			return err
		}
		if t.Phase == PhaseLobby {
			b.reply(ctx, m.Chat.ID, message{Text: l.T("start.joined", "Title", esc(t.Title))})
		}
		return nil
	}
	// A player coming back: show their hand again at the bottom of the chat.
	id, err := b.store.Pointer(ctx, userKey(user))
	if err == nil {
		t, _, err := b.load(ctx, id)
		if err == nil && t.Phase == PhasePlaying && t.SeatOf(user) >= 0 {
			return b.settle(b.reachable(ctx, id, user, true))
		}
	}
	b.reply(ctx, m.Chat.ID, message{Text: l.T("start.greeting")})
	return nil
}

// reachable records that a user can (again) be written to, and posts their
// hand anew when repost is set.
func (b *Bot) reachable(ctx context.Context, id string, user int64, repost bool) error {
	_, _, err := b.update(ctx, id, 0, func(t *Table, ch *change) error {
		seat := t.SeatOf(user)
		if seat < 0 {
			return errNoChange
		}
		t.Seats[seat].Unreachable = false
		if repost && t.Game != nil {
			return b.store.DeleteMessage(ctx, t.ID, handView(t.GameNo, seat))
		}
		return nil
	})
	return err
}
