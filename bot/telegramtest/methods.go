package telegramtest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/go-telegram/bot/models"
)

// lookupMethod finds a method by name, ignoring case like Telegram, and returns its canonical name.
func lookupMethod(name string) (string, handler) {
	switch strings.ToLower(name) {
	case "getme":
		return "getMe", (*Server).getMe
	case "getupdates":
		return "getUpdates", (*Server).getUpdates
	case "setwebhook":
		return "setWebhook", (*Server).setWebhook
	case "deletewebhook":
		return "deleteWebhook", (*Server).deleteWebhook
	case "getwebhookinfo":
		return "getWebhookInfo", (*Server).getWebhookInfo
	case "sendmessage":
		return "sendMessage", (*Server).sendMessage
	case "editmessagetext":
		return "editMessageText", (*Server).editMessageText
	case "editmessagereplymarkup":
		return "editMessageReplyMarkup", (*Server).editMessageReplyMarkup
	case "deletemessage":
		return "deleteMessage", (*Server).deleteMessage
	case "deletemessages":
		return "deleteMessages", (*Server).deleteMessages
	case "answercallbackquery":
		return "answerCallbackQuery", (*Server).answerCallbackQuery
	case "setmycommands":
		return "setMyCommands", (*Server).setMyCommands
	case "getmycommands":
		return "getMyCommands", (*Server).getMyCommands
	case "deletemycommands":
		return "deleteMyCommands", (*Server).deleteMyCommands
	case "getchatmember":
		return "getChatMember", (*Server).getChatMember
	case "getchatadministrators":
		return "getChatAdministrators", (*Server).getChatAdministrators
	case "getchat":
		return "getChat", (*Server).getChat
	case "pinchatmessage":
		return "pinChatMessage", (*Server).pinChatMessage
	case "unpinchatmessage":
		return "unpinChatMessage", (*Server).acceptChat
	case "unpinallchatmessages":
		return "unpinAllChatMessages", (*Server).acceptChat
	case "senddocument":
		return "sendDocument", (*Server).sendDocument
	case "sendchataction":
		return "sendChatAction", (*Server).sendChatAction
	case "leavechat":
		return "leaveChat", (*Server).leaveChat
	case "logout":
		return "logOut", (*Server).accept
	case "close":
		return "close", (*Server).accept
	}
	return lookupEphemeral(name)
}

func (s *Server) getMe(context.Context, params) (any, *APIError) { return s.bot, nil }

func (s *Server) accept(context.Context, params) (any, *APIError) { return true, nil }

// chatLocked resolves chat_id and checks the bot may act there, with Telegram's errors.
func (s *Server) chatLocked(p params) (*chatState, *APIError) {
	if p["chat_id"] == "" {
		return nil, badRequest("chat_id is empty")
	}
	id, ok := p.int64("chat_id")
	c := s.chats[id]
	if !ok || c == nil {
		return nil, badRequest("chat not found")
	}
	if c.migratedTo != 0 {
		return nil, &APIError{Code: 400, Description: "Bad Request: group chat was upgraded to a supergroup chat", MigrateToChatID: c.migratedTo}
	}
	if c.user != nil {
		switch {
		case c.user.blocked:
			return nil, forbidden("bot was blocked by the user")
		case !c.user.started:
			return nil, forbidden("bot can't initiate conversation with a user")
		}
		return c, nil
	}
	switch c.botStatus {
	case botKicked:
		return nil, forbidden("bot was kicked from the " + string(c.chat.Type) + " chat")
	case botLeft:
		return nil, forbidden("bot is not a member of the " + string(c.chat.Type) + " chat")
	}
	return c, nil
}

// postingLocked is the chat a send posts to (chat_id) and its forum topic
// (message_thread_id, which must exist), once the chat's rate limits let
// one more message through. Call with s.mu held.
func (s *Server) postingLocked(p params) (*chatState, int, *APIError) {
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, 0, e
	}
	thread := 0
	if c.chat.IsForum {
		thread = p.int("message_thread_id")
		if _, ok := c.topics[thread]; thread != 0 && !ok {
			return nil, 0, badRequest("message thread not found")
		}
	}
	if e := s.limitLocked(c); e != nil {
		return nil, 0, e
	}
	return c, thread, nil
}

func (s *Server) sendMessage(ctx context.Context, p params) (any, *APIError) {
	if isEphemeralSend(p) {
		return s.sendEphemeral(ctx, p)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, thread, e := s.postingLocked(p)
	if e != nil {
		return nil, e
	}
	text, ents, e := parseText(p)
	if e != nil {
		return nil, e
	}
	kb, e := parseKeyboard(p["reply_markup"])
	if e == nil {
		e = checkWebApps(c, kb)
	}
	if e != nil {
		return nil, e
	}
	// reply_to_message_id is gone from the Bot API (the spec check refuses it): replies use reply_parameters.
	replyTo, allowMissing := 0, false
	if rp := p["reply_parameters"]; rp != "" {
		var r models.ReplyParameters
		if err := json.Unmarshal([]byte(rp), &r); err != nil {
			return nil, badRequest("can't parse reply parameters JSON object")
		}
		replyTo, allowMissing = r.MessageID, r.AllowSendingWithoutReply
	}
	if replyTo != 0 && c.message(replyTo) == nil {
		if !allowMissing {
			return nil, badRequest("message to be replied not found")
		}
		replyTo = 0
	}
	m := s.addMessageLocked(c, s.bot, thread, text, ents)
	m.keyboard, m.parseMode, m.replyTo = kb, p["parse_mode"], replyTo
	return s.wireLocked(c, m), nil
}

// editTargetLocked finds the bot's message to edit.
func (s *Server) editTargetLocked(p params) (*chatState, *msgState, *APIError) {
	if p["inline_message_id"] != "" {
		return nil, nil, badRequest("MESSAGE_ID_INVALID")
	}
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, nil, e
	}
	if e := s.limitLocked(c); e != nil {
		return nil, nil, e
	}
	if !p.has("message_id") {
		return nil, nil, badRequest("message identifier is not specified")
	}
	m := c.message(p.int("message_id"))
	if m == nil {
		return nil, nil, badRequest("message to edit not found")
	}
	if m.from.ID != s.bot.ID {
		return nil, nil, badRequest("message can't be edited")
	}
	return c, m, nil
}

const notModified = "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"

func sameKeyboard(a, b [][]Button) bool {
	return slices.EqualFunc(a, b, func(x, y []Button) bool { return slices.Equal(x, y) })
}

func (s *Server) editMessageText(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, m, e := s.editTargetLocked(p)
	if e != nil {
		return nil, e
	}
	text, ents, e := parseText(p)
	if e != nil {
		return nil, e
	}
	// Like Telegram, an edit without reply_markup removes the keyboard.
	kb, e := parseKeyboard(p["reply_markup"])
	if e == nil {
		e = checkWebApps(c, kb)
	}
	if e != nil {
		return nil, e
	}
	if m.doc != nil {
		return nil, badRequest("there is no text in the message to edit")
	}
	if text == m.text && slices.Equal(ents, m.entities) && sameKeyboard(kb, m.keyboard) {
		return nil, badRequest(notModified)
	}
	m.text, m.entities, m.keyboard, m.parseMode = text, ents, kb, p["parse_mode"]
	m.editDate = s.clock.Now()
	s.notifyLocked()
	return s.wireLocked(c, m), nil
}

func (s *Server) editMessageReplyMarkup(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, m, e := s.editTargetLocked(p)
	if e != nil {
		return nil, e
	}
	kb, e := parseKeyboard(p["reply_markup"])
	if e == nil {
		e = checkWebApps(c, kb)
	}
	if e != nil {
		return nil, e
	}
	if sameKeyboard(kb, m.keyboard) {
		return nil, badRequest(notModified)
	}
	m.keyboard = kb
	m.editDate = s.clock.Now()
	s.notifyLocked()
	return s.wireLocked(c, m), nil
}

func (s *Server) deleteMessage(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, e
	}
	if e := s.limitLocked(c); e != nil {
		return nil, e
	}
	if !p.has("message_id") {
		return nil, badRequest("message identifier is not specified")
	}
	m := c.message(p.int("message_id"))
	if m == nil {
		return nil, badRequest("message to delete not found")
	}
	m.deleted = true
	s.notifyLocked()
	return true, nil
}

// deleteMessages deletes up to 100 messages of one chat in one call (one
// unit of the rate limits). Like Telegram, it succeeds when at least one
// listed message could be deleted and ignores the others.
func (s *Server) deleteMessages(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, e
	}
	if e := s.limitLocked(c); e != nil {
		return nil, e
	}
	var ids []int
	if err := json.Unmarshal([]byte(p["message_ids"]), &ids); err != nil || len(ids) == 0 || len(ids) > 100 {
		return nil, badRequest("message identifiers are invalid")
	}
	deleted := 0
	for _, id := range ids {
		if m := c.message(id); m != nil && !m.deleted {
			m.deleted = true
			deleted++
		}
	}
	if deleted == 0 {
		return nil, badRequest("message to delete not found")
	}
	s.notifyLocked()
	return true, nil
}

func (s *Server) answerCallbackQuery(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queries[p["callback_query_id"]]
	if q == nil || q.answer != nil || s.clock.Now().Sub(q.pressedAt) > s.queryTimeout {
		return nil, badRequest("query is too old and response timeout expired or query ID is invalid")
	}
	if utf16Len(p["text"]) > 200 {
		return nil, badRequest("MESSAGE_TOO_LONG")
	}
	q.answer = &CallbackAnswer{Text: p["text"], ShowAlert: p.bool("show_alert"), URL: p["url"], CacheTime: p.int("cache_time")}
	close(q.done)
	s.notifyLocked()
	return true, nil
}

// commandsKey identifies a command list by scope and language, as Telegram keeps them apart.
func commandsKey(p params) (string, *APIError) {
	var sc struct {
		Type   string          `json:"type"`
		ChatID json.RawMessage `json:"chat_id"`
		UserID json.RawMessage `json:"user_id"`
	}
	if raw := p["scope"]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &sc); err != nil {
			return "", badRequest("can't parse BotCommandScope JSON object")
		}
	}
	if sc.Type == "" {
		sc.Type = "default"
	}
	switch sc.Type {
	case "default", "all_private_chats", "all_group_chats", "all_chat_administrators", "chat", "chat_administrators", "chat_member":
	default:
		return "", badRequest("wrong BotCommandScope type specified")
	}
	return fmt.Sprintf("%s/%s/%s/%s", sc.Type, sc.ChatID, sc.UserID, p["language_code"]), nil
}

func validCommand(c string) bool {
	if len(c) == 0 || len(c) > 32 {
		return false
	}
	for _, r := range c {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func (s *Server) setMyCommands(_ context.Context, p params) (any, *APIError) {
	var cmds []models.BotCommand
	if err := json.Unmarshal([]byte(p["commands"]), &cmds); err != nil {
		return nil, badRequest("can't parse commands JSON object")
	}
	if len(cmds) > 100 {
		return nil, badRequest("too many commands")
	}
	for _, c := range cmds {
		if !validCommand(c.Command) {
			return nil, badRequest("BOT_COMMAND_INVALID")
		}
		if d := utf16Len(c.Description); d == 0 || d > 256 {
			return nil, badRequest("command description is empty")
		}
	}
	key, e := commandsKey(p)
	if e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commands[key] = cmds
	s.notifyLocked()
	return true, nil
}

func (s *Server) getMyCommands(_ context.Context, p params) (any, *APIError) {
	key, e := commandsKey(p)
	if e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]models.BotCommand{}, s.commands[key]...), nil
}

func (s *Server) deleteMyCommands(_ context.Context, p params) (any, *APIError) {
	key, e := commandsKey(p)
	if e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.commands, key)
	s.notifyLocked()
	return true, nil
}

// MyCommands returns the commands set for a scope type without chat or user ("default",
// "all_private_chats", "all_group_chats", "all_chat_administrators") and language ("" for all).
func (s *Server) MyCommands(scopeType, lang string) []models.BotCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.commands[fmt.Sprintf("%s///%s", scopeType, lang)])
}

// memberLocked describes user id in chat c as getChatMember does.
func (s *Server) memberLocked(c *chatState, id int64) (models.ChatMember, *APIError) {
	if id == s.bot.ID {
		if c.botAdmin && c.botStatus == botMember {
			bot := s.bot
			return models.ChatMember{Type: models.ChatMemberTypeAdministrator, Administrator: &models.ChatMemberAdministrator{
				User: bot, CanManageChat: true, CanDeleteMessages: true, CanRestrictMembers: true,
				CanInviteUsers: true, CanPinMessages: true, CanManageTopics: c.chat.IsForum,
				CanPostStories: true, CanEditStories: true, CanDeleteStories: true,
			}}, nil
		}
		return chatMember(c.botStatus, s.bot), nil
	}
	u := s.users[id]
	if u == nil {
		return models.ChatMember{}, badRequest("PARTICIPANT_ID_INVALID")
	}
	user := u.user
	switch {
	case c.user != nil && c.user == u:
		return chatMember(botMember, user), nil
	case len(c.members) > 0 && c.members[0] == id:
		return models.ChatMember{Type: models.ChatMemberTypeOwner, Owner: &models.ChatMemberOwner{User: &user}}, nil
	case c.admins[id]:
		return models.ChatMember{Type: models.ChatMemberTypeAdministrator, Administrator: &models.ChatMemberAdministrator{
			User: user, CanManageChat: true, CanDeleteMessages: true, CanRestrictMembers: true,
			CanInviteUsers: true, CanPinMessages: true, CanManageTopics: c.chat.IsForum,
			CanPostStories: true, CanEditStories: true, CanDeleteStories: true, // required fields: omitempty drops false
		}}, nil
	case c.isMember(id):
		return chatMember(botMember, user), nil
	case c.banned[id]:
		return chatMember(botKicked, user), nil
	}
	return chatMember(botLeft, user), nil
}

func (s *Server) getChatMember(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, e
	}
	id, ok := p.int64("user_id")
	if !ok {
		return nil, badRequest("user_id is empty")
	}
	m, e := s.memberLocked(c, id)
	if e != nil {
		return nil, e
	}
	return &m, nil
}

func (s *Server) getChatAdministrators(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, e
	}
	if c.user != nil {
		return nil, badRequest("there are no administrators in the private chat")
	}
	out := []*models.ChatMember{}
	for i, id := range c.members {
		if i == 0 || c.admins[id] {
			m, _ := s.memberLocked(c, id)
			out = append(out, &m)
		}
	}
	return out, nil
}

func (s *Server) getChat(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, e
	}
	ch := c.chat
	return wireChatFullInfo{ID: ch.ID, Type: string(ch.Type), Title: ch.Title, Username: ch.Username,
		FirstName: ch.FirstName, LastName: ch.LastName, IsForum: ch.IsForum, MaxReactionCount: 11}, nil
}

// wireChatFullInfo is getChat's answer. models.ChatFullInfo would encode a zero birthdate and an
// empty bio for every chat and leave out the required accent_color_id.
type wireChatFullInfo struct {
	ID                int64  `json:"id"`
	Type              string `json:"type"`
	Title             string `json:"title,omitempty"`
	Username          string `json:"username,omitempty"`
	FirstName         string `json:"first_name,omitempty"`
	LastName          string `json:"last_name,omitempty"`
	IsForum           bool   `json:"is_forum,omitempty"`
	AccentColorID     int    `json:"accent_color_id"`
	MaxReactionCount  int    `json:"max_reaction_count"`
	AcceptedGiftTypes struct {
		UnlimitedGifts      bool `json:"unlimited_gifts"`
		LimitedGifts        bool `json:"limited_gifts"`
		UniqueGifts         bool `json:"unique_gifts"`
		PremiumSubscription bool `json:"premium_subscription"`
		GiftsFromChannels   bool `json:"gifts_from_channels"`
	} `json:"accepted_gift_types"`
}

func (s *Server) pinChatMessage(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, e
	}
	if c.message(p.int("message_id")) == nil {
		return nil, badRequest("message to pin not found")
	}
	return true, nil
}

func (s *Server) acceptChat(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, e := s.chatLocked(p); e != nil {
		return nil, e
	}
	return true, nil
}

func (s *Server) sendChatAction(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, e := s.chatLocked(p); e != nil {
		return nil, e
	}
	if p["action"] == "" {
		return nil, badRequest("wrong parameter action in request")
	}
	return true, nil
}

func (s *Server) leaveChat(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, e
	}
	if c.user != nil {
		return nil, badRequest("chat member status can't be changed in private chats")
	}
	c.botStatus = botLeft
	s.pushMyChatMemberLocked(c, s.bot, botMember, botLeft)
	return true, nil
}
