package tables

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
)

// A command is one declaration (commandList): its name, what it does in a
// group and in a private chat, and whether /help lists it there. The menu
// Telegram shows (setMyCommands), both /help texts and the router are made
// from the list, so a command added there is offered, explained and
// routed; its texts are the catalog's commands.<name>.* (a test checks
// that every declared command has them and nothing else does).
type command struct {
	name string
	// group is what the command does in a group: the change it makes to
	// the group's table (its posts are replies). nil: it does nothing
	// there.
	group func(ctx context.Context, r request) func(t *record.Table, ch *change) error
	// private is what it does in a private chat. nil: it works in groups
	// only, which the person is told.
	private func(ctx context.Context, r request, l adapter.Loc) error
	// differs marks a command that does something else in private than in
	// a group: private /help then names what it does in a group too.
	differs bool
	// quiet keeps the command out of /help (it is still in the menu).
	quiet bool
}

// commands routes the chat's messages: a command to its declaration, a
// group's upgrade to migrate, plain text in private to a hint.
type commands struct {
	*core
	lobby    *lobby
	menus    *menus
	practice *practice
	people   *people
	standing *standing
	reviews  *reviewing
	belong   *belonging
}

// list is every command, in the order of the menu and of /help.
func (c *commands) list() []command {
	return []command{
		{name: "newgame", group: c.groupNewGame, private: c.practice.command, differs: true},
		{name: "table", group: c.groupTable, private: c.practice.command, differs: true},
		{name: "stop", group: c.groupStop, private: c.practice.command, differs: true},
		{name: "rules", group: c.groupRules, private: c.privateRules},
		{name: "stats", group: c.standing.groupCommand, private: c.standing.privateStats},
		{name: "top", group: c.standing.groupCommand},
		{name: "season", group: c.standing.groupCommand, private: c.standing.privateSeason, differs: true},
		{name: "cup", group: c.groupCup}, // cups.go
		{name: "history", group: c.standing.groupCommand, private: c.reviews.privateHistory, differs: true},
		{name: "lang", group: c.groupLang},
		{name: "help", group: c.groupHelp, private: c.privateHelp},
		{name: "forgetme", group: c.standing.groupCommand, private: c.standing.askForget},
		{name: "start", group: c.groupHelp, private: c.people.onStart, quiet: true},
	}
}

// find is the declared command named name.
func (c *commands) find(name string) (command, bool) {
	for _, cmd := range c.list() {
		if cmd.name == name {
			return cmd, true
		}
	}
	return command{}, false
}

// init learns the bot's username (unless configured) and publishes the
// command menu in every language.
func (c *commands) init(ctx context.Context) error {
	if c.views.Username() == "" {
		me, err := c.tg.GetMe(ctx)
		if err != nil {
			return fmt.Errorf("getMe: %w", err)
		}
		c.views.SetUsername(me.Username)
	}
	for _, lang := range append([]string{""}, c.views.Langs()...) {
		l := c.loc(lang)
		if lang == "" {
			l = c.loc(c.cfg.DefaultLang)
		}
		var cmds []models.BotCommand
		for _, cmd := range c.list() {
			cmds = append(cmds, models.BotCommand{Command: cmd.name, Description: l.T("commands." + cmd.name + ".menu")})
		}
		if _, err := c.tg.SetMyCommands(ctx, &tgbot.SetMyCommandsParams{Commands: cmds, LanguageCode: lang}); err != nil {
			return fmt.Errorf("setMyCommands %q: %w", lang, err)
		}
	}
	return nil
}

// groupHelpLines are the commands /help lists in a group: «/newgame —
// открыть новый стол в этой группе», one a line.
func (c *commands) groupHelpLines(l adapter.Loc) string {
	var lines []string
	for _, cmd := range c.list() {
		if cmd.group != nil && !cmd.quiet {
			lines = append(lines, "/"+cmd.name+" — "+l.T("commands."+cmd.name+".group"))
		}
	}
	return strings.Join(lines, "\n")
}

// privateHelpLines are the commands /help lists in private: those that
// work there, one a line, and those that work (or do something else) in
// a group, on one line.
func (c *commands) privateHelpLines(l adapter.Loc) (here, inGroups string) {
	var lines, group []string
	for _, cmd := range c.list() {
		if cmd.quiet {
			continue
		}
		if cmd.private != nil {
			lines = append(lines, "/"+cmd.name+" — "+l.T("commands."+cmd.name+".private"))
		}
		if cmd.group != nil && (cmd.private == nil || cmd.differs) {
			group = append(group, "/"+cmd.name+" — "+l.T("commands."+cmd.name+".elsewhere"))
		}
	}
	return strings.Join(lines, "\n"), strings.Join(group, ", ")
}

// parseCommand recognises "/cmd", "/cmd@ourbot" and their arguments; a
// command addressed to another bot (or plain text) gives ok=false.
func parseCommand(text, username string) (request, bool) {
	if !strings.HasPrefix(text, "/") {
		return request{}, false
	}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return request{}, false
	}
	name, target, addressed := strings.Cut(fields[0][1:], "@")
	if addressed && !strings.EqualFold(target, username) {
		return request{}, false
	}
	if name == "" {
		return request{}, false
	}
	return request{name: strings.ToLower(name), args: fields[1:], addressed: addressed}, true
}

func isGroup(c models.Chat) bool {
	return c.Type == models.ChatTypeGroup || c.Type == models.ChatTypeSupergroup
}

// threadOf is the forum topic a message belongs to (0 outside topics).
func threadOf(m *models.Message) int {
	if m.Chat.IsForum && m.IsTopicMessage {
		return m.MessageThreadID
	}
	return 0
}

func (c *commands) onMessage(ctx context.Context, updateID int64, m *models.Message) error {
	if m.MigrateToChatID != 0 {
		return c.migrate(ctx, m.Chat.ID, m.MigrateToChatID)
	}
	if ok, err := c.belong.onServiceMessage(ctx, updateID, m); ok {
		return err
	}
	if m.From == nil {
		return nil
	}
	r, ok := parseCommand(m.Text, c.views.Username())
	if !ok {
		if m.Chat.Type == models.ChatTypePrivate && strings.TrimSpace(m.Text) != "" {
			// Plain text in private: say what the bot understands.
			return c.reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: c.loc(c.userLang(m.From)).T("command.hint_private")})
		}
		return nil
	}
	r.updateID, r.msg = updateID, m
	switch {
	case isGroup(m.Chat):
		return c.onGroupCommand(ctx, r)
	case m.Chat.Type == models.ChatTypePrivate:
		return c.onPrivateCommand(ctx, r)
	}
	return nil
}

// onGroupCommand applies a command to the group's table in one
// transaction; what it posts answers it.
func (c *commands) onGroupCommand(ctx context.Context, r request) error {
	m := r.msg
	var fn func(t *record.Table, ch *change) error
	switch cmd, ok := c.find(r.name); {
	case ok && cmd.group != nil:
		fn = cmd.group(ctx, r)
	case !r.addressed:
		return nil // maybe another bot's command
	default:
		fn = func(t *record.Table, ch *change) error {
			ch.post(t, adapter.Message{Text: c.loc(t.Lang).T("command.unknown")})
			return nil
		}
	}
	id, fn, err := c.route(ctx, r, fn) // which of the group's tables (several.go)
	if err != nil {
		return err
	}
	_, _, err = c.transact(ctx, id, r.updateID, func(t *record.Table, ch *change) error {
		if m.Chat.Title != "" {
			t.Title = m.Chat.Title
		}
		// What a command posts answers it: a reply, which goes before the
		// group's announcements and table edits.
		n := len(ch.outbox)
		err := fn(t, ch)
		ch.replies(n)
		return err
	})
	return refusal.Settle(err)
}

// onPrivateCommand runs a command in a private chat.
func (c *commands) onPrivateCommand(ctx context.Context, r request) error {
	l := c.loc(c.userLang(r.msg.From))
	cmd, ok := c.find(r.name)
	switch {
	case !ok:
		return c.reply(ctx, r.updateID, r.msg.Chat.ID, adapter.Message{Text: l.T("command.unknown")})
	case cmd.private == nil:
		return c.reply(ctx, r.updateID, r.msg.Chat.ID, adapter.Message{Text: l.T("command.group_only")})
	}
	return cmd.private(ctx, r, l)
}

// onMyChatMember closes the table of a group the bot was removed from.
func (c *commands) onMyChatMember(ctx context.Context, updateID int64, u *models.ChatMemberUpdated) error {
	if !isGroup(u.Chat) {
		return nil
	}
	switch u.NewChatMember.Type {
	case models.ChatMemberTypeLeft, models.ChatMemberTypeBanned:
	default:
		return nil
	}
	_, _, err := c.transact(ctx, record.ID(u.Chat.ID, 0), updateID, func(t *record.Table, ch *change) error {
		if t.Phase == record.PhaseIdle {
			return refusal.ErrNoChange
		}
		closeTable(t)
		return nil
	})
	if err != nil && !errors.Is(err, refusal.ErrNoChange) && !errors.Is(err, refusal.ErrDuplicate) {
		return err
	}
	return c.closeOthers(ctx, u.Chat.ID) // several.go
}

// The group handlers: each reads what it must outside the transaction
// (whether the sender administers the group) and returns the change.

func (c *commands) groupNewGame(ctx context.Context, r request) func(t *record.Table, ch *change) error {
	return func(t *record.Table, ch *change) error { return c.lobby.newGame(ctx, t, ch, r.msg, r.args) }
}

func (c *commands) groupStop(ctx context.Context, r request) func(t *record.Table, ch *change) error {
	user, admin := c.sender(ctx, r.msg)
	cup := c.cupStopFallback(ctx, r, user, admin) // a running cup, when nothing else runs (cups.go)
	return func(t *record.Table, ch *change) error {
		if cup != nil && t.Phase == record.PhaseIdle {
			return cup(t, ch)
		}
		return c.lobby.askStop(t, ch, user, admin)
	}
}

// sender is who wrote a group's command, and whether they administer the
// group. A message in the group's own name is an anonymous administrator
// (user 0, an admin: Telegram lets only admins write so); one in a
// channel's name is nobody in particular (user 0, no admin). The From of
// both is a placeholder account («GroupAnonymousBot»), never a person.
func (c *commands) sender(ctx context.Context, m *models.Message) (user int64, admin bool) {
	switch {
	case anonymousAdmin(m):
		return 0, true
	case m.SenderChat != nil:
		return 0, false
	}
	return m.From.ID, c.isAdmin(ctx, m.Chat.ID, m.From.ID)
}

// anonymousAdmin reports whether m was written by one of the group's
// administrators in the group's name.
func anonymousAdmin(m *models.Message) bool {
	return m.SenderChat != nil && m.SenderChat.ID == m.Chat.ID
}

func (c *commands) groupTable(ctx context.Context, r request) func(t *record.Table, ch *change) error {
	return func(t *record.Table, ch *change) error {
		if t.Phase == record.PhaseIdle {
			ch.post(t, adapter.Message{Text: c.loc(t.Lang).T("table.none")})
			return nil
		}
		// Delivery posts the view anew at the bottom; the old message says
		// where the table went.
		t.Repost(view.Table(t.GameNo))
		return nil
	}
}

func (c *commands) groupRules(ctx context.Context, r request) func(t *record.Table, ch *change) error {
	return func(t *record.Table, ch *change) error {
		ch.post(t, c.menus.rulesPageAt(c.loc(t.Lang), t.ID, c.menus.rulesGame(t, r.args), 0, c.views.TurnTime(t)))
		return nil
	}
}

func (c *commands) groupHelp(ctx context.Context, r request) func(t *record.Table, ch *change) error {
	return func(t *record.Table, ch *change) error {
		l := c.loc(t.Lang)
		ch.post(t, c.menus.helpGroup(l, t.ID, c.groupHelpLines(l)))
		return nil
	}
}

func (c *commands) groupLang(ctx context.Context, r request) func(t *record.Table, ch *change) error {
	if len(r.args) == 0 {
		return func(t *record.Table, ch *change) error {
			ch.post(t, c.menus.langChoice(c.loc(t.Lang), t.ID))
			return nil
		}
	}
	user, admin := c.sender(ctx, r.msg)
	return func(t *record.Table, ch *change) error {
		lang, ok := c.menus.langNamed(r.args)
		switch {
		case !ok:
			ch.post(t, c.menus.langChoice(c.loc(t.Lang), t.ID))
		case !mayChangeLang(t, user, admin):
			ch.post(t, adapter.Message{Text: c.loc(t.Lang).T(langRefusal(t))})
		default:
			t.Lang = lang
			ch.post(t, adapter.Message{Text: c.loc(t.Lang).T("lang.set")})
		}
		return nil
	}
}

// The private handlers.

func (c *commands) privateHelp(ctx context.Context, r request, l adapter.Loc) error {
	here, inGroups := c.privateHelpLines(l)
	return c.reply(ctx, r.updateID, r.msg.Chat.ID, c.menus.helpPrivate(l, record.ID(r.msg.Chat.ID, 0), here, inGroups))
}

func (c *commands) privateRules(ctx context.Context, r request, l adapter.Loc) error {
	return c.reply(ctx, r.updateID, r.msg.Chat.ID, c.menus.rulesPage(l, record.ID(r.msg.Chat.ID, 0), c.menus.rulesGame(nil, r.args), 0))
}
