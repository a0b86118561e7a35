package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
)

// commandNames are the commands in the menu, in menu order.
func commandNames() []string {
	return []string{"newgame", "table", "stop", "stats", "top", "history", "rules", "help", "lang", "forgetme", "start"}
}

// registerCommands publishes the command menu in every language.
func (b *Bot) registerCommands(ctx context.Context) error {
	for _, lang := range append([]string{""}, b.tr.Langs()...) {
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
func (ch *change) post(t *Table, m Message) {
	ch.outbox = append(ch.outbox, outMsg{ChatID: t.ChatID, Thread: t.Thread, Message: m})
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
				ch.post(t, Message{Text: b.loc(t.Lang).T("table.none")})
				return nil
			}
			// The worker posts the view anew at the bottom; the old message
			// says where the table went.
			t.repost(tableView(t.GameNo))
			return nil
		}
	case "rules":
		fn = func(t *Table, ch *change) error {
			ch.post(t, b.rulesPage(b.loc(t.Lang), t.ID, b.rulesGame(t, cmd.args), 0))
			return nil
		}
	case "help", "start":
		fn = func(t *Table, ch *change) error {
			ch.post(t, Message{Text: b.loc(t.Lang).T("help.text")})
			return nil
		}
	case "stats", "top", "history", "forgetme":
		fn = func(t *Table, ch *change) error { return b.resultsCommand(t, ch, m, cmd) }
	case "lang":
		fn = func(t *Table, ch *change) error {
			t.Lang = b.nextLang(t.Lang, cmd.args)
			ch.post(t, Message{Text: b.loc(t.Lang).T("lang.set")})
			return nil
		}
	default:
		return nil // maybe another bot's command
	}
	_, _, err := b.update(ctx, id, updateID, func(t *Table, ch *change) error {
		if m.Chat.Title != "" {
			t.Title = m.Chat.Title
		}
		// What a command posts answers it: a reply, which goes before the
		// group's announcements and table edits (budget.go).
		n := len(ch.outbox)
		err := fn(t, ch)
		for i := n; i < len(ch.outbox); i++ {
			ch.outbox[i].Reply = true
		}
		return err
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

// rulesGame picks the game whose rules to show: the one named after
// /rules, else the table's game; nil means the list of games.
func (b *Bot) rulesGame(t *Table, args []string) Game {
	if len(args) > 0 {
		if g, ok := b.games.find(strings.Join(args, " ")); ok {
			return g
		}
		return nil
	}
	if t != nil {
		if g, ok := b.games.get(t.Kind); ok {
			return g
		}
	}
	if len(b.games.games) == 1 {
		return b.games.games[0]
	}
	return nil
}

// nextLang picks the language named in args (a code or a Telegram
// language_code), or the next one in the catalog's list.
func (b *Bot) nextLang(cur string, args []string) string {
	langs := b.tr.Langs()
	if len(args) > 0 {
		switch w := strings.ToLower(args[0]); w {
		case "рус", "русский":
			return locales.Russian
		case "eng", "english":
			return locales.English
		default:
			if n := locales.Normalize(w); slices.Contains(langs, n) {
				return n
			}
		}
	}
	return langs[(slices.Index(langs, cur)+1)%len(langs)]
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
	l := b.loc(b.userLang(m.From))
	switch cmd.name {
	case "start":
		return b.onStart(ctx, m, cmd, l)
	case "help":
		b.reply(ctx, m.Chat.ID, Message{Text: l.T("help.text")})
	case "rules":
		b.reply(ctx, m.Chat.ID, b.rulesPage(l, tableID(m.Chat.ID, 0), b.rulesGame(nil, cmd.args), 0))
	case "stats":
		return b.privateStats(ctx, m, l)
	case "forgetme":
		b.askForget(ctx, m, l)
	case "newgame", "stop", "table", "lang", "top", "history":
		b.reply(ctx, m.Chat.ID, Message{Text: l.T("command.group_only")})
	default:
		b.reply(ctx, m.Chat.ID, Message{Text: l.T("command.unknown")})
	}
	return nil
}

// userLang picks a language for a user from their Telegram client.
func (b *Bot) userLang(u *models.User) string {
	if u != nil {
		if lang := locales.Normalize(u.LanguageCode); lang != "" {
			return lang
		}
	}
	return b.cfg.DefaultLang
}

// joinPrefix starts a deep-link payload that seats the user at a table.
const joinPrefix = "j"

// deepLink opens the private chat with the bot and sends /start payload.
func (b *Bot) deepLink(payload string) string {
	return "https://t.me/" + b.cfg.Username + "?start=" + payload
}

// onStart greets a user in private, seats them when they came through a
// table's deep link, and brings their hand back when they are in a game.
func (b *Bot) onStart(ctx context.Context, m *models.Message, cmd command, l Loc) error {
	user := m.From.ID
	if err := b.store.SetPointer(ctx, store.StartedKey(user), "1"); err != nil {
		return err
	}
	if len(cmd.args) > 0 && strings.HasPrefix(cmd.args[0], joinPrefix) {
		id := strings.TrimPrefix(cmd.args[0], joinPrefix)
		if _, _, err := parseTableID(id); err != nil {
			b.reply(ctx, m.Chat.ID, Message{Text: l.T("start.bad_link")})
			return nil
		}
		t, _, err := b.update(ctx, id, 0, func(t *Table, ch *change) error {
			return b.joinFromLink(t, m.From)
		})
		var r *refusal
		switch {
		case errors.As(err, &r):
			b.reply(ctx, m.Chat.ID, Message{Text: l.T(r.key, r.args...)})
			return nil
		case err != nil:
			return err
		}
		if t.Phase == PhaseLobby {
			b.reply(ctx, m.Chat.ID, Message{Text: l.T("start.joined", "Title", Esc(t.Title))})
		}
		return nil
	}
	// A player coming back: show their hand again at the bottom of the chat.
	id, err := b.store.Pointer(ctx, store.UserTableKey(user))
	if err == nil {
		t, _, err := b.load(ctx, id)
		if err == nil && t.Phase == PhasePlaying && t.SeatOf(user) >= 0 {
			return b.settle(b.reachable(ctx, id, user, true))
		}
	}
	b.reply(ctx, m.Chat.ID, Message{Text: l.T("start.greeting")})
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
			t.repost(handView(t.GameNo, seat))
		}
		return nil
	})
	return err
}
