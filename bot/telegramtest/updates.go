package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/go-telegram/bot/models"
)

// pendingUpdate is an update encoded when it happened, so it shows the state of that moment.
type pendingUpdate struct {
	id   int64
	kind string // allowed_updates name
	raw  json.RawMessage
}

// Wire types: models.InlineKeyboardButton always encodes copy_text, which Telegram never sends.
type wireButton struct {
	Text         string `json:"text"`
	URL          string `json:"url,omitempty"`
	CallbackData string `json:"callback_data,omitempty"`
	WebApp       *struct {
		URL string `json:"url"`
	} `json:"web_app,omitempty"`
}

type wireMarkup struct {
	InlineKeyboard [][]wireButton `json:"inline_keyboard"`
}

type wireMessage struct {
	models.Message
	ReplyMarkup *wireMarkup `json:"reply_markup,omitempty"`
}

type wireCallback struct {
	ID           string      `json:"id"`
	From         models.User `json:"from"`
	Message      any         `json:"message,omitempty"` // *wireMessage, or *wireEphemeral for a press on one
	ChatInstance string      `json:"chat_instance"`
	Data         string      `json:"data,omitempty"`
}

type wireUpdate struct {
	UpdateID      int64                     `json:"update_id"`
	Message       *wireMessage              `json:"message,omitempty"`
	EditedMessage *wireMessage              `json:"edited_message,omitempty"`
	CallbackQuery *wireCallback             `json:"callback_query,omitempty"`
	MyChatMember  *models.ChatMemberUpdated `json:"my_chat_member,omitempty"`
	ChatMember    *models.ChatMemberUpdated `json:"chat_member,omitempty"`
}

// wireLocked renders a message the way the Bot API returns it.
func (s *Server) wireLocked(c *chatState, m *msgState) *wireMessage {
	w := &wireMessage{Message: models.Message{
		ID: m.id, Date: int(m.date.Unix()), Chat: c.chat, Text: m.text, Entities: m.entities,
	}}
	from := m.from
	w.From = &from
	if m.asChat {
		sc := c.chat
		w.SenderChat = &sc
	}
	if !m.editDate.IsZero() {
		w.EditDate = int(m.editDate.Unix())
	}
	if c.chat.IsForum && m.thread != 0 {
		w.MessageThreadID, w.IsTopicMessage = m.thread, true
	}
	if m.replyTo != 0 {
		if r := c.message(m.replyTo); r != nil {
			rw := s.wireLocked(c, &msgState{id: r.id, thread: r.thread, from: r.from, date: r.date, text: r.text, entities: r.entities})
			w.ReplyToMessage = &rw.Message
		}
	}
	if m.service != nil {
		m.service(&w.Message)
	}
	if d := m.doc; d != nil {
		w.Document = &models.Document{FileID: d.FileID, FileUniqueID: d.FileID[4:20], FileName: d.FileName, MimeType: d.MimeType, FileSize: int64(len(d.Data))}
		w.Caption, w.CaptionEntities = m.caption, m.captionEntities
	}
	if m.keyboard != nil {
		mk := &wireMarkup{}
		for _, row := range m.keyboard {
			var wr []wireButton
			for _, b := range row {
				wb := wireButton{Text: b.Text, URL: b.URL, CallbackData: b.CallbackData}
				if b.WebApp != "" {
					wb.WebApp = &struct {
						URL string `json:"url"`
					}{b.WebApp}
				}
				wr = append(wr, wb)
			}
			mk.InlineKeyboard = append(mk.InlineKeyboard, wr)
		}
		w.ReplyMarkup = mk
	}
	return w
}

// defaultAllowed is Telegram's set when allowed_updates is empty: all but chat_member and reactions.
func (s *Server) allowedLocked(kind string) bool {
	if s.allowed == nil {
		return kind != "chat_member" && kind != "message_reaction" && kind != "message_reaction_count"
	}
	return s.allowed[kind]
}

func (s *Server) pushLocked(kind string, u *wireUpdate) {
	if !s.allowedLocked(kind) {
		return
	}
	u.UpdateID = s.nextUpdateID
	s.nextUpdateID++
	raw, err := json.Marshal(u)
	if err != nil {
		panic(fmt.Sprintf("telegramtest: encode update: %v", err))
	}
	s.updates = append(s.updates, pendingUpdate{id: u.UpdateID, kind: kind, raw: raw})
	s.notifyLocked()
}

// pushMessageLocked emits a message update unless the bot cannot see the chat.
func (s *Server) pushMessageLocked(c *chatState, m *msgState) {
	if c.botStatus != botMember || c.migratedTo != 0 && m.service == nil {
		return
	}
	s.pushLocked("message", &wireUpdate{Message: s.wireLocked(c, m)})
}

func chatMember(status string, u models.User) models.ChatMember {
	switch status {
	case botKicked:
		return models.ChatMember{Type: models.ChatMemberTypeBanned, Banned: &models.ChatMemberBanned{User: &u}}
	case botLeft:
		return models.ChatMember{Type: models.ChatMemberTypeLeft, Left: &models.ChatMemberLeft{User: &u}}
	}
	return models.ChatMember{Type: models.ChatMemberTypeMember, Member: &models.ChatMemberMember{User: &u}}
}

func (s *Server) pushMyChatMemberLocked(c *chatState, by models.User, from, to string) {
	s.pushLocked("my_chat_member", &wireUpdate{MyChatMember: &models.ChatMemberUpdated{
		Chat: c.chat, From: by, Date: int(s.clock.Now().Unix()),
		OldChatMember: chatMember(from, s.bot), NewChatMember: chatMember(to, s.bot),
	}})
}

// pushChatMemberLocked tells the bot that a member's status changed from
// before to after, by by: a chat_member update, which Telegram sends only
// where the bot is an administrator (and only when allowed_updates names
// it).
func (s *Server) pushChatMemberLocked(c *chatState, by models.User, before, after models.ChatMember) {
	if !c.botAdmin || c.botStatus != botMember || c.migratedTo != 0 {
		return
	}
	s.pushLocked("chat_member", &wireUpdate{ChatMember: &models.ChatMemberUpdated{
		Chat: c.chat, From: by, Date: int(s.clock.Now().Unix()), OldChatMember: before, NewChatMember: after,
	}})
}

// CallbackAnswer is the bot's answerCallbackQuery for a press.
type CallbackAnswer struct {
	Text      string
	ShowAlert bool
	URL       string
	CacheTime int
}

type queryState struct {
	id        string
	pressedAt time.Time
	answer    *CallbackAnswer
	done      chan struct{} // closed when answered
	// Where the press was, which an ephemeral message sent in answer to it is checked against.
	chatID      int64
	userID      int64
	msgID       int // the pressed message; 0 for an ephemeral one
	ephemeralID int // the pressed ephemeral message's ephemeral_message_id
}

// Query is a pressed button whose answer may still be pending.
type Query struct {
	ID string
	s  *Server
	q  *queryState
}

// ErrNotAnswered is returned when the bot did not answer a press in time.
var ErrNotAnswered = errors.New("telegramtest: callback query not answered in time")

// Wait blocks until the bot answers the query or timeout passes (ErrNotAnswered).
func (q *Query) Wait(timeout time.Duration) (*CallbackAnswer, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-q.q.done:
		q.s.mu.Lock()
		defer q.s.mu.Unlock()
		a := *q.q.answer
		return &a, nil
	case <-t.C:
		return nil, fmt.Errorf("%w (query %s, %v)", ErrNotAnswered, q.ID, timeout)
	case <-q.s.ctx.Done():
		return nil, errors.New("telegramtest: server closed")
	}
}

// Answer returns the answer if the bot gave one already.
func (q *Query) Answer() (*CallbackAnswer, bool) {
	q.s.mu.Lock()
	defer q.s.mu.Unlock()
	if q.q.answer == nil {
		return nil, false
	}
	a := *q.q.answer
	return &a, true
}

// Press presses the inline button with exactly this text on the current version of msg,
// then waits (WithPressTimeout, default 10 s) for the bot's answerCallbackQuery.
func (u *User) Press(msg *Message, button string) (*CallbackAnswer, error) {
	q, err := u.PressAsync(msg, button)
	if err != nil {
		return nil, err
	}
	return q.Wait(u.s.pressTimeout)
}

// PressAsync presses a button by its exact text without waiting for the answer.
func (u *User) PressAsync(msg *Message, button string) (*Query, error) {
	return u.press(msg, func(cur *Message) (string, error) {
		b, ok := cur.Button(button)
		if !ok {
			var have []string
			for _, b := range cur.Buttons() {
				have = append(have, b.Text)
			}
			return "", fmt.Errorf("telegramtest: no button %q on message %d (buttons: %q)", button, msg.ID, have)
		}
		if b.CallbackData == "" {
			return "", fmt.Errorf("telegramtest: button %q has no callback_data", button)
		}
		return b.CallbackData, nil
	})
}

// PressFunc presses the first button matching pred (e.g. by callback data) and waits like Press.
func (u *User) PressFunc(msg *Message, pred func(Button) bool) (*CallbackAnswer, error) {
	q, err := u.press(msg, func(cur *Message) (string, error) {
		b, ok := cur.ButtonFunc(pred)
		if !ok || b.CallbackData == "" {
			return "", fmt.Errorf("telegramtest: no matching callback button on message %d", msg.ID)
		}
		return b.CallbackData, nil
	})
	if err != nil {
		return nil, err
	}
	return q.Wait(u.s.pressTimeout)
}

// PressData sends a callback query with arbitrary data for msg (no matching button needed,
// e.g. to replay stale or malformed payloads), then waits for the answer like Press.
func (u *User) PressData(msg *Message, data string) (*CallbackAnswer, error) {
	q, err := u.PressDataAsync(msg, data)
	if err != nil {
		return nil, err
	}
	return q.Wait(u.s.pressTimeout)
}

// PressDataAsync is PressData without waiting.
func (u *User) PressDataAsync(msg *Message, data string) (*Query, error) {
	return u.press(msg, func(*Message) (string, error) { return data, nil })
}

func (u *User) press(msg *Message, pick func(*Message) (string, error)) (*Query, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[msg.ChatID]
	if c == nil {
		return nil, fmt.Errorf("telegramtest: unknown chat %d", msg.ChatID)
	}
	if c.user != nil && c.user != u.st {
		return nil, fmt.Errorf("telegramtest: user %d cannot see private chat %d", u.ID(), msg.ChatID)
	}
	if msg.EphemeralID != 0 {
		return u.pressEphemeralLocked(c, msg, pick)
	}
	m := c.message(msg.ID)
	if m == nil {
		return nil, fmt.Errorf("telegramtest: message %d in chat %d is gone", msg.ID, msg.ChatID)
	}
	if s.hiddenLocked(c, u.ID(), m.id) {
		return nil, fmt.Errorf("telegramtest: user %d sees an ephemeral message in place of message %d", u.ID(), msg.ID)
	}
	if c.botStatus != botMember || (c.user != nil && c.user.blocked) {
		return nil, fmt.Errorf("telegramtest: the bot cannot receive presses in chat %d", msg.ChatID)
	}
	data, err := pick(s.snapshotLocked(c, m))
	if err != nil {
		return nil, err
	}
	return s.queryLocked(u, c, s.wireLocked(c, m), data, m.id, 0), nil
}

// queryLocked sends the bot the callback query of u's press on msg (the wire form of message
// msgID, or of ephemeral message ephemeralID) in chat c.
func (s *Server) queryLocked(u *User, c *chatState, msg any, data string, msgID, ephemeralID int) *Query {
	s.nextQueryID++
	id := strconv.FormatInt(int64(u.ID())<<20+s.nextQueryID, 10)
	q := &queryState{id: id, pressedAt: s.clock.Now(), done: make(chan struct{}),
		chatID: c.chat.ID, userID: u.ID(), msgID: msgID, ephemeralID: ephemeralID}
	s.queries[id] = q
	s.pushLocked("callback_query", &wireUpdate{CallbackQuery: &wireCallback{
		ID: id, From: u.st.user, Message: msg, Data: data,
		ChatInstance: strconv.FormatUint(uint64(c.chat.ID)*2654435761, 10),
	}})
	return &Query{ID: id, s: s, q: q}
}

type webhookState struct {
	url       string
	secret    string
	retryAt   time.Time // real time
	lastErrAt time.Time
	lastErr   string
}

// setAllowedLocked applies allowed_updates (a JSON array; empty keeps the previous setting, like Telegram).
func (s *Server) setAllowedLocked(raw string) *APIError {
	if raw == "" {
		return nil
	}
	var list []string
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		return badRequest("can't parse allowed updates")
	}
	if len(list) == 0 {
		s.allowed = nil
	} else {
		s.allowed = map[string]bool{}
		for _, k := range list {
			s.allowed[k] = true
		}
	}
	kept := s.updates[:0]
	for _, u := range s.updates {
		if s.allowedLocked(u.kind) {
			kept = append(kept, u)
		}
	}
	s.updates = kept
	return nil
}

func (s *Server) getUpdates(ctx context.Context, p params) (any, *APIError) {
	const conflict = "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.webhook.url != "" {
		return nil, &APIError{Code: 409, Description: conflict}
	}
	if e := s.setAllowedLocked(p["allowed_updates"]); e != nil {
		return nil, e
	}
	offset, _ := p.int64("offset")
	switch {
	case offset < 0:
		if n := int(-offset); n < len(s.updates) {
			s.updates = s.updates[len(s.updates)-n:]
		}
	case offset > 0:
		i := 0
		for i < len(s.updates) && s.updates[i].id < offset {
			i++
		}
		s.updates = s.updates[i:]
	}
	limit := p.int("limit")
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout := time.Duration(max(0, p.int("timeout"))) * time.Second
	s.pollGen++
	gen := s.pollGen
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for len(s.updates) == 0 && timeout > 0 {
		ch := s.changed
		s.mu.Unlock()
		expired := false
		select {
		case <-ch:
		case <-deadline.C:
			expired = true
		case <-ctx.Done():
			expired = true
		case <-s.ctx.Done():
			expired = true
		}
		s.mu.Lock()
		if s.webhook.url != "" {
			return nil, &APIError{Code: 409, Description: conflict}
		}
		if s.pollGen != gen {
			return nil, &APIError{Code: 409, Description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"}
		}
		if expired {
			break
		}
	}
	out := []json.RawMessage{}
	for _, u := range s.updates[:min(limit, len(s.updates))] {
		out = append(out, u.raw)
	}
	return out, nil
}

func (s *Server) setWebhook(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	url := p["url"]
	if e := s.setAllowedLocked(p["allowed_updates"]); e != nil {
		return nil, e
	}
	if sec := p["secret_token"]; sec != "" && !validSecret(sec) {
		return nil, badRequest("secret token contains unallowed characters")
	}
	if p.bool("drop_pending_updates") {
		s.updates = nil
	}
	s.webhook = webhookState{url: url, secret: p["secret_token"]}
	s.pollGen++ // ends a running long poll with 409
	s.notifyLocked()
	return true, nil
}

func validSecret(sec string) bool {
	if len(sec) > 256 {
		return false
	}
	for _, r := range sec {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func (s *Server) deleteWebhook(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.bool("drop_pending_updates") {
		s.updates = nil
	}
	s.webhook = webhookState{}
	s.notifyLocked()
	return true, nil
}

func (s *Server) getWebhookInfo(_ context.Context, _ params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	info := models.WebhookInfo{URL: s.webhook.url, PendingUpdateCount: len(s.updates), LastErrorMessage: s.webhook.lastErr}
	if !s.webhook.lastErrAt.IsZero() {
		info.LastErrorDate = int(s.webhook.lastErrAt.Unix())
	}
	for k := range s.allowed {
		info.AllowedUpdates = append(info.AllowedUpdates, k)
	}
	return info, nil
}

// deliverLoop posts pending updates to the webhook one at a time, in order, until each gets a 2xx.
func (s *Server) deliverLoop() {
	defer s.wg.Done()
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.closed {
		ready := s.webhook.url != "" && len(s.updates) > 0
		var wait time.Duration
		if ready {
			wait = time.Until(s.webhook.retryAt)
		}
		if !ready || wait > 0 {
			ch := s.changed
			s.mu.Unlock()
			var timer <-chan time.Time
			var t *time.Timer
			if ready {
				t = time.NewTimer(wait)
				timer = t.C
			}
			select {
			case <-ch:
			case <-timer:
			case <-s.ctx.Done():
			}
			if t != nil {
				t.Stop()
			}
			s.mu.Lock()
			continue
		}
		u, url, secret := s.updates[0], s.webhook.url, s.webhook.secret
		s.mu.Unlock()
		err := s.post(url, secret, u.raw)
		s.mu.Lock()
		if err != nil {
			s.webhook.retryAt = time.Now().Add(s.retryDelay)
			s.webhook.lastErrAt, s.webhook.lastErr = s.clock.Now(), err.Error()
		} else if len(s.updates) > 0 && s.updates[0].id == u.id {
			s.updates = s.updates[1:]
		}
		s.notifyLocked()
	}
}

func (s *Server) post(url, secret string, body []byte) error {
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("Connection refused")
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("Wrong response from the webhook: %s", resp.Status)
	}
	return nil
}

// Unanswered counts the presses made at least age ago (by the server's
// clock) that the bot has not answered: past Telegram's time for an
// answer such a press is lost to the person — the spinner just stops.
func (s *Server) Unanswered(age time.Duration) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, q := range s.queries {
		if q.answer == nil && s.clock.Now().Sub(q.pressedAt) >= age {
			n++
		}
	}
	return n
}
