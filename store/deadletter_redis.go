package store

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// Dead-letter keys (P the prefix, C a chat): a chat's dead letters share
// its inbox's slot, so one script moves an update from one to the other.
//
//	P dl:{C}        zset  update id → given up at (ms, server TIME)
//	P dl:{C}:e      hash  update id → reason and update (encodeDeadLetter)
//	P deadletters   zset  chat → its last dead letter's time (ms): the index
//
// The index is in another slot, so it is written first: a process that dies
// in between leaves a chat indexed with no dead letter (skipped, and
// dropped from the index by the next reader), never a dead letter no one
// can find.

func (r *Redis) deadKey(chat string) string        { return r.prefix + "dl:{" + chat + "}" }
func (r *Redis) deadEntriesKey(chat string) string { return r.prefix + "dl:{" + chat + "}:e" }
func (r *Redis) deadIndexKey() string              { return r.prefix + "deadletters" }

// deadLetterScript moves one update from a chat's inbox to its dead
// letters. Its first write is the ZADD, which Redis refuses under
// maxmemory (OOM): then nothing is written and the update stays in the
// inbox.
//
// KEYS[1] in:{C}, KEYS[2] dl:{C}, KEYS[3] dl:{C}:e
// ARGV[1] update id, ARGV[2] time (ms), ARGV[3] encoded reason and update,
// ARGV[4] retention (ms)
// Returns 1 when recorded, 0 when it was a dead letter already.
const deadLetterScript = `
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])
  return 0
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
return 1
`

// unindexScript drops a chat from the dead-letter index unless a dead
// letter came in since it was read.
//
// KEYS[1] deadletters
// ARGV[1] chat, ARGV[2] its score when read
const unindexScript = `
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
`

// DeadLetter moves update e out of chat's inbox into the dead letters,
// with reason and the time, atomically: the update is in one or the other,
// never neither. Giving the same update up again changes nothing. Under
// maxmemory the move is refused as a whole and the update stays waiting.
func (r *Redis) DeadLetter(ctx context.Context, chat string, e InboxEntry, reason string) error {
	now, err := r.c.Time(ctx).Result()
	if err != nil {
		return fmt.Errorf("store: dead letter %s %d: %w", chat, e.ID, err)
	}
	at := toMillis(now)
	if err := r.c.ZAddArgs(ctx, r.deadIndexKey(), redis.ZAddArgs{GT: true,
		Members: []redis.Z{{Score: float64(at), Member: chat}}}).Err(); err != nil {
		return fmt.Errorf("store: dead letter %s %d: %w", chat, e.ID, err)
	}
	keys := []string{r.inboxKey(chat), r.deadKey(chat), r.deadEntriesKey(chat)}
	err = r.deadLetter.Run(ctx, r.c, keys, e.ID, at, encodeDeadLetter(reason, e.Data), r.set.retention.DeadLetters.Milliseconds()).Err()
	if err != nil {
		return fmt.Errorf("store: dead letter %s %d: %w", chat, e.ID, err)
	}
	return nil
}

// indexedChats reads the dead-letter index, newest chat first: all of it
// when n ≤ 0.
func (r *Redis) indexedChats(ctx context.Context, n int) ([]redis.Z, error) {
	zs, err := r.c.ZRevRangeWithScores(ctx, r.deadIndexKey(), 0, int64(n)-1).Result()
	if err != nil {
		return nil, fmt.Errorf("store: dead letters: %w", err)
	}
	return zs, nil
}

// unindex drops chats whose dead letters all expired from the index.
func (r *Redis) unindex(ctx context.Context, empty []redis.Z) {
	for _, z := range empty {
		_ = r.dropIndex.Run(ctx, r.c, []string{r.deadIndexKey()}, z.Member, z.Score).Err()
	}
}

// DeadLetters returns the n newest dead letters of all chats, newest first.
func (r *Redis) DeadLetters(ctx context.Context, n int) ([]DeadLetter, error) {
	if n <= 0 {
		return nil, nil
	}
	// The n newest dead letters are among the n chats with the newest
	// last dead letter.
	chats, err := r.indexedChats(ctx, n)
	if err != nil {
		return nil, err
	}
	pipe := r.c.Pipeline()
	ids := make([]*redis.ZSliceCmd, len(chats))
	entries := make([]*redis.MapStringStringCmd, len(chats))
	for i, z := range chats {
		chat := z.Member.(string)
		ids[i] = pipe.ZRevRangeWithScores(ctx, r.deadKey(chat), 0, int64(n)-1)
		entries[i] = pipe.HGetAll(ctx, r.deadEntriesKey(chat))
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("store: dead letters: %w", err)
	}
	var out []DeadLetter
	var empty []redis.Z
	for i, z := range chats {
		chat := z.Member.(string)
		if len(ids[i].Val()) == 0 {
			empty = append(empty, z)
		}
		for _, d := range ids[i].Val() {
			id := d.Member.(string)
			raw, ok := entries[i].Val()[id]
			if !ok {
				continue
			}
			reason, data, err := decodeDeadLetter([]byte(raw))
			n, perr := strconv.ParseInt(id, 10, 64)
			if err != nil || perr != nil {
				return nil, fmt.Errorf("store: dead letter %s %s: malformed", chat, id)
			}
			out = append(out, DeadLetter{Chat: chat, Entry: InboxEntry{ID: n, Data: data}, Reason: reason, At: fromMillis(int64(d.Score))})
		}
	}
	r.unindex(ctx, empty)
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// DeadLetterCount counts the dead letters of all chats (for metrics): a
// round trip for the index and one pipeline over the chats in it.
func (r *Redis) DeadLetterCount(ctx context.Context) (int64, error) {
	chats, err := r.indexedChats(ctx, 0)
	if err != nil {
		return 0, err
	}
	pipe := r.c.Pipeline()
	cards := make([]*redis.IntCmd, len(chats))
	for i, z := range chats {
		cards[i] = pipe.ZCard(ctx, r.deadKey(z.Member.(string)))
	}
	if len(chats) > 0 {
		if _, err := pipe.Exec(ctx); err != nil {
			return 0, fmt.Errorf("store: dead letter count: %w", err)
		}
	}
	var total int64
	var empty []redis.Z
	for i, c := range cards {
		if c.Val() == 0 {
			empty = append(empty, chats[i])
		}
		total += c.Val()
	}
	r.unindex(ctx, empty)
	return total, nil
}
