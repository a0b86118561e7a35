package ingest

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/internal/clock"
	"github.com/trickchef/trickchef/bot/safe"
)

// Updates come in at least once and take effect exactly once. Fetching
// (Poll, or the webhook) only puts each update into its chat's inbox in
// the store and confirms it to Telegram; RunInbox applies each chat's
// updates in order, chats independently, so a slow chat never holds up
// another or the next fetch. An update leaves its inbox only once applied,
// and a redelivered one is recognised by its id, recorded with the change
// it made. (go-telegram/bot's own Start and WebhookHandler confirm before
// handling, so a crash there loses updates; we don't use them.)

// AllowedUpdates are the update types the bot asks Telegram for (polling
// and the webhook alike): chat_member tells it of a person who left a group
// where the bot is an administrator (Telegram sends it nowhere else, and
// only when asked), so their seat and their view of its tables go at once.
func AllowedUpdates() []string {
	return []string{"message", "callback_query", "my_chat_member", "chat_member"}
}

// Poller reads updates with getUpdates long polling.
type Poller struct {
	// APIURL is the Bot API server (https://api.telegram.org by default).
	APIURL string
	Token  string
	// Timeout is the long-poll wait Telegram may hold a request for.
	Timeout time.Duration
	Client  *http.Client
}

// apiResult is the Bot API's response envelope.
type apiResult struct {
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  struct {
		RetryAfter int `json:"retry_after"`
	} `json:"parameters"`
}

// GetUpdates fetches the updates after offset (waiting up to Timeout).
// Errors never contain the token.
func (p *Poller) GetUpdates(ctx context.Context, offset int64) ([]*models.Update, error) {
	body, err := json.Marshal(map[string]any{
		"offset":          offset,
		"timeout":         int(p.Timeout / time.Second),
		"allowed_updates": AllowedUpdates(),
	})
	if err != nil {
		return nil, err
	}
	url := strings.TrimRight(p.APIURL, "/") + "/bot" + p.Token + "/getUpdates"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, errors.New("getUpdates: bad API URL")
	}
	req.Header.Set("Content-Type", "application/json")
	client := p.Client
	if client == nil {
		client = &http.Client{Timeout: p.Timeout + 10*time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("getUpdates: %s", strings.ReplaceAll(err.Error(), p.Token, "***"))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("getUpdates: read: %w", err)
	}
	var r apiResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("getUpdates: HTTP %d, undecodable body", resp.StatusCode)
	}
	if !r.OK {
		return nil, &APIError{Code: r.ErrorCode, Description: r.Description, RetryAfter: r.Parameters.RetryAfter}
	}
	var ups []*models.Update
	if err := json.Unmarshal(r.Result, &ups); err != nil {
		return nil, fmt.Errorf("getUpdates: decode: %w", err)
	}
	return ups, nil
}

// APIError is an error answer of the Bot API.
type APIError struct {
	Code        int
	Description string
	RetryAfter  int
}

func (e *APIError) Error() string { return fmt.Sprintf("bot api %d: %s", e.Code, e.Description) }

// UpdateSource yields updates after an offset (Poller does).
type UpdateSource interface {
	GetUpdates(ctx context.Context, offset int64) ([]*models.Update, error)
}

// Poll fetches updates from src until ctx is done and puts each into its
// chat's inbox; asking for the next batch confirms the last one, so a
// batch is confirmed only once it is in the store. Run applies them.
func (in *Ingestion) Poll(ctx context.Context, src UpdateSource) error {
	var offset int64
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		ups, err := src.GetUpdates(ctx, offset)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			wait := backoff
			var apiErr *APIError
			if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 {
				wait = time.Duration(apiErr.RetryAfter) * time.Second
			}
			in.log.Warn().Err(err).Dur("wait", wait).Msg("getUpdates failed")
			clock.Sleep(ctx, wait)
			backoff = min(backoff*2, 5*time.Second)
			continue
		}
		if len(ups) == 0 {
			backoff = 100 * time.Millisecond
			continue
		}
		// A fetched batch is stored even when we are asked to stop: it
		// costs one round trip, and spares Telegram sending it again.
		ictx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
		err = in.ingest(ictx, ups)
		cancel()
		if err != nil {
			// Not confirmed: the same batch comes again (an update stored
			// twice is kept once).
			in.log.Error().Err(err).Msg("updates not stored; they will be fetched again")
			clock.Sleep(ctx, backoff)
			backoff = min(backoff*2, 5*time.Second)
			continue
		}
		backoff = 100 * time.Millisecond
		offset = ups[len(ups)-1].ID + 1
	}
	return nil
}

// handleSafely applies an update and turns a panic into an error (logged
// with its stack and counted), so a bug in one handler never takes the
// process down.
func (in *Ingestion) handleSafely(ctx context.Context, u *models.Update) (err error) {
	start := time.Now()
	log := in.log.With().Int64("update", u.ID).Logger()
	if v := safe.Call(log, in.metrics.Panic, "handling an update", func() { err = in.handle(ctx, u) }); v != nil {
		err = fmt.Errorf("handler panic: %v", v)
	}
	in.metrics.ObserveUpdate(u, time.Since(start), err)
	in.log.Debug().Int64("update", u.ID).Dur("took", time.Since(start)).Err(err).Msg("update handled")
	return err
}

// chatOf is the chat whose order an update must keep (0 when none).
func chatOf(u *models.Update) int64 {
	switch {
	case u.Message != nil:
		return u.Message.Chat.ID
	case u.CallbackQuery != nil && u.CallbackQuery.Message.Message != nil:
		return u.CallbackQuery.Message.Message.Chat.ID
	case u.CallbackQuery != nil:
		return u.CallbackQuery.From.ID
	case u.MyChatMember != nil:
		return u.MyChatMember.Chat.ID
	case u.ChatMember != nil:
		return u.ChatMember.Chat.ID
	}
	return 0
}

// Webhook receives updates pushed by Telegram. It refuses a request
// without the right secret (401) and answers 200 as soon as the update is
// in its chat's inbox (Run applies it); any other answer makes Telegram
// deliver it again.
func (in *Ingestion) Webhook(secret string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		got := r.Header.Get("X-Telegram-Bot-Api-Secret-Token")
		if secret == "" || subtle.ConstantTimeCompare([]byte(got), []byte(secret)) != 1 {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		var u models.Update
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&u); err != nil {
			http.Error(w, "bad update", http.StatusBadRequest)
			return
		}
		if err := in.ingest(r.Context(), []*models.Update{&u}); err != nil {
			in.log.Error().Err(err).Int64("update", u.ID).Msg("webhook update not stored")
			http.Error(w, "try again", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
}

// callTimeout bounds one store round trip or Bot API call made outside a
// handler (storing a batch, marking an update handled, answering a flood).
const callTimeout = 5 * time.Second
