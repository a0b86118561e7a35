// Package members answers "is this person in that group?" for everyone
// who must not show a group's table to a stranger: the «Стол» page and a
// join link. Telegram's getChatMember is asked once per person and group
// for a while and the answer cached in this process, so a busy table page
// or a shared link costs a handful of calls, not one per request.
package members

import (
	"context"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"
)

// Membership is cached: a yes for MemberTTL, a no for a shorter time (a
// person just added to the group should not wait long), in a map of
// bounded size.
const (
	MemberTTL    = 10 * time.Minute
	NonMemberTTL = time.Minute
	cacheSize    = 20000
)

// Asker asks Telegram about a chat member.
type Asker interface {
	GetChatMember(ctx context.Context, p *tgbot.GetChatMemberParams) (*models.ChatMember, error)
}

type key struct{ chat, user int64 }

type entry struct {
	ok    bool
	until time.Time
}

// Cache remembers Telegram's answers to getChatMember; concurrent
// questions about the same pair wait for one call.
type Cache struct {
	tg  Asker
	now func() time.Time
	log zerolog.Logger

	mu      sync.Mutex
	max     int
	entries map[key]entry
	flight  map[key]chan struct{}
}

// New is an empty cache asking tg.
func New(tg Asker, now func() time.Time, log zerolog.Logger) *Cache {
	return &Cache{tg: tg, now: now, log: log, max: cacheSize, entries: map[key]entry{}, flight: map[key]chan struct{}{}}
}

// Member reports whether user is in group chat, from the cache or from
// Telegram. Telegram refusing the question (no such user, the bot left
// the group) is a no, for now; only ctx ending is an error.
func (c *Cache) Member(ctx context.Context, chat, user int64) (bool, error) {
	k := key{chat, user}
	for {
		c.mu.Lock()
		if e, ok := c.entries[k]; ok && c.now().Before(e.until) {
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
	ok, err := ask(ctx, c.tg, chat, user)
	c.mu.Lock()
	defer c.mu.Unlock()
	close(c.flight[k])
	delete(c.flight, k)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		c.log.Warn().Err(err).Int64("chat", chat).Msg("getChatMember failed")
	}
	ttl := NonMemberTTL
	if ok {
		ttl = MemberTTL
	}
	now := c.now()
	if len(c.entries) >= c.max {
		for k, e := range c.entries {
			if !now.Before(e.until) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= c.max {
			clear(c.entries) // a flood of distinct people: start afresh
		}
	}
	c.entries[k] = entry{ok: ok, until: now.Add(ttl)}
	return ok, nil
}

// ask asks Telegram whether user is in the group chat.
func ask(ctx context.Context, tg Asker, chat, user int64) (bool, error) {
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
