// Package ephemeral sends, edits and deletes Telegram's ephemeral messages: a message in a group
// that only one member (and the bot) sees, outside the chat's history (Bot API 10.2; 10.3 moved
// the send options into ephemeral_message_parameters). go-telegram/bot v1.19 knows neither the
// parameter nor the methods, so this is a small client of our own, on the same server URL and
// token. What Telegram promises, and where each rule was read, is in docs/bot.md «The hand in
// the group: what Telegram promises»: the message may never arrive, so nothing may depend on it.
package ephemeral

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
)

// ErrUnsupported: the Bot API server does not know ephemeral messages (one older than 10.2,
// as a self-hosted server may be). The bot plays in private there.
var ErrUnsupported = errors.New("ephemeral: the Bot API server does not know ephemeral messages")

// ErrNotModified: an edit that would change nothing, which Telegram refuses.
var ErrNotModified = errors.New("ephemeral: message is not modified")

// Error is the Bot API's refusal of a call.
type Error struct {
	Method      string
	Code        int // 400, 403, 404, 429, ...
	Description string
	// RetryAfter is how long a 429 asks to wait.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	return fmt.Sprintf("ephemeral: %s: %d %s", e.Method, e.Code, e.Description)
}

// Is makes errors.Is(err, ErrUnsupported) hold for a server's 404 (it has no such method) and
// errors.Is(err, ErrNotModified) for "message is not modified".
func (e *Error) Is(target error) bool {
	switch target {
	case ErrUnsupported:
		return e.Code == http.StatusNotFound
	case ErrNotModified:
		return e.Code == http.StatusBadRequest && strings.Contains(e.Description, "message is not modified")
	}
	return false
}

// PublicError: the server answered a send with an ordinary message (message_id, no
// ephemeral_message_id). A server older than 10.2 reads only the parameters it knows, so it
// posted the text for everyone in the chat; the caller should delete MessageID at once.
// errors.Is(err, ErrUnsupported) holds.
type PublicError struct {
	ChatID    int64
	MessageID int
}

func (e *PublicError) Error() string {
	return fmt.Sprintf("ephemeral: the server posted message %d in chat %d for everyone", e.MessageID, e.ChatID)
}

func (e *PublicError) Is(target error) bool { return target == ErrUnsupported }

// Ref names one ephemeral message, as Telegram's edits and deletes do.
type Ref struct {
	ChatID     int64
	ReceiverID int64
	// ID is the ephemeral_message_id, unique in the chat while the message lives: Telegram may
	// reuse it once the message is deleted or expires.
	ID int
}

// Content is what an ephemeral message shows.
type Content struct {
	Text      string
	ParseMode models.ParseMode
	// Markup is the inline keyboard; nil: none (an edit without it takes the buttons away).
	Markup    *models.InlineKeyboardMarkup
	NoPreview bool // link previews off
}

// Message is an ephemeral message to send.
type Message struct {
	ChatID     int64 // a group or supergroup
	ThreadID   int   // a forum topic, or 0
	ReceiverID int64
	// CallbackQueryID is the receiver's press this answers, in this chat, within 15 seconds of
	// it. Empty only when the bot is the chat's administrator.
	CallbackQueryID string
	// InPlace shows the message in place of the pressed one, for the receiver alone. Not for a
	// press on an ephemeral message, which is edited instead.
	InPlace bool
	Content
}

// Client calls the Bot API's ephemeral methods. It is safe for concurrent use.
type Client struct {
	base  string // <server>/bot<token>/
	token string // kept out of every error
	http  *http.Client
}

// New returns a client of the Bot API server at apiURL (https://api.telegram.org, or the URL
// the bot's other client is given) for token; hc nil means a client with a minute's timeout.
func New(apiURL, token string, hc *http.Client) *Client {
	if hc == nil {
		hc = &http.Client{Timeout: time.Minute}
	}
	return &Client{base: strings.TrimRight(apiURL, "/") + "/bot" + token + "/", token: token, http: hc}
}

// wireContent puts what a message shows into a request body; a nil Markup leaves the buttons out.
func wireContent(body map[string]any, c Content) {
	body["text"] = c.Text
	if c.ParseMode != "" {
		body["parse_mode"] = c.ParseMode
	}
	if c.Markup != nil {
		body["reply_markup"] = c.Markup
	}
	if c.NoPreview {
		body["link_preview_options"] = map[string]bool{"is_disabled": true}
	}
}

// Send sends m and returns its Ref. An error is an *Error, a *PublicError, or the transport's.
func (c *Client) Send(ctx context.Context, m Message) (Ref, error) {
	ep := map[string]any{"receiver_user_id": m.ReceiverID}
	if m.CallbackQueryID != "" {
		ep["callback_query_id"] = m.CallbackQueryID
	}
	if m.InPlace {
		ep["replace_callback_query_message"] = true
	}
	body := map[string]any{"chat_id": m.ChatID, "ephemeral_message_parameters": ep}
	// 10.2 named the receiver and the press as parameters of their own;
	// 10.3 moved them into the object. Each server reads its own and
	// ignores the other's, so a 10.2 server does not post the hand for
	// everyone.
	body["receiver_user_id"] = m.ReceiverID
	if m.CallbackQueryID != "" {
		body["callback_query_id"] = m.CallbackQueryID
	}
	if m.ThreadID != 0 {
		body["message_thread_id"] = m.ThreadID
	}
	wireContent(body, m.Content)
	var sent struct {
		MessageID          int `json:"message_id"`
		EphemeralMessageID int `json:"ephemeral_message_id"`
		Chat               struct {
			ID int64 `json:"id"`
		} `json:"chat"`
	}
	if err := c.call(ctx, "sendMessage", body, &sent); err != nil {
		return Ref{}, err
	}
	if sent.EphemeralMessageID == 0 {
		return Ref{}, &PublicError{ChatID: sent.Chat.ID, MessageID: sent.MessageID}
	}
	return Ref{ChatID: m.ChatID, ReceiverID: m.ReceiverID, ID: sent.EphemeralMessageID}, nil
}

func (r Ref) body() map[string]any {
	return map[string]any{"chat_id": r.ChatID, "receiver_user_id": r.ReceiverID, "ephemeral_message_id": r.ID}
}

// EditText replaces the text and the buttons of message r. Telegram does not promise the
// receiver sees the edit.
func (c *Client) EditText(ctx context.Context, r Ref, content Content) error {
	body := r.body()
	wireContent(body, content)
	return c.call(ctx, "editEphemeralMessageText", body, nil)
}

// EditMarkup replaces the buttons of message r (nil: takes them away).
func (c *Client) EditMarkup(ctx context.Context, r Ref, markup *models.InlineKeyboardMarkup) error {
	body := r.body()
	if markup != nil {
		body["reply_markup"] = markup
	}
	return c.call(ctx, "editEphemeralMessageReplyMarkup", body, nil)
}

// Delete deletes message r.
func (c *Client) Delete(ctx context.Context, r Ref) error {
	return c.call(ctx, "deleteEphemeralMessage", r.body(), nil)
}

// Probe asks whether the server knows ephemeral messages, before the first send on it: a
// server that predates them would post a send for everyone. It deletes an ephemeral message
// that cannot exist in chatID (a group the bot is in, for a member receiverID) — one call
// counted against that group's limits: nil means the server knows the method (it answered
// "not found"), an error that Is ErrUnsupported that it does not; any other error says nothing
// either way (a 429, a kicked bot, the network).
func (c *Client) Probe(ctx context.Context, chatID, receiverID int64) error {
	err := c.Delete(ctx, Ref{ChatID: chatID, ReceiverID: receiverID, ID: math.MaxInt32})
	var e *Error
	if err == nil || errors.As(err, &e) && e.Code == http.StatusBadRequest {
		return nil
	}
	return err
}

// envelope is the Bot API's answer.
type envelope struct {
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  struct {
		RetryAfter int `json:"retry_after"`
	} `json:"parameters"`
}

// call posts body to method as JSON and decodes the result into out (nil: ignored).
func (c *Client) call(ctx context.Context, method string, body map[string]any, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("ephemeral: %s: %w", method, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+method, bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("ephemeral: %s: bad API URL", method)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("ephemeral: %s: %s", method, strings.ReplaceAll(err.Error(), c.token, "***"))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("ephemeral: %s: read: %w", method, err)
	}
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		// A server's own 404 page (no Bot API envelope) still says it has no such method.
		if resp.StatusCode == http.StatusNotFound {
			return &Error{Method: method, Code: http.StatusNotFound, Description: "Not Found"}
		}
		return fmt.Errorf("ephemeral: %s: HTTP %d, undecodable body", method, resp.StatusCode)
	}
	if !env.OK {
		code := env.ErrorCode
		if code == 0 {
			code = resp.StatusCode
		}
		return &Error{Method: method, Code: code, Description: env.Description,
			RetryAfter: time.Duration(env.Parameters.RetryAfter) * time.Second}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.Result, out); err != nil {
		return fmt.Errorf("ephemeral: %s: decode: %w", method, err)
	}
	return nil
}
