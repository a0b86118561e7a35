package store

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Inbox keys (P the prefix, C a chat):
//
//	P in:{C}  zset  the chat's waiting updates: member "<id>:<ms>:<data>" (inboxMember), score id
//	P inbox … the Inboxes queue (queue_redis.go): chats with updates waiting
//
// A chat's entries and the queue live in different Cluster slots, so
// Ingest writes the entries first and marks the chat due after; a crash in
// between leaves entries unmarked only for updates that were never
// confirmed to Telegram, which fetches them again.

func (r *Redis) inboxKey(chat string) string { return r.prefix + "in:{" + chat + "}" }

// ingestScript adds entries to a chat's inbox, skipping ids already there,
// and keeps the inbox for the retention from now.
//
// KEYS[1] in:{C}
// ARGV[1] retention (ms), then pairs: id, member
const ingestScript = `
for i = 2, #ARGV, 2 do
  if redis.call('ZCOUNT', KEYS[1], ARGV[i], ARGV[i]) == 0 then
    redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i+1])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0
`

// Ingest adds updates to a chat's inbox (an update already waiting there is
// not added twice) and makes the chat due in Inboxes at now unless it is
// due already (a chat waiting to retry keeps its time). A chat that is held
// is due again when its claim is released, so an update that came in
// after the holder's last look is never left waiting for nobody.
func (r *Redis) Ingest(ctx context.Context, chat string, entries []InboxEntry, now time.Time) error {
	if len(entries) == 0 {
		return nil
	}
	args := make([]any, 0, 1+2*len(entries))
	args = append(args, r.set.retention.Inboxes.Milliseconds())
	for _, e := range entries {
		args = append(args, strconv.FormatInt(e.ID, 10), inboxMember(e.ID, now, e.Data))
	}
	if single, ok := r.c.(*redis.Client); ok && r.set.waitReplicas > 0 {
		k := r.queueKeys(Inboxes)
		_, err := r.runWaited(ctx, single, []scriptCall{{r.ingest, []string{r.inboxKey(chat)}, args},
			{r.schedule, []string{k.due, k.held, k.again}, []any{chat, toMillis(now), "mark"}}})
		if err != nil {
			return fmt.Errorf("store: ingest %s: %w", chat, err)
		}
		return nil
	}
	if err := r.ingest.Run(ctx, r.c, []string{r.inboxKey(chat)}, args...).Err(); err != nil {
		return fmt.Errorf("store: ingest %s: %w", chat, err)
	}
	return r.mark(ctx, Inboxes, chat, now)
}

// Inbox returns up to n of a chat's waiting updates, oldest first.
func (r *Redis) Inbox(ctx context.Context, chat string, n int) ([]InboxEntry, error) {
	members, err := r.c.ZRange(ctx, r.inboxKey(chat), 0, int64(n)-1).Result()
	if err != nil {
		return nil, fmt.Errorf("store: inbox %s: %w", chat, err)
	}
	out := make([]InboxEntry, 0, len(members))
	for _, m := range members {
		e, ok := parseInboxMember(m)
		if !ok {
			return nil, fmt.Errorf("store: inbox %s: malformed entry", chat)
		}
		out = append(out, e)
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
