package telegramtest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
)

// Ephemeral messages (Bot API 10.2; 10.3 moved their send options into
// ephemeral_message_parameters): a message in a group that only its receiver and the bot see,
// outside the chat's history. The fake follows what the documentation says, rule by rule as
// docs/bot.md «The hand in the group: what Telegram promises» lists them:
//
//   - sendMessage with ephemeral_message_parameters, in a group or supergroup only, to a member
//     (receiver_user_id) who is not a bot;
//   - a bot that is not the chat's administrator (Chat.MakeBotAdmin) must name the receiver's own
//     press in that chat (callback_query_id) and send within 15 seconds of it, by the server's
//     clock; replace_callback_query_message shows the message in place of the pressed one, for
//     the receiver alone, and is refused for a press on an ephemeral message;
//   - the answer is a Message with message_id 0, ephemeral_message_id (counted per chat) and
//     receiver_user; a press on its buttons sends a callback query whose message is that Message;
//   - editEphemeralMessageText, editEphemeralMessageReplyMarkup and deleteEphemeralMessage name
//     chat_id, receiver_user_id and ephemeral_message_id, answer True, and refuse another
//     receiver or an unknown id as "not found"; an edit that changes nothing is "not modified";
//   - sends, edits and deletes count against the group's and the token's limits like any message
//     (the documentation says nothing of their limits);
//   - DropEphemeral loses a share of them on the way (the receiver is offline: the call succeeds,
//     the user never sees the message), and WithoutEphemeralMessages makes a server older than
//     10.2, which knows none of this.
//
// The documentation states the rules, not the error texts for breaking them: the texts below
// are Telegram's where the Bot API has one for the same fault, and ours, in its style, otherwise.

// ephemeralWindow: "Any bot can send an ephemeral message to a user within 15 seconds of the
// incoming eligible action."
const ephemeralWindow = 15 * time.Second

const (
	ephNotGroup       = "ephemeral messages can be sent only to group and supergroup chats"     // ours
	ephNoReceiver     = "receiver user not found"                                               // ours
	ephNoTrigger      = "not enough rights to send ephemeral messages without a callback query" // ours
	ephQueryInvalid   = "query is too old and response timeout expired or query ID is invalid"  // answerCallbackQuery's
	ephQueryElsewhere = "callback query was not sent by the receiver in this chat"              // ours
	ephNoReplace      = "the message to replace can't be specified"                             // ours
	ephToEdit         = "message to edit not found"                                             // editMessageText's
	ephToDelete       = "message to delete not found"                                           // deleteMessage's
	ephReplyNotFound  = "message to be replied not found"                                       // sendMessage's
)

// methodNotFound is what telegram-bot-api answers for a method it does not have
// (Client.cpp: fail_query(404, "Not Found: method not found")).
var methodNotFound = &APIError{Code: 404, Description: "Not Found: method not found"}

// ephemeralState is the server's part for ephemeral messages, kept under Server.mu.
type ephemeralState struct {
	unknown bool                // WithoutEphemeralMessages: a server older than Bot API 10.2
	v102    bool                // WithEphemeral102: a 10.2 server, before the send options moved
	public  int                 // ephemeral sends the server posted for everyone
	share   float64             // DropEphemeral
	sent    int                 // sends since the share was set
	dropped int                 // ever
	msgs    map[int64][]*ephMsg // by chat, in the order sent
	nextID  map[int64]int
}

// ephMsg is an ephemeral message as the server keeps it.
type ephMsg struct {
	id        int
	receiver  int64
	thread    int
	after     int // the chat's newest message id when it was sent: it shows after that message
	replaces  int // the message it is shown in place of, for the receiver (0: none)
	date      time.Time
	editDate  time.Time
	text      string
	entities  []models.MessageEntity
	parseMode string
	keyboard  [][]Button
	dropped   bool // never reached the receiver
	deleted   bool
}

// wireEphemeral is an ephemeral message the way the Bot API renders it: go-telegram/bot's Message
// has neither field.
type wireEphemeral struct {
	wireMessage
	ReceiverUser       *models.User `json:"receiver_user,omitempty"`
	EphemeralMessageID int          `json:"ephemeral_message_id,omitempty"`
}

// WithoutEphemeralMessages makes the server one older than Bot API 10.2, as a self-hosted one
// may be: it answers the ephemeral methods as telegram-bot-api answers any method it lacks (404
// "Not Found: method not found"), and, reading only the parameters it knows, posts a sendMessage
// with ephemeral_message_parameters as an ordinary message that everyone in the group sees.
func WithoutEphemeralMessages() Option { return func(s *Server) { s.eph.unknown = true } }

// WithEphemeral102 makes a Bot API 10.2 server: it knows ephemeral messages and their edit and
// delete methods, but a send names its receiver and press with parameters of their own
// (receiver_user_id, callback_query_id); ephemeral_message_parameters, which 10.3 brought, is
// unknown to it and ignored, so a send with only that is posted for everyone.
func WithEphemeral102() Option { return func(s *Server) { s.eph.v102 = true } }

// PostedForEveryone counts the sends asking for an ephemeral message that the server posted
// for everyone (WithoutEphemeralMessages, WithEphemeral102).
func (s *Server) PostedForEveryone() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eph.public
}

// DropEphemeral makes the server lose share (0 to 1) of the ephemeral messages sent from now
// on, evenly (a half: every second one), as Telegram may when the receiver is offline: the send
// succeeds and its message can be edited and deleted, but the receiver never sees it.
func (s *Server) DropEphemeral(share float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.eph.share, s.eph.sent = min(max(share, 0), 1), 0
}

// ExpireEphemeral makes user's ephemeral messages in chat expire, as Telegram says they «may
// disappear automatically after some time, or if the app is restarted»: the receiver no longer
// sees them, and an edit or a deletion of one is answered "not found". It returns how many.
func (s *Server) ExpireEphemeral(chat *Chat, user *User) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, m := range s.eph.msgs[chat.id] {
		if m.receiver == user.ID() && !m.deleted {
			m.deleted = true
			n++
		}
	}
	return n
}

// DroppedEphemeral counts the ephemeral messages DropEphemeral made the server lose.
func (s *Server) DroppedEphemeral() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eph.dropped
}

func lookupEphemeral(name string) (string, handler) {
	switch strings.ToLower(name) {
	case "editephemeralmessagetext":
		return "editEphemeralMessageText", (*Server).editEphemeralMessageText
	case "editephemeralmessagereplymarkup":
		return "editEphemeralMessageReplyMarkup", (*Server).editEphemeralMessageReplyMarkup
	case "deleteephemeralmessage":
		return "deleteEphemeralMessage", (*Server).deleteEphemeralMessage
	}
	return "", nil
}

// ephemeralParams is EphemeralMessageParameters.
type ephemeralParams struct {
	ReceiverUserID  int64  `json:"receiver_user_id"`
	CallbackQueryID string `json:"callback_query_id"`
	Replace         bool   `json:"replace_callback_query_message"`
}

// replyToEphemeral is the ephemeral message a sendMessage replies to (0: none).
func replyToEphemeral(p params) int {
	var r struct {
		EphemeralMessageID int `json:"ephemeral_message_id"`
	}
	if raw := p["reply_parameters"]; raw != "" {
		_ = json.Unmarshal([]byte(raw), &r)
	}
	return r.EphemeralMessageID
}

// isEphemeralSend reports whether a sendMessage is sendEphemeral's: it has ephemeral parameters
// (10.3's object, or 10.2's receiver_user_id) or replies to an ephemeral message.
func isEphemeralSend(p params) bool {
	return p.has("ephemeral_message_parameters") || p.has("receiver_user_id") || replyToEphemeral(p) != 0
}

// postForEveryone is a send asking for an ephemeral message on a server that does not read the
// parameters that ask for it: an ordinary message, in the chat's history.
func (s *Server) postForEveryone(ctx context.Context, p params) (any, *APIError) {
	q := maps.Clone(p)
	for _, name := range []string{"ephemeral_message_parameters", "receiver_user_id", "callback_query_id"} {
		delete(q, name) // what such a server does not read
	}
	res, e := s.sendMessage(ctx, q)
	if e == nil {
		s.mu.Lock()
		s.eph.public++
		s.mu.Unlock()
	}
	return res, e
}

func (s *Server) sendEphemeral(ctx context.Context, p params) (any, *APIError) {
	if s.eph.unknown { // fixed by NewServer
		if replyToEphemeral(p) != 0 { // its ReplyParameters has no message_id to reply to
			return nil, badRequest(ephReplyNotFound)
		}
		return s.postForEveryone(ctx, p)
	}
	var ep ephemeralParams
	switch {
	case s.eph.v102 && !p.has("receiver_user_id"):
		return s.postForEveryone(ctx, p)
	case s.eph.v102:
		ep.ReceiverUserID, _ = p.int64("receiver_user_id")
		ep.CallbackQueryID = p["callback_query_id"]
	case !p.has("ephemeral_message_parameters") && replyToEphemeral(p) == 0:
		return s.postForEveryone(ctx, p) // 10.3 removed 10.2's parameters
	default:
		if raw := p["ephemeral_message_parameters"]; raw != "" {
			if err := json.Unmarshal([]byte(raw), &ep); err != nil {
				return nil, badRequest("can't parse ephemeral message parameters JSON object")
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, e
	}
	if c.user != nil {
		return nil, badRequest(ephNotGroup)
	}
	thread := 0
	if c.chat.IsForum {
		thread = p.int("message_thread_id")
		if _, ok := c.topics[thread]; thread != 0 && !ok {
			return nil, badRequest("message thread not found")
		}
	}
	if e := s.limitLocked(c); e != nil {
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
	// The fake simulates no ephemeral commands, so there is never an incoming ephemeral message
	// to reply to; a reply to one without ephemeral parameters lands here too.
	if replyToEphemeral(p) != 0 {
		return nil, badRequest(ephReplyNotFound)
	}
	replaces, e := s.ephemeralTriggerLocked(c, ep)
	if e != nil {
		return nil, e
	}
	if s.eph.msgs == nil {
		s.eph.msgs, s.eph.nextID = map[int64][]*ephMsg{}, map[int64]int{}
	}
	s.eph.nextID[c.chat.ID]++
	m := &ephMsg{id: s.eph.nextID[c.chat.ID], receiver: ep.ReceiverUserID, thread: thread, after: c.nextMsgID,
		replaces: replaces, date: s.clock.Now(), text: text, entities: ents, parseMode: p["parse_mode"],
		keyboard: kb, dropped: s.dropLocked()}
	s.eph.msgs[c.chat.ID] = append(s.eph.msgs[c.chat.ID], m)
	s.notifyLocked()
	return s.wireEphemeralLocked(c, m), nil
}

// ephemeralTriggerLocked checks that the bot may send this ephemeral message to its receiver
// now, and returns the message it is to be shown in place of (0: none).
func (s *Server) ephemeralTriggerLocked(c *chatState, ep ephemeralParams) (int, *APIError) {
	if u := s.users[ep.ReceiverUserID]; u == nil || u.user.IsBot || !c.isMember(ep.ReceiverUserID) {
		return 0, badRequest(ephNoReceiver)
	}
	if ep.CallbackQueryID == "" {
		if ep.Replace {
			return 0, badRequest(ephNoReplace)
		}
		if !c.botAdmin {
			return 0, badRequest(ephNoTrigger)
		}
		return 0, nil
	}
	q := s.queries[ep.CallbackQueryID]
	if q == nil || s.clock.Now().Sub(q.pressedAt) > ephemeralWindow {
		return 0, badRequest(ephQueryInvalid)
	}
	if q.chatID != c.chat.ID || q.userID != ep.ReceiverUserID {
		return 0, badRequest(ephQueryElsewhere)
	}
	if !ep.Replace {
		return 0, nil
	}
	if q.ephemeralID != 0 { // "Must be False for callback queries from ephemeral messages"
		return 0, badRequest(ephNoReplace)
	}
	return q.msgID, nil
}

// dropLocked decides whether the next ephemeral message is lost: the n-th is when the share of
// n sends first reaches a whole message more.
func (s *Server) dropLocked() bool {
	s.eph.sent++
	n := float64(s.eph.sent)
	if math.Floor(n*s.eph.share) > math.Floor((n-1)*s.eph.share) {
		s.eph.dropped++
		return true
	}
	return false
}

func (s *Server) wireEphemeralLocked(c *chatState, m *ephMsg) *wireEphemeral {
	w := s.wireLocked(c, &msgState{thread: m.thread, from: s.bot, date: m.date, editDate: m.editDate,
		text: m.text, entities: m.entities, keyboard: m.keyboard})
	out := &wireEphemeral{wireMessage: *w, EphemeralMessageID: m.id}
	if u := s.users[m.receiver]; u != nil {
		recv := u.user
		out.ReceiverUser = &recv
	}
	return out
}

// ephemeralTargetLocked finds the ephemeral message an edit or a delete names; missing is the
// answer when there is none for that receiver.
func (s *Server) ephemeralTargetLocked(p params, missing string) (*chatState, *ephMsg, *APIError) {
	if s.eph.unknown {
		return nil, nil, methodNotFound
	}
	c, e := s.chatLocked(p)
	if e != nil {
		return nil, nil, e
	}
	if e := s.limitLocked(c); e != nil {
		return nil, nil, e
	}
	receiver, _ := p.int64("receiver_user_id")
	m := s.ephemeralLocked(c.chat.ID, p.int("ephemeral_message_id"))
	if m == nil || m.receiver != receiver {
		return nil, nil, badRequest(missing)
	}
	return c, m, nil
}

// ephemeralLocked returns ephemeral message id of a chat, nil when there is none or it was deleted.
func (s *Server) ephemeralLocked(chatID int64, id int) *ephMsg {
	for _, m := range s.eph.msgs[chatID] {
		if m.id == id && !m.deleted {
			return m
		}
	}
	return nil
}

func (s *Server) editEphemeralMessageText(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, m, e := s.ephemeralTargetLocked(p, ephToEdit)
	if e != nil {
		return nil, e
	}
	text, ents, e := parseText(p)
	if e != nil {
		return nil, e
	}
	// As editMessageText: an edit without reply_markup removes the keyboard.
	kb, e := parseKeyboard(p["reply_markup"])
	if e == nil {
		e = checkWebApps(c, kb)
	}
	if e != nil {
		return nil, e
	}
	if text == m.text && slices.Equal(ents, m.entities) && sameKeyboard(kb, m.keyboard) {
		return nil, badRequest(notModified)
	}
	m.text, m.entities, m.keyboard, m.parseMode = text, ents, kb, p["parse_mode"]
	m.editDate = s.clock.Now()
	s.notifyLocked()
	return true, nil
}

func (s *Server) editEphemeralMessageReplyMarkup(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, m, e := s.ephemeralTargetLocked(p, ephToEdit)
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
	return true, nil
}

func (s *Server) deleteEphemeralMessage(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, m, e := s.ephemeralTargetLocked(p, ephToDelete)
	if e != nil {
		return nil, e
	}
	m.deleted = true
	s.notifyLocked()
	return true, nil
}

// seenBy reports whether user sees ephemeral message m: theirs, delivered, not deleted.
func (m *ephMsg) seenBy(user int64) bool { return m.receiver == user && !m.dropped && !m.deleted }

// hiddenLocked reports whether user sees an ephemeral message in place of message id of chat c.
func (s *Server) hiddenLocked(c *chatState, user int64, id int) bool {
	for _, m := range s.eph.msgs[c.chat.ID] {
		if m.replaces == id && m.seenBy(user) {
			return true
		}
	}
	return false
}

func (s *Server) ephSnapshotLocked(c *chatState, m *ephMsg) *Message {
	out := &Message{
		ChatID: c.chat.ID, ThreadID: m.thread, From: s.bot, FromBot: true, Text: m.text,
		Entities: slices.Clone(m.entities), ParseMode: m.parseMode, Date: m.date, EditDate: m.editDate,
		EphemeralID: m.id, ReceiverID: m.receiver,
	}
	for _, row := range m.keyboard {
		out.Keyboard = append(out.Keyboard, slices.Clone(row))
	}
	return out
}

// pressEphemeralLocked is press for an ephemeral message: only its receiver sees it.
func (u *User) pressEphemeralLocked(c *chatState, msg *Message, pick func(*Message) (string, error)) (*Query, error) {
	s := u.s
	m := s.ephemeralLocked(c.chat.ID, msg.EphemeralID)
	switch {
	case m == nil:
		return nil, fmt.Errorf("telegramtest: ephemeral message %d in chat %d is gone", msg.EphemeralID, msg.ChatID)
	case m.receiver != u.ID():
		return nil, fmt.Errorf("telegramtest: user %d cannot see ephemeral message %d of user %d", u.ID(), m.id, m.receiver)
	case m.dropped:
		return nil, fmt.Errorf("telegramtest: ephemeral message %d never reached user %d (DropEphemeral)", m.id, u.ID())
	case c.botStatus != botMember:
		return nil, fmt.Errorf("telegramtest: the bot cannot receive presses in chat %d", msg.ChatID)
	}
	data, err := pick(s.ephSnapshotLocked(c, m))
	if err != nil {
		return nil, err
	}
	return s.queryLocked(u, c, s.wireEphemeralLocked(c, m), data, 0, m.id), nil
}

// Ephemeral returns the ephemeral messages u sees in chat (or in its topic) now, oldest first:
// theirs, delivered and not deleted, as edited. Nobody else sees them, and Chat.Messages, the
// chat's history, never has them.
func (u *User) Ephemeral(chat *Chat) []*Message {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chat.id]
	var out []*Message
	for _, m := range s.eph.msgs[chat.id] {
		if m.seenBy(u.ID()) && (chat.thread == 0 || m.thread == chat.thread) {
			out = append(out, s.ephSnapshotLocked(c, m))
		}
	}
	return out
}

// LastEphemeral returns the newest ephemeral message u sees in chat, or nil.
func (u *User) LastEphemeral(chat *Chat) *Message {
	ms := u.Ephemeral(chat)
	if len(ms) == 0 {
		return nil
	}
	return ms[len(ms)-1]
}

// WaitEphemeral waits until u sees an ephemeral message in chat matching pred (checked after
// every change) and returns the newest match.
func (u *User) WaitEphemeral(chat *Chat, timeout time.Duration, pred func(*Message) bool) (*Message, error) {
	var found *Message
	err := u.s.WaitFor(timeout, func() bool {
		ms := u.Ephemeral(chat)
		for i := len(ms) - 1; i >= 0; i-- {
			if pred(ms[i]) {
				found = ms[i]
				return true
			}
		}
		return false
	})
	if err != nil {
		return nil, fmt.Errorf("telegramtest: user %d sees no matching ephemeral message in chat %d: %w", u.ID(), chat.id, err)
	}
	return found, nil
}

// View returns chat (or its topic) as u sees it now, oldest first: its history with u's
// ephemeral messages among it, each after the message that was newest when it was sent, or in
// place of the message it replaced (which u then does not see).
func (u *User) View(chat *Chat) []*Message {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chat.id]
	var mine []*ephMsg
	in := map[int]*ephMsg{} // replaced message id → the ephemeral message shown in its place
	for _, m := range s.eph.msgs[chat.id] {
		if !m.seenBy(u.ID()) || chat.thread != 0 && m.thread != chat.thread {
			continue
		}
		if r := c.message(m.replaces); r != nil {
			in[r.id] = m
			continue
		}
		mine = append(mine, m)
	}
	var out []*Message
	for _, h := range c.messages {
		for len(mine) > 0 && mine[0].after < h.id {
			out = append(out, s.ephSnapshotLocked(c, mine[0]))
			mine = mine[1:]
		}
		if h.deleted || (chat.thread != 0 && h.thread != chat.thread) {
			continue
		}
		if m := in[h.id]; m != nil {
			out = append(out, s.ephSnapshotLocked(c, m))
			continue
		}
		out = append(out, s.snapshotLocked(c, h))
	}
	for _, m := range mine {
		out = append(out, s.ephSnapshotLocked(c, m))
	}
	return out
}
