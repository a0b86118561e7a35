package web

import (
	"context"
	"errors"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/store"
)

// Who may see a table on the «Стол» page: its seated players, and members
// of its group. The page names the table by an unguessable token (never
// the chat id, which would let anyone scan for the groups that use the
// bot), and a request for a table the viewer may not see is answered
// exactly as one for a token that does not exist.

// webTokenLen is the length of a token (record.NewWebToken): 16 random
// bytes, base64url.
const webTokenLen = 22

// validWebToken reports whether s could be a token, so garbage costs no
// store read.
func validWebToken(s string) bool {
	if len(s) != webTokenLen {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// Token is the token of table id for the page's links, minted now when
// the table has none. Tools and tests use it; the bot's own links carry
// the token minted with the table's commits.
func (w *Web) Token(ctx context.Context, id string) (string, error) {
	if _, _, err := record.ParseID(id); err != nil {
		return "", ErrBadRequest
	}
	t, version, err := w.tables.Load(ctx, id)
	if err != nil {
		return "", err
	}
	if version == 0 {
		return "", ErrNotFound
	}
	if t.WebToken != "" {
		return t.WebToken, nil
	}
	return w.tables.GiveToken(ctx, id)
}

// webTableID resolves a page's token to its table's id; ErrNotFound
// for anything else.
func (w *Web) webTableID(ctx context.Context, token string) (string, error) {
	if !validWebToken(token) {
		return "", ErrNotFound
	}
	id, err := w.store.Pointer(ctx, store.WebTokenKey(token))
	if errors.Is(err, store.ErrNotFound) {
		return "", ErrNotFound
	}
	return id, err
}

// webLoad is the table a token names, as user may see it: ErrNotFound
// when there is none or the user is neither seated at it nor a member of
// its group.
func (w *Web) webLoad(ctx context.Context, token string, user int64) (*record.Table, int64, error) {
	id, err := w.webTableID(ctx, token)
	if err != nil {
		return nil, 0, err
	}
	t, version, err := w.tables.Load(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	if version == 0 || t.WebToken != token {
		return nil, 0, ErrNotFound
	}
	ok, err := w.webAllowed(ctx, t, user)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0, ErrNotFound
	}
	return t, version, nil
}

// webAllowed reports whether user may see table t: a seated player always
// (no call), anyone else if Telegram says they are in its group (asked
// once per user and group per memberTTL).
func (w *Web) webAllowed(ctx context.Context, t *record.Table, user int64) (bool, error) {
	if t.SeatOf(user) >= 0 {
		return true, nil
	}
	for _, s := range t.Seats {
		if s.Leaver != nil && s.Leaver.UserID == user {
			return true, nil
		}
	}
	return w.members.member(ctx, w.tg, t.ChatID, user, w.now(), w.log)
}

// Membership is cached: a yes for memberTTL, a no for a shorter time (a
// person just added to the group should not wait long), in a map of
// bounded size.
const (
	memberTTL       = 10 * time.Minute
	nonMemberTTL    = time.Minute
	memberCacheSize = 20000
)

type memberKey struct{ chat, user int64 }

type memberEntry struct {
	ok    bool
	until time.Time
}

// memberCache remembers Telegram's answers to getChatMember in this
// process; concurrent questions about the same pair wait for one call.
type memberCache struct {
	mu      sync.Mutex
	max     int
	entries map[memberKey]memberEntry
	flight  map[memberKey]chan struct{}
}

func newMemberCache(max int) *memberCache {
	return &memberCache{max: max, entries: map[memberKey]memberEntry{}, flight: map[memberKey]chan struct{}{}}
}

// member answers from the cache or asks Telegram.
func (c *memberCache) member(ctx context.Context, tg Members, chat, user int64, now time.Time, log zerolog.Logger) (bool, error) {
	k := memberKey{chat, user}
	for {
		c.mu.Lock()
		if e, ok := c.entries[k]; ok && now.Before(e.until) {
			c.mu.Unlock()
			return e.ok, nil
		}
		wait, busy := c.flight[k]
		if !busy {
			wait = make(chan struct{})
			c.flight[k] = wait
			c.mu.Unlock()
			break
		}
		c.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	ok, err := askMember(ctx, tg, chat, user)
	c.mu.Lock()
	defer c.mu.Unlock()
	close(c.flight[k])
	delete(c.flight, k)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		// Telegram refused the question (no such user, the bot left the
		// group): not a member, for now.
		log.Warn().Err(err).Int64("chat", chat).Msg("web: getChatMember failed")
	}
	ttl := nonMemberTTL
	if ok {
		ttl = memberTTL
	}
	if len(c.entries) >= c.max {
		for key, e := range c.entries {
			if !now.Before(e.until) {
				delete(c.entries, key)
			}
		}
		if len(c.entries) >= c.max {
			clear(c.entries) // a flood of distinct viewers: start afresh
		}
	}
	c.entries[k] = memberEntry{ok: ok, until: now.Add(ttl)}
	return ok, nil
}

// askMember asks Telegram whether user is in the group chat.
func askMember(ctx context.Context, tg Members, chat, user int64) (bool, error) {
	cm, err := tg.GetChatMember(ctx, &tgbot.GetChatMemberParams{ChatID: chat, UserID: user})
	if err != nil {
		return false, err
	}
	switch cm.Type {
	case models.ChatMemberTypeOwner, models.ChatMemberTypeAdministrator, models.ChatMemberTypeMember:
		return true, nil
	case models.ChatMemberTypeRestricted:
		return cm.Restricted != nil && cm.Restricted.IsMember, nil
	}
	return false, nil
}
