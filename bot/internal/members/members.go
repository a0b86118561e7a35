// Package members answers "may this person play at, or look at, a table of
// that chat?" for everyone who must keep a stranger out: a lobby's buttons,
// a join link and the «Стол» page ask the one question, Belongs. In a group
// Telegram's getChatMember is asked once per person and group for a short
// while and the answer cached in this process, so a busy table page or a
// shared link costs a handful of calls, not one per request; when Telegram
// says someone left or joined (a chat_member update, a service message),
// Forget drops what was cached at once.
package members

import (
	"context"
	"errors"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"
)

// Membership is cached: a yes for MemberTTL (short, so that someone who
// left the group without Telegram telling the bot — it is told only where
// it is an administrator, or by a service message small groups show — is
// out within a minute: the «Стол» streams ask again every 15 s), a no for
// NonMemberTTL (someone just added is told of by the same updates, which
// drop it), in a map of bounded size. A question Telegram failed to answer
// (a timeout, a 5xx) keeps an earlier yes for RetryTTL rather than turning
// every member out while Telegram has trouble.
const (
	MemberTTL    = 40 * time.Second
	NonMemberTTL = time.Minute
	RetryTTL     = 10 * time.Second
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

// flight is a question to Telegram in progress; forgotten marks one whose
// answer came from before a Forget and must not be cached.
type flight struct {
	done      chan struct{}
	forgotten bool
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
	flight  map[key]*flight
}

// New is an empty cache asking tg.
func New(tg Asker, now func() time.Time, log zerolog.Logger) *Cache {
	return &Cache{tg: tg, now: now, log: log, max: cacheSize, entries: map[key]entry{}, flight: map[key]*flight{}}
}

// Belongs reports whether user may sit at, run or look at the tables of
// chat: in a private chat (a practice table) only its own person; in a
// group, a member as Telegram says (Member). This is the one check the
// lobby's buttons, «🔁 Сыграть ещё», a join link and the page make.
func (c *Cache) Belongs(ctx context.Context, chat, user int64) (bool, error) {
	if chat > 0 {
		return chat == user, nil
	}
	return c.Member(ctx, chat, user)
}

// BelongsNow is Belongs asked of Telegram afresh, not from the cache: for
// seating someone on another's press («🔁 Сыграть ещё» seats the last
// game's players), where a person who left without the bot being told
// must not be seated from a cached yes.
func (c *Cache) BelongsNow(ctx context.Context, chat, user int64) (bool, error) {
	if chat > 0 {
		return chat == user, nil
	}
	c.Forget(chat, user)
	return c.Member(ctx, chat, user)
}

// Forget drops what is known of user in group chat: Telegram said they
// left, were removed or joined. A question asked before and answered after
// is not cached either.
func (c *Cache) Forget(chat, user int64) {
	k := key{chat, user}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, k)
	if f := c.flight[k]; f != nil {
		f.forgotten = true
	}
}

// Member reports whether user is in group chat, from the cache or from
// Telegram. Telegram refusing the question (no such user, the bot left
// the group) is a no; Telegram not answering keeps an earlier yes for a
// while and is a no otherwise; only ctx ending is an error.
func (c *Cache) Member(ctx context.Context, chat, user int64) (bool, error) {
	k := key{chat, user}
	var f *flight
	for {
		c.mu.Lock()
		if e, ok := c.entries[k]; ok && c.now().Before(e.until) {
			c.mu.Unlock()
			return e.ok, nil
		}
		wait, busy := c.flight[k]
		if !busy {
			f = &flight{done: make(chan struct{})}
			c.flight[k] = f
			c.mu.Unlock()
			break
		}
		c.mu.Unlock()
		select {
		case <-wait.done:
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	ok, err := ask(ctx, c.tg, chat, user)
	c.mu.Lock()
	defer c.mu.Unlock()
	close(f.done)
	delete(c.flight, k)
	ttl := NonMemberTTL
	if ok {
		ttl = MemberTTL
	}
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		c.log.Warn().Err(err).Int64("chat", chat).Msg("getChatMember failed")
		if !refused(err) {
			// No answer: an earlier yes holds a little longer.
			prev, had := c.entries[k]
			ok, ttl = had && prev.ok, RetryTTL
		}
	}
	if f.forgotten {
		return ok, nil // asked before Telegram said they left or joined
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

// refused reports whether Telegram answered the question with a refusal
// (no such person there, the bot is not in the group, the group moved):
// a definite no.
func refused(err error) bool {
	return errors.Is(err, tgbot.ErrorBadRequest) || errors.Is(err, tgbot.ErrorForbidden) || tgbot.IsMigrateError(err)
}

// ask asks Telegram whether user is in the group chat.
func ask(ctx context.Context, tg Asker, chat, user int64) (bool, error) {
	cm, err := tg.GetChatMember(ctx, &tgbot.GetChatMemberParams{ChatID: chat, UserID: user})
	if err != nil {
		return false, err
	}
	return IsMember(cm), nil
}

// IsMember reports whether a chat member's status is one of a member of
// the group: its owner, an administrator, a member, or restricted but
// still in it.
func IsMember(cm *models.ChatMember) bool {
	switch cm.Type {
	case models.ChatMemberTypeOwner, models.ChatMemberTypeAdministrator, models.ChatMemberTypeMember:
		return true
	case models.ChatMemberTypeRestricted:
		return cm.Restricted != nil && cm.Restricted.IsMember
	}
	return false
}
