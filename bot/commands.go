package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
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

func (b *Bot) onGroupCommand(ctx context.Context, updateID int64, m *models.Message, cmd command) error {
	id := record.ID(m.Chat.ID, threadOf(m))
	var fn func(t *record.Table, ch *change) error
	switch cmd.name {
	case "newgame":
		fn = func(t *record.Table, ch *change) error { return b.newGame(ctx, t, ch, m, cmd) }
	case "stop":
		admin := b.isAdmin(ctx, m.Chat.ID, m.From.ID)
		fn = func(t *record.Table, ch *change) error { return b.askStop(t, ch, m.From.ID, admin) }
	case "table":
		fn = func(t *record.Table, ch *change) error {
			if t.Phase == record.PhaseIdle {
				ch.post(t, adapter.Message{Text: b.loc(t.Lang).T("table.none")})
				return nil
			}
			// The worker posts the view anew at the bottom; the old message
			// says where the table went.
			t.Repost(tableView(t.GameNo))
			return nil
		}
	case "rules":
		fn = func(t *record.Table, ch *change) error {
			ch.post(t, b.rulesPageAt(b.loc(t.Lang), t.ID, b.rulesGame(t, cmd.args), 0, b.turnTime(t)))
			return nil
		}
	case "help", "start":
		fn = func(t *record.Table, ch *change) error {
			ch.post(t, b.helpMessage(b.loc(t.Lang), t.ID, true))
			return nil
		}
	case "stats", "top", "history", "forgetme":
		fn = func(t *record.Table, ch *change) error { return b.resultsCommand(t, ch, m, cmd) }
	case "lang":
		if len(cmd.args) == 0 {
			fn = func(t *record.Table, ch *change) error {
				ch.post(t, b.langChoice(b.loc(t.Lang), t.ID))
				return nil
			}
			break
		}
		admin := b.isAdmin(ctx, m.Chat.ID, m.From.ID)
		fn = func(t *record.Table, ch *change) error {
			lang, ok := b.langNamed(cmd.args)
			switch {
			case !ok:
				ch.post(t, b.langChoice(b.loc(t.Lang), t.ID))
			case !mayChangeLang(t, m.From.ID, admin):
				ch.post(t, adapter.Message{Text: b.loc(t.Lang).T(langRefusal(t))})
			default:
				t.Lang = lang
				ch.post(t, adapter.Message{Text: b.loc(t.Lang).T("lang.set")})
			}
			return nil
		}
	default:
		if !cmd.addressed {
			return nil // maybe another bot's command
		}
		fn = func(t *record.Table, ch *change) error {
			ch.post(t, adapter.Message{Text: b.loc(t.Lang).T("command.unknown")})
			return nil
		}
	}
	_, _, err := b.transact(ctx, id, updateID, func(t *record.Table, ch *change) error {
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

// rulesGame picks the game whose rules to show: the one named after
// /rules, else the table's game; nil means the list of games.
func (b *Bot) rulesGame(t *record.Table, args []string) adapter.Game {
	if len(args) > 0 {
		if g, ok := b.games.find(strings.Join(args, " ")); ok {
			return g
		}
		return nil
	}
	if t != nil {
		if g, ok := b.games.get(t.GameID); ok {
			return g
		}
	}
	if len(b.games.games) == 1 {
		return b.games.games[0]
	}
	return nil
}

// langNamed is the catalog's language that args name (a code, a Telegram
// language_code or the language's own name); ok=false when they name none.
func (b *Bot) langNamed(args []string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	w := strings.ToLower(args[0])
	if i := strings.IndexAny(w, "-_"); i > 0 {
		w = w[:i] // a Telegram language_code: "en-GB"
	}
	switch w {
	case "рус", "русский":
		w = locales.Russian
	case "eng", "english":
		w = locales.English
	}
	return w, slices.Contains(b.tr.Langs(), w)
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

func (b *Bot) onPrivateCommand(ctx context.Context, updateID int64, m *models.Message, cmd command) error {
	l := b.loc(b.userLang(m.From))
	switch cmd.name {
	case "start":
		return b.onStart(ctx, updateID, m, cmd, l)
	case "help":
		return b.reply(ctx, updateID, m.Chat.ID, b.helpMessage(l, record.ID(m.Chat.ID, 0), false))
	case "rules":
		return b.reply(ctx, updateID, m.Chat.ID, b.rulesPage(l, record.ID(m.Chat.ID, 0), b.rulesGame(nil, cmd.args), 0))
	case "stats":
		return b.privateStats(ctx, updateID, m, l)
	case "forgetme":
		return b.askForget(ctx, updateID, m, l)
	case "newgame", "stop", "table":
		return b.onPracticeCommand(ctx, updateID, m, cmd)
	case "lang", "top", "history":
		return b.reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T("command.group_only")})
	default:
		return b.reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T("command.unknown")})
	}
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

// joinPrefix starts a deep-link payload that seats the user at a table;
// rulesPrefix one that shows a game's rules (the lobby's link).
const (
	joinPrefix  = "j"
	rulesPrefix = "r"
)

// deepLink opens the private chat with the bot and sends /start payload.
func (b *Bot) deepLink(payload string) string {
	return "https://t.me/" + b.cfg.Username + "?start=" + payload
}

// onStart greets a user in private, seats them when they came through a
// table's deep link, shows a game's rules through the lobby's link, and
// otherwise finds the table they sit at: their hand comes back when they
// are in a game, and a lobby that could not write to them learns it can.
func (b *Bot) onStart(ctx context.Context, updateID int64, m *models.Message, cmd command, l adapter.Loc) error {
	user := m.From.ID
	if err := b.store.SetPointer(ctx, store.StartedKey(user), "1"); err != nil {
		return err
	}
	if len(cmd.args) > 0 && strings.HasPrefix(cmd.args[0], joinPrefix) {
		id := strings.TrimPrefix(cmd.args[0], joinPrefix)
		if _, _, err := record.ParseID(id); err != nil {
			return b.reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T("start.bad_link")})
		}
		t, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
			return b.joinFromLink(t, m.From)
		})
		var r *refusal
		switch {
		case errors.As(err, &r):
			return b.reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T(r.key, r.args...)})
		case err != nil:
			return err
		}
		if t.Phase == record.PhaseLobby {
			return b.reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T("start.joined", "Title", adapter.Esc(t.Title))})
		}
		return nil
	}
	if len(cmd.args) > 0 && strings.HasPrefix(cmd.args[0], rulesPrefix) {
		if g, ok := b.games.get(strings.TrimPrefix(cmd.args[0], rulesPrefix)); ok {
			if err := b.reply(ctx, updateID, m.Chat.ID, b.rulesPage(l, record.ID(m.Chat.ID, 0), g, 0)); err != nil {
				return err
			}
			if t, ok := b.seatedTable(ctx, user); ok {
				return b.settle(b.reachable(ctx, t.ID, user, false))
			}
			return nil
		}
	}
	t, ok := b.seatedTable(ctx, user)
	switch {
	case ok && t.Phase == record.PhasePlaying:
		// A player coming back: show their hand again at the bottom of the chat.
		return b.settle(b.reachable(ctx, t.ID, user, true))
	case ok && t.Phase == record.PhaseLobby:
		if err := b.settle(b.reachable(ctx, t.ID, user, false)); err != nil {
			return err
		}
		return b.reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T("start.joined", "Title", adapter.Esc(t.Title))})
	}
	return b.reply(ctx, updateID, m.Chat.ID, b.greeting(l))
}

// seatedTable is the table the user's pointer names, when they sit at it
// and it is open or playing.
func (b *Bot) seatedTable(ctx context.Context, user int64) (*record.Table, bool) {
	id, err := b.store.Pointer(ctx, store.UserTableKey(user))
	if err != nil {
		return nil, false
	}
	t, _, err := b.load(ctx, id)
	if err != nil || t.Phase == record.PhaseIdle || t.SeatOf(user) < 0 {
		return nil, false
	}
	return t, true
}

// reachable records that a user can (again) be written to, and posts their
// hand anew when repost is set.
func (b *Bot) reachable(ctx context.Context, id string, user int64, repost bool) error {
	_, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		seat := t.SeatOf(user)
		if seat < 0 {
			return errNoChange
		}
		if !t.Seats[seat].Unreachable && !repost {
			return errNoChange
		}
		t.Seats[seat].Unreachable = false
		if repost && t.State != nil {
			t.Repost(handView(t.GameNo, seat))
		}
		return nil
	})
	return err
}
