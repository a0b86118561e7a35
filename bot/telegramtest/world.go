package telegramtest

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"
)

type userState struct {
	user    models.User
	started bool // pressed Start: the bot may write first
	blocked bool
}

// Bot membership in a group, as my_chat_member reports it.
const (
	botMember = "member"
	botKicked = "kicked"
	botLeft   = "left"
)

type chatState struct {
	chat      models.Chat
	user      *userState // private chats only
	members   []int64    // users in join order; the first is the owner
	admins    map[int64]bool
	banned    map[int64]bool // removed by an administrator (getChatMember: kicked)
	botStatus string
	// botAdmin: the bot is an administrator here (MakeBotAdmin), so
	// Telegram tells it of every member's change (chat_member), when it
	// asked for those in allowed_updates.
	botAdmin bool
	// quiet: the group posts no joined/left service messages
	// (HideMemberMessages), as Telegram's larger supergroups do not.
	quiet      bool
	migratedTo int64
	topics     map[int]string
	messages   []*msgState
	nextMsgID  int
}

type msgState struct {
	id        int
	thread    int
	from      models.User
	date      time.Time
	editDate  time.Time
	text      string
	entities  []models.MessageEntity
	parseMode string
	keyboard  [][]Button
	replyTo   int
	deleted   bool
	service   func(*models.Message) // fills service fields (migration, new members, topic created)
	// asChat: written in the chat's own name (an anonymous administrator):
	// sender_chat is the chat, from is GroupAnonymousBot.
	asChat bool
	// doc is a document message's file (sendDocument), with its caption.
	doc             *Document
	caption         string
	captionEntities []models.MessageEntity
}

// Button is one inline keyboard button as the bot sent it.
type Button struct {
	Text         string
	CallbackData string
	URL          string
	// WebApp is the address a web_app button opens (private chats only).
	WebApp string
}

// Message is a snapshot of a chat message as it currently looks (after edits).
type Message struct {
	ID        int
	ChatID    int64
	ThreadID  int // forum topic, 0 outside topics
	From      models.User
	FromBot   bool
	Text      string // plain text: HTML tags are parsed into Entities
	Entities  []models.MessageEntity
	ParseMode string
	Keyboard  [][]Button // inline keyboard rows, nil when none
	ReplyToID int
	Date      time.Time
	EditDate  time.Time // zero if never edited
	// EphemeralID is an ephemeral message's ephemeral_message_id (its ID is 0): only its
	// receiver, ReceiverID, sees it (User.Ephemeral, User.View) and may press its buttons.
	EphemeralID int
	ReceiverID  int64
	// Document is a document message's file, Caption its caption (plain
	// text); such a message has no Text.
	Document *Document
	Caption  string
}

// Buttons returns all keyboard buttons row by row.
func (m *Message) Buttons() []Button {
	var out []Button
	for _, row := range m.Keyboard {
		out = append(out, row...)
	}
	return out
}

// Button finds a button by its exact text.
func (m *Message) Button(text string) (Button, bool) {
	return m.ButtonFunc(func(b Button) bool { return b.Text == text })
}

// ButtonFunc finds the first button matching pred.
func (m *Message) ButtonFunc(pred func(Button) bool) (Button, bool) {
	for _, b := range m.Buttons() {
		if pred(b) {
			return b, true
		}
	}
	return Button{}, false
}

func (s *Server) snapshotLocked(c *chatState, m *msgState) *Message {
	out := &Message{
		ID: m.id, ChatID: c.chat.ID, ThreadID: m.thread, From: m.from, FromBot: m.from.ID == s.bot.ID,
		Text: m.text, Entities: slices.Clone(m.entities), ParseMode: m.parseMode, ReplyToID: m.replyTo,
		Date: m.date, EditDate: m.editDate,
	}
	for _, row := range m.keyboard {
		out.Keyboard = append(out.Keyboard, slices.Clone(row))
	}
	if m.doc != nil {
		d := *m.doc
		d.Data = slices.Clone(d.Data)
		out.Document, out.Caption = &d, m.caption
	}
	return out
}

func (c *chatState) message(id int) *msgState {
	for _, m := range c.messages {
		if m.id == id && !m.deleted {
			return m
		}
	}
	return nil
}

func (c *chatState) isMember(id int64) bool { return slices.Contains(c.members, id) }

func (s *Server) addMessageLocked(c *chatState, from models.User, thread int, text string, ents []models.MessageEntity) *msgState {
	c.nextMsgID++
	m := &msgState{id: c.nextMsgID, thread: thread, from: from, date: s.clock.Now(), text: text, entities: ents}
	c.messages = append(c.messages, m)
	s.notifyLocked()
	return m
}

// UserOption configures a simulated user.
type UserOption func(*models.User)

// WithUsername gives the user a @username.
func WithUsername(name string) UserOption { return func(u *models.User) { u.Username = name } }

// WithLanguage sets the user's language_code (e.g. "ru").
func WithLanguage(code string) UserOption { return func(u *models.User) { u.LanguageCode = code } }

// WithLastName sets the user's last name.
func WithLastName(name string) UserOption { return func(u *models.User) { u.LastName = name } }

// User is a simulated Telegram user.
type User struct {
	s  *Server
	st *userState
}

// NewUser creates a user with a unique id. The bot cannot write to them until they Start it.
func (s *Server) NewUser(firstName string, opts ...UserOption) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextUserID
	s.nextUserID++
	st := &userState{user: models.User{ID: id, FirstName: firstName}}
	for _, o := range opts {
		o(&st.user)
	}
	s.users[id] = st
	s.chats[id] = &chatState{
		chat: models.Chat{ID: id, Type: "private", FirstName: st.user.FirstName, LastName: st.user.LastName, Username: st.user.Username},
		user: st, botStatus: botMember,
	}
	return &User{s: s, st: st}
}

// ID returns the user's Telegram id (also the id of their private chat with the bot).
func (u *User) ID() int64 { return u.st.user.ID }

// User returns the user as Telegram describes it.
func (u *User) User() models.User { return u.st.user }

// PrivateChat returns the user's private chat with the bot.
func (u *User) PrivateChat() *Chat { return &Chat{s: u.s, id: u.ID()} }

// Start opens the private chat and presses Start, sending "/start" or "/start <payload>" as a deep link does.
// Like Telegram clients, a payload that is not 1–64 characters of [A-Za-z0-9_-] is dropped.
// Start also unblocks a blocked bot.
func (u *User) Start(payload string) *Message {
	text := "/start"
	if validPayload(payload) {
		text += " " + payload
	}
	return u.Send(u.PrivateChat(), text)
}

// Block makes the user block the bot: sends to them fail with 403 and the bot gets my_chat_member.
func (u *User) Block() {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	if u.st.blocked {
		return
	}
	u.st.blocked = true
	c := u.s.chats[u.ID()]
	u.s.pushMyChatMemberLocked(c, u.st.user, botMember, botKicked)
}

// Started reports whether the bot may write to the user (pressed Start and did not block it).
func (u *User) Started() bool {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	return u.st.started && !u.st.blocked
}

// Send makes the user write text into chat (a group, a topic view, or their private chat).
// A leading /command gets a bot_command entity. Writing to the private chat counts as starting the bot.
func (u *User) Send(chat *Chat, text string) *Message {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chat.id]
	if c.user != nil {
		if c.user != u.st {
			panic("telegramtest: a user can only write to their own private chat with the bot")
		}
		if c.user.blocked {
			c.user.blocked = false
			s.pushMyChatMemberLocked(c, u.st.user, botKicked, botMember)
		}
		c.user.started = true
	}
	m := s.addMessageLocked(c, u.st.user, chat.thread, text, commandEntities(text))
	s.pushMessageLocked(c, m)
	return s.snapshotLocked(c, m)
}

// GroupAnonymousBot is the placeholder account Telegram puts in "from" of
// a message an administrator sends in the group's name.
var GroupAnonymousBot = models.User{ID: 1087968824, IsBot: true, FirstName: "Group", Username: "GroupAnonymousBot"}

// SendAnonymously makes the user, an administrator of group chat ("remain
// anonymous" on), write text in the group's name: the bot sees
// sender_chat = the group and from = GroupAnonymousBot, never the person.
// Like Telegram, only an administrator (or the owner) may.
func (u *User) SendAnonymously(chat *Chat, text string) *Message {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chat.id]
	if c.user != nil || !(c.admins[u.ID()] || len(c.members) > 0 && c.members[0] == u.ID()) {
		panic("telegramtest: only a group's administrator writes in its name")
	}
	m := s.addMessageLocked(c, GroupAnonymousBot, chat.thread, text, commandEntities(text))
	m.asChat = true
	s.pushMessageLocked(c, m)
	return s.snapshotLocked(c, m)
}

// commandEntities marks a leading /command (with optional @botname) like Telegram does.
func commandEntities(text string) []models.MessageEntity {
	if !strings.HasPrefix(text, "/") || len(text) < 2 {
		return nil
	}
	cmd, _, _ := strings.Cut(text, " ")
	cmd, _, _ = strings.Cut(cmd, "\n")
	return []models.MessageEntity{{Type: models.MessageEntityTypeBotCommand, Offset: 0, Length: utf16Len(cmd)}}
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// Chat is a handle on a simulated chat, or on one forum topic of it (see Topic).
type Chat struct {
	s      *Server
	id     int64
	thread int
}

// NewGroup creates a supergroup (id -100…) with the bot and members; the first member is its owner.
// The bot receives a my_chat_member update for being added.
func (s *Server) NewGroup(title string, members ...*User) *Chat {
	return s.newGroup(title, "supergroup", false, members)
}

// NewForum creates a supergroup with topics enabled; see Chat.NewTopic and Chat.Topic.
func (s *Server) NewForum(title string, members ...*User) *Chat {
	return s.newGroup(title, "supergroup", true, members)
}

// NewBasicGroup creates an old-style group (small negative id) that can be upgraded with Migrate.
func (s *Server) NewBasicGroup(title string, members ...*User) *Chat {
	return s.newGroup(title, "group", false, members)
}

func (s *Server) newGroup(title, typ string, forum bool, members []*User) *Chat {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.createChatLocked(title, typ, forum)
	for _, u := range members {
		c.members = append(c.members, u.ID())
	}
	var by models.User
	if len(members) > 0 {
		by = members[0].st.user
	}
	s.pushMyChatMemberLocked(c, by, botLeft, botMember)
	return &Chat{s: s, id: c.chat.ID}
}

func (s *Server) createChatLocked(title, typ string, forum bool) *chatState {
	n := s.nextGroupID
	s.nextGroupID++
	id := -(4000000000 + n)
	if typ == "supergroup" {
		id = -(1000000000000 + 2000000000 + n)
	}
	c := &chatState{
		chat:      models.Chat{ID: id, Type: models.ChatType(typ), Title: title, IsForum: forum},
		admins:    map[int64]bool{},
		banned:    map[int64]bool{},
		botStatus: botMember,
		topics:    map[int]string{},
	}
	s.chats[id] = c
	return c
}

// ID returns the chat id.
func (c *Chat) ID() int64 { return c.id }

// ThreadID returns the forum topic of this handle (0 for the whole chat).
func (c *Chat) ThreadID() int { return c.thread }

// Chat returns the chat as Telegram describes it.
func (c *Chat) Chat() models.Chat {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.s.chats[c.id].chat
}

// AddMember adds users to the group, with a new_chat_members service message
// (none in a group that hides them) and, where the bot is an administrator,
// a chat_member update (when the bot asked for those). It lifts a removal.
func (c *Chat) AddMember(users ...*User) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.chats[c.id]
	for _, u := range users {
		if st.isMember(u.ID()) {
			continue
		}
		before, _ := s.memberLocked(st, u.ID())
		st.members = append(st.members, u.ID())
		delete(st.banned, u.ID())
		after, _ := s.memberLocked(st, u.ID())
		nu := u.st.user
		if !st.quiet {
			m := s.addMessageLocked(st, nu, 0, "", nil)
			m.service = func(msg *models.Message) { msg.NewChatMembers = []models.User{nu} }
			s.pushMessageLocked(st, m)
		}
		s.pushChatMemberLocked(st, nu, before, after)
	}
}

// Leave makes the user leave the group on their own: a left_chat_member
// service message (none in a group that hides them) and, where the bot is
// an administrator, a chat_member update ("left", when the bot asked for
// those). The group's owner cannot leave here.
func (u *User) Leave(chat *Chat) { chat.removeMember(u, false) }

// RemoveMember makes the group's owner remove the user (a ban, as
// Telegram's «Remove from group» is): getChatMember says "kicked" until
// AddMember; the bot learns of it as from Leave, by the owner.
func (c *Chat) RemoveMember(u *User) { c.removeMember(u, true) }

func (c *Chat) removeMember(u *User, ban bool) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.chats[c.id]
	i := slices.Index(st.members, u.ID())
	switch {
	case st.user != nil:
		panic("telegramtest: nobody leaves a private chat")
	case i < 0:
		return
	case i == 0:
		panic("telegramtest: the group's owner does not leave it here")
	}
	before, _ := s.memberLocked(st, u.ID())
	st.members = slices.Delete(st.members, i, i+1)
	delete(st.admins, u.ID())
	by := u.st.user
	if ban {
		st.banned[u.ID()] = true
		by = s.users[st.members[0]].user
	}
	after, _ := s.memberLocked(st, u.ID())
	gone := u.st.user
	if !st.quiet {
		m := s.addMessageLocked(st, by, 0, "", nil)
		m.service = func(msg *models.Message) { msg.LeftChatMember = &gone }
		s.pushMessageLocked(st, m)
	}
	s.pushChatMemberLocked(st, by, before, after)
}

// HideMemberMessages makes the group post no joined/left service messages,
// as Telegram's larger supergroups do not: the bot then learns that someone
// left only from a chat_member update (where it is an administrator), or
// not at all.
func (c *Chat) HideMemberMessages() {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chats[c.id].quiet = true
}

// MakeBotAdmin promotes the bot to an administrator of the group: it gets
// my_chat_member (member → administrator), and from now on a chat_member
// update for every member's change, if it asked for those.
func (c *Chat) MakeBotAdmin() {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.chats[c.id]
	if st.botAdmin || st.botStatus != botMember {
		return
	}
	before, _ := s.memberLocked(st, s.bot.ID)
	st.botAdmin = true
	after, _ := s.memberLocked(st, s.bot.ID)
	var by models.User
	if len(st.members) > 0 {
		by = s.users[st.members[0]].user
	}
	s.pushLocked("my_chat_member", &wireUpdate{MyChatMember: &models.ChatMemberUpdated{
		Chat: st.chat, From: by, Date: int(s.clock.Now().Unix()), OldChatMember: before, NewChatMember: after,
	}})
}

// MakeAdmin promotes a member to administrator (getChatMember / getChatAdministrators report it).
func (c *Chat) MakeAdmin(u *User) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.chats[c.id]
	if !st.isMember(u.ID()) {
		st.members = append(st.members, u.ID())
	}
	st.admins[u.ID()] = true
	s.notifyLocked()
}

// Migrate upgrades a basic group to a supergroup and returns the new chat. Both chats get the
// migrate service messages; afterwards calls to the old id fail with migrate_to_chat_id.
func (c *Chat) Migrate() *Chat {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.chats[c.id]
	if old.chat.Type != "group" || old.migratedTo != 0 {
		panic("telegramtest: Migrate needs a basic group (NewBasicGroup) that was not migrated yet")
	}
	nc := s.createChatLocked(old.chat.Title, "supergroup", false)
	nc.members = slices.Clone(old.members)
	for id := range old.admins {
		nc.admins[id] = true
	}
	nc.botStatus, nc.botAdmin, nc.quiet = old.botStatus, old.botAdmin, old.quiet
	var by models.User
	if len(old.members) > 0 {
		by = s.users[old.members[0]].user
	}
	oldID, newID := old.chat.ID, nc.chat.ID
	m := s.addMessageLocked(old, by, 0, "", nil)
	m.service = func(msg *models.Message) { msg.MigrateToChatID = newID }
	s.pushMessageLocked(old, m)
	old.migratedTo = newID
	m2 := s.addMessageLocked(nc, by, 0, "", nil)
	m2.service = func(msg *models.Message) { msg.MigrateFromChatID = oldID }
	s.pushMessageLocked(nc, m2)
	return &Chat{s: s, id: newID}
}

// KickBot removes the bot from the group: it gets my_chat_member (status "kicked") and
// further calls to the chat fail with 403.
func (c *Chat) KickBot() { c.setBot(botKicked) }

// AddBot adds the bot back to the group (my_chat_member with status "member").
func (c *Chat) AddBot() { c.setBot(botMember) }

func (c *Chat) setBot(status string) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.chats[c.id]
	if st.botStatus == status {
		return
	}
	var by models.User
	if len(st.members) > 0 {
		by = s.users[st.members[0]].user
	}
	old := st.botStatus
	st.botStatus = status
	s.pushMyChatMemberLocked(st, by, old, status)
}

// NewTopic creates a forum topic (a forum_topic_created service message whose id is the thread id)
// and returns a handle on it.
func (c *Chat) NewTopic(name string) *Chat {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.chats[c.id]
	if !st.chat.IsForum {
		panic("telegramtest: NewTopic needs a forum (NewForum)")
	}
	var by models.User
	if len(st.members) > 0 {
		by = s.users[st.members[0]].user
	}
	m := s.addMessageLocked(st, by, 0, "", nil)
	m.thread = m.id
	st.topics[m.id] = name
	m.service = func(msg *models.Message) {
		msg.ForumTopicCreated = &models.ForumTopicCreated{Name: name, IconColor: 7322096}
	}
	s.pushMessageLocked(st, m)
	return &Chat{s: s, id: c.id, thread: m.id}
}

// Topic returns a handle on forum topic threadID: Send writes into the topic, reads see only its messages.
func (c *Chat) Topic(threadID int) *Chat { return &Chat{s: c.s, id: c.id, thread: threadID} }

// Messages returns the chat's (or topic's) current messages, oldest first; deleted ones are gone.
func (c *Chat) Messages() []*Message {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.chats[c.id]
	var out []*Message
	for _, m := range st.messages {
		if m.deleted || (c.thread != 0 && m.thread != c.thread) {
			continue
		}
		out = append(out, s.snapshotLocked(st, m))
	}
	return out
}

// Last returns the newest message, or nil.
func (c *Chat) Last() *Message {
	ms := c.Messages()
	if len(ms) == 0 {
		return nil
	}
	return ms[len(ms)-1]
}

// Find returns the newest message matching pred, or nil.
func (c *Chat) Find(pred func(*Message) bool) *Message {
	ms := c.Messages()
	for i := len(ms) - 1; i >= 0; i-- {
		if pred(ms[i]) {
			return ms[i]
		}
	}
	return nil
}

// BotMessages returns the messages the bot sent, oldest first.
func (c *Chat) BotMessages() []*Message {
	var out []*Message
	for _, m := range c.Messages() {
		if m.FromBot {
			out = append(out, m)
		}
	}
	return out
}

// Message returns the current version of message id, or nil when it does not exist or was deleted.
func (c *Chat) Message(id int) *Message {
	return c.Find(func(m *Message) bool { return m.ID == id })
}

// WaitMessage waits until a message matching pred exists (checked after every change) and returns the newest match.
func (c *Chat) WaitMessage(timeout time.Duration, pred func(*Message) bool) (*Message, error) {
	var found *Message
	err := c.s.WaitFor(timeout, func() bool {
		found = c.Find(pred)
		return found != nil
	})
	if err != nil {
		return nil, fmt.Errorf("telegramtest: no matching message in chat %d: %w", c.id, err)
	}
	return found, nil
}

// validPayload reports whether a deep-link payload is 1–64 characters of [A-Za-z0-9_-].
func validPayload(p string) bool {
	if len(p) == 0 || len(p) > 64 {
		return false
	}
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
