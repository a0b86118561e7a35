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
	"github.com/trickchef/trickchef/bot/tables/cupplay"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/standings"
	"github.com/trickchef/trickchef/bot/tables/txn"
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
	group func(ctx context.Context, r txn.Request) func(t *record.Table, ch *txn.Change) error
	// private is what it does in a private chat. nil: it works in groups
	// only, which the person is told.
	private func(ctx context.Context, r txn.Request, l adapter.Loc) error
	// differs marks a command that does something else in private than in
	// a group: private /help then names what it does in a group too.
	differs bool
	// quiet keeps the command out of /help (it is still in the menu).
	quiet bool
}

// commands routes the chat's messages: a command to its declaration, a
// group's upgrade to migrate, plain text in private to a hint.
type commands struct {
	tx          *txn.Txn
	views       *view.Renderer
	calls       *calls
	defaultLang string
	group       *lobby.Group
	lobby       *lobby.Lobby
	menus       *lobby.Menus
	practice    *lobby.Practice
	people      *lobby.People
	belong      *lobby.Belonging
	standing    *standings.Results
	forget      *standings.Forgetting
	reviews     *standings.Reviews
	migration   *standings.Migration
	cups        *cupplay.Cups
}

// list is every command, in the order of the menu and of /help.
func (c *commands) list() []command {
	return []command{
		{name: "newgame", group: c.groupNewGame, private: c.practice.Command, differs: true},
		{name: "table", group: c.groupTable, private: c.practice.Command, differs: true},
		{name: "stop", group: c.groupStop, private: c.practice.Command, differs: true},
		{name: "rules", group: c.groupRules, private: c.privateRules},
		{name: "stats", group: c.standing.GroupCommand, private: c.standing.PrivateStats},
		{name: "top", group: c.standing.GroupCommand},
		{name: "season", group: c.standing.GroupCommand, private: c.standing.PrivateSeason, differs: true},
		{name: "cup", group: c.groupCup},
		{name: "history", group: c.standing.GroupCommand, private: c.reviews.PrivateHistory, differs: true},
		{name: "lang", group: c.groupLang},
		{name: "help", group: c.groupHelp, private: c.privateHelp},
		{name: "forgetme", group: c.standing.GroupCommand, private: c.forget.AskForget},
		{name: "start", group: c.groupHelp, private: c.people.OnStart, quiet: true},
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
		me, err := c.calls.tg.GetMe(ctx)
		if err != nil {
			return fmt.Errorf("getMe: %w", err)
		}
		c.views.SetUsername(me.Username)
	}
	for _, lang := range append([]string{""}, c.views.Langs()...) {
		l := c.views.Loc(lang)
		if lang == "" {
			l = c.views.Loc(c.defaultLang)
		}
		var cmds []models.BotCommand
		for _, cmd := range c.list() {
			cmds = append(cmds, models.BotCommand{Command: cmd.name, Description: l.T("commands." + cmd.name + ".menu")})
		}
		if _, err := c.calls.tg.SetMyCommands(ctx, &tgbot.SetMyCommandsParams{Commands: cmds, LanguageCode: lang}); err != nil {
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
func parseCommand(text, username string) (txn.Request, bool) {
	if !strings.HasPrefix(text, "/") {
		return txn.Request{}, false
	}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return txn.Request{}, false
	}
	name, target, addressed := strings.Cut(fields[0][1:], "@")
	if addressed && !strings.EqualFold(target, username) {
		return txn.Request{}, false
	}
	if name == "" {
		return txn.Request{}, false
	}
	return txn.Request{Name: strings.ToLower(name), Args: fields[1:], Addressed: addressed}, true
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
		return c.migration.Migrate(ctx, m.Chat.ID, m.MigrateToChatID)
	}
	if ok, err := c.belong.OnServiceMessage(ctx, updateID, m); ok {
		return err
	}
	if m.From == nil {
		return nil
	}
	r, ok := parseCommand(m.Text, c.views.Username())
	if !ok {
		if m.Chat.Type == models.ChatTypePrivate && strings.TrimSpace(m.Text) != "" {
			// Plain text in private: say what the bot understands.
			return c.tx.Reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: c.views.Loc(c.tx.UserLang(m.From)).T("command.hint_private")})
		}
		return nil
	}
	r.UpdateID, r.Msg = updateID, m
	switch {
	case lobby.IsGroup(m.Chat):
		return c.onGroupCommand(ctx, r)
	case m.Chat.Type == models.ChatTypePrivate:
		return c.onPrivateCommand(ctx, r)
	}
	return nil
}

// onGroupCommand applies a command to the group's table in one
// transaction; what it posts answers it.
func (c *commands) onGroupCommand(ctx context.Context, r txn.Request) error {
	m := r.Msg
	var fn func(t *record.Table, ch *txn.Change) error
	switch cmd, ok := c.find(r.Name); {
	case ok && cmd.group != nil:
		fn = cmd.group(ctx, r)
	case !r.Addressed:
		return nil // maybe another bot's command
	default:
		fn = func(t *record.Table, ch *txn.Change) error {
			ch.PostGroup(t, adapter.Message{Text: c.views.Loc(t.Lang).T("command.unknown")})
			return nil
		}
	}
	id, fn, err := c.route(ctx, r, fn) // which of the group's tables (route.go)
	if err != nil {
		return err
	}
	_, _, err = c.tx.Transact(ctx, id, r.UpdateID, func(t *record.Table, ch *txn.Change) error {
		if m.Chat.Title != "" {
			t.Title = m.Chat.Title
		}
		// What a command posts answers it: a reply, which goes before the
		// group's announcements and table edits.
		n := len(ch.Outbox)
		err := fn(t, ch)
		ch.Replies(n)
		return err
	})
	return refusal.Settle(err)
}

// onPrivateCommand runs a command in a private chat.
func (c *commands) onPrivateCommand(ctx context.Context, r txn.Request) error {
	l := c.views.Loc(c.tx.UserLang(r.Msg.From))
	cmd, ok := c.find(r.Name)
	switch {
	case !ok:
		return c.tx.Reply(ctx, r.UpdateID, r.Msg.Chat.ID, adapter.Message{Text: l.T("command.unknown")})
	case cmd.private == nil:
		return c.tx.Reply(ctx, r.UpdateID, r.Msg.Chat.ID, adapter.Message{Text: l.T("command.group_only")})
	}
	return cmd.private(ctx, r, l)
}

// onMyChatMember closes the table of a group the bot was removed from.
func (c *commands) onMyChatMember(ctx context.Context, updateID int64, u *models.ChatMemberUpdated) error {
	if !lobby.IsGroup(u.Chat) {
		return nil
	}
	switch u.NewChatMember.Type {
	case models.ChatMemberTypeLeft, models.ChatMemberTypeBanned:
	default:
		return nil
	}
	_, _, err := c.tx.Transact(ctx, record.ID(u.Chat.ID, 0), updateID, func(t *record.Table, ch *txn.Change) error {
		if t.Phase == record.PhaseIdle {
			return refusal.ErrNoChange
		}
		txn.CloseTable(t)
		return nil
	})
	if err != nil && !errors.Is(err, refusal.ErrNoChange) && !errors.Is(err, refusal.ErrDuplicate) {
		return err
	}
	return c.closeOthers(ctx, u.Chat.ID) // route.go
}

// The group handlers: each reads what it must outside the transaction
// (whether the sender administers the group) and returns the change.

func (c *commands) groupNewGame(ctx context.Context, r txn.Request) func(t *record.Table, ch *txn.Change) error {
	return func(t *record.Table, ch *txn.Change) error { return c.lobby.NewGame(ctx, t, ch, r.Msg, r.Args) }
}

func (c *commands) groupStop(ctx context.Context, r txn.Request) func(t *record.Table, ch *txn.Change) error {
	user, admin := c.sender(ctx, r.Msg)
	// A running cup, when nothing else runs (bot/tables/cupplay).
	cup := c.cups.StopFallback(ctx, r, record.ID(r.Msg.Chat.ID, threadOf(r.Msg)), user, admin)
	return func(t *record.Table, ch *txn.Change) error {
		if cup != nil && t.Phase == record.PhaseIdle {
			return cup(t, ch)
		}
		return c.lobby.AskStop(t, ch, user, admin)
	}
}

// groupCup is /cup: a group's cup (bot/tables/cupplay).
func (c *commands) groupCup(ctx context.Context, r txn.Request) func(t *record.Table, ch *txn.Change) error {
	return c.cups.Command(ctx, r, record.ID(r.Msg.Chat.ID, threadOf(r.Msg)), c.sender)
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
	return m.From.ID, c.calls.isAdmin(ctx, m.Chat.ID, m.From.ID)
}

// anonymousAdmin reports whether m was written by one of the group's
// administrators in the group's name.
func anonymousAdmin(m *models.Message) bool {
	return m.SenderChat != nil && m.SenderChat.ID == m.Chat.ID
}

func (c *commands) groupTable(ctx context.Context, r txn.Request) func(t *record.Table, ch *txn.Change) error {
	return func(t *record.Table, ch *txn.Change) error {
		if t.Phase == record.PhaseIdle {
			ch.PostGroup(t, adapter.Message{Text: c.views.Loc(t.Lang).T("table.none")})
			return nil
		}
		// Delivery posts the view anew at the bottom; the old message says
		// where the table went.
		t.Repost(view.Table(t.GameNo))
		return nil
	}
}

func (c *commands) groupRules(ctx context.Context, r txn.Request) func(t *record.Table, ch *txn.Change) error {
	return func(t *record.Table, ch *txn.Change) error {
		ch.PostGroup(t, c.menus.RulesPageAt(c.views.Loc(t.Lang), t.ID, c.menus.RulesGame(t, r.Args), 0, c.views.TurnTime(t)))
		return nil
	}
}

func (c *commands) groupHelp(ctx context.Context, r txn.Request) func(t *record.Table, ch *txn.Change) error {
	return func(t *record.Table, ch *txn.Change) error {
		l := c.views.Loc(t.Lang)
		ch.PostGroup(t, c.menus.HelpGroup(l, t.ID, c.groupHelpLines(l)))
		return nil
	}
}

func (c *commands) groupLang(ctx context.Context, r txn.Request) func(t *record.Table, ch *txn.Change) error {
	if len(r.Args) == 0 {
		return func(t *record.Table, ch *txn.Change) error {
			ch.PostGroup(t, c.menus.LangChoice(c.views.Loc(t.Lang), t.ID))
			return nil
		}
	}
	user, admin := c.sender(ctx, r.Msg)
	return func(t *record.Table, ch *txn.Change) error {
		lang, ok := c.menus.LangNamed(r.Args)
		switch {
		case !ok:
			ch.PostGroup(t, c.menus.LangChoice(c.views.Loc(t.Lang), t.ID))
		case !lobby.MayChangeLang(t, user, admin):
			ch.PostGroup(t, adapter.Message{Text: c.views.Loc(t.Lang).T(lobby.LangRefusal(t))})
		default:
			t.Lang = lang
			ch.PostGroup(t, adapter.Message{Text: c.views.Loc(t.Lang).T("lang.set")})
		}
		return nil
	}
}

// The private handlers.

func (c *commands) privateHelp(ctx context.Context, r txn.Request, l adapter.Loc) error {
	here, inGroups := c.privateHelpLines(l)
	return c.tx.Reply(ctx, r.UpdateID, r.Msg.Chat.ID, c.menus.HelpPrivate(l, record.ID(r.Msg.Chat.ID, 0), here, inGroups))
}

func (c *commands) privateRules(ctx context.Context, r txn.Request, l adapter.Loc) error {
	return c.tx.Reply(ctx, r.UpdateID, r.Msg.Chat.ID, c.menus.RulesPage(l, record.ID(r.Msg.Chat.ID, 0), c.menus.RulesGame(nil, r.Args), 0))
}
