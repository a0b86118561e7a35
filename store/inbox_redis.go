package store

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Inbox keys (P the prefix, C a chat):
//
//	P in:{C}  zset  the chat's waiting updates: member "<id>:<data>", score id
//	P inbox   zset  chat → when it is due (ms); a claimed chat's lease end
//
// A chat's entries and the due set live in different Cluster slots, so
// Ingest writes the entries first and marks the chat due after; a crash in
// between leaves entries unmarked only for updates that were never
// confirmed to Telegram, which fetches them again.

func (r *Redis) inboxKey(chat string) string { return r.prefix + "in:{" + chat + "}" }
func (r *Redis) inboxDueKey() string         { return r.prefix + "inbox" }

// ingestScript adds entries to a chat's inbox, skipping ids already there.
//
// KEYS[1] in:{C}
// ARGV pairs: id, member
const ingestScript = `
for i = 1, #ARGV, 2 do
  if redis.call('ZCOUNT', KEYS[1], ARGV[i], ARGV[i]) == 0 then
    redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i+1])
  end
end
return 0
`

// Ingest adds updates to a chat's inbox (an update already waiting there is
// not added twice) and makes the chat due at now unless it is claimed.
func (r *Redis) Ingest(ctx context.Context, chat string, entries []InboxEntry, now time.Time) error {
	if len(entries) == 0 {
		return nil
	}
	args := make([]any, 0, 2*len(entries))
	for _, e := range entries {
		id := strconv.FormatInt(e.ID, 10)
		args = append(args, id, id+":"+string(e.Data))
	}
	if err := r.ingest.Run(ctx, r.c, []string{r.inboxKey(chat)}, args...).Err(); err != nil {
		return fmt.Errorf("store: ingest %s: %w", chat, err)
	}
	return r.markDue(ctx, chat, now)
}

// markDue makes a chat due at now unless it is already in the due set
// (claimed, or due already).
func (r *Redis) markDue(ctx context.Context, chat string, now time.Time) error {
	err := r.c.ZAddArgs(ctx, r.inboxDueKey(), redis.ZAddArgs{
		NX:      true,
		Members: []redis.Z{{Score: float64(toMillis(now)), Member: chat}},
	}).Err()
	if err != nil {
		return fmt.Errorf("store: mark %s due: %w", chat, err)
	}
	return nil
}

// Inbox returns up to n of a chat's waiting updates, oldest first.
func (r *Redis) Inbox(ctx context.Context, chat string, n int) ([]InboxEntry, error) {
	members, err := r.c.ZRange(ctx, r.inboxKey(chat), 0, int64(n)-1).Result()
	if err != nil {
		return nil, fmt.Errorf("store: inbox %s: %w", chat, err)
	}
	out := make([]InboxEntry, 0, len(members))
	for _, m := range members {
		id, data, ok := bytes.Cut([]byte(m), []byte(":"))
		n, err := strconv.ParseInt(string(id), 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("store: inbox %s: malformed entry", chat)
		}
		out = append(out, InboxEntry{ID: n, Data: data})
	}
	return out, nil
}

// Handled removes an applied update from its chat's inbox.
func (r *Redis) Handled(ctx context.Context, chat string, id int64) error {
	s := strconv.FormatInt(id, 10)
	if err := r.c.ZRemRangeByScore(ctx, r.inboxKey(chat), s, s).Err(); err != nil {
		return fmt.Errorf("store: handled %s: %w", chat, err)
	}
	return nil
}

// ClaimChats claims up to limit chats whose inbox is due at now, for lease.
func (r *Redis) ClaimChats(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Claim, error) {
	return r.claimFrom(ctx, r.inboxDueKey(), now, lease, limit)
}

// ReleaseChat ends a chat's claim. With next set the chat is due again
// then; with next zero it leaves the due set, unless updates came in
// meanwhile, which make it due at now.
func (r *Redis) ReleaseChat(ctx context.Context, c Claim, next, now time.Time) error {
	nextArg := ""
	if !next.IsZero() {
		nextArg = strconv.FormatInt(toMillis(next), 10)
	}
	if err := r.release.Run(ctx, r.c, []string{r.inboxDueKey()}, c.Table, toMillis(c.Lease), nextArg).Err(); err != nil {
		return fmt.Errorf("store: release chat %s: %w", c.Table, err)
	}
	if !next.IsZero() {
		return nil
	}
	// An update ingested after our last look and marked while we still
	// held the chat would otherwise wait for nobody.
	n, err := r.c.ZCard(ctx, r.inboxKey(c.Table)).Result()
	if err != nil {
		return fmt.Errorf("store: release chat %s: %w", c.Table, err)
	}
	if n > 0 {
		return r.markDue(ctx, c.Table, now)
	}
	return nil
}

// NextChat returns when the earliest chat is due; ok is false when none is.
func (r *Redis) NextChat(ctx context.Context) (time.Time, bool, error) {
	zs, err := r.c.ZRangeWithScores(ctx, r.inboxDueKey(), 0, 0).Result()
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next chat: %w", err)
	}
	if len(zs) == 0 {
		return time.Time{}, false, nil
	}
	return fromMillis(int64(zs[0].Score)), true, nil
}
