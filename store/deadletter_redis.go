package store

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

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
// letters, then keeps the chat's within its bounds: none given up before
// the cutoff, no more than the newest ARGV[6]. Its first write is the
// ZADD, which Redis refuses under maxmemory (OOM): then nothing is written
// and the update stays in the inbox.
//
// KEYS[1] in:{C}, KEYS[2] dl:{C}, KEYS[3] dl:{C}:e
// ARGV[1] update id, ARGV[2] time (ms), ARGV[3] encoded reason and update,
// ARGV[4] retention (ms), ARGV[5] cutoff (ms: time − retention), ARGV[6]
// the most a chat keeps
// Returns 1 when recorded, 0 when it was a dead letter already.
const deadLetterScript = `
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])
  return 0
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[5])
local extra = redis.call('ZCARD', KEYS[2]) - #gone - tonumber(ARGV[6])
if extra > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[2], #gone, #gone + extra - 1)) do
    table.insert(gone, id)
  end
end
for _, id in ipairs(gone) do
  redis.call('ZREM', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
return 1
`

// trimDeadScript deletes a chat's dead letters given up at or before a
// time: those of a chat dropped from the index (DeadLetterChats).
//
// KEYS[1] dl:{C}, KEYS[2] dl:{C}:e
// ARGV[1] the time (ms)
const trimDeadScript = `
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
end
return 0
`

// requeueScript puts a dead letter back into its chat's inbox, unless it
// changed since it was read (requeued or dropped meanwhile). Its first
// write is the ZADD (refused under maxmemory: then it stays a dead letter).
//
// KEYS[1] in:{C}, KEYS[2] dl:{C}, KEYS[3] dl:{C}:e
// ARGV[1] update id, ARGV[2] the dead letter as read, ARGV[3] its inbox
// member, ARGV[4] the inbox's retention (ms)
// Returns 1 when put back, 0 when there was no such dead letter.
const requeueScript = `
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then
  return 0
end
if redis.call('ZCOUNT', KEYS[1], ARGV[1], ARGV[1]) == 0 then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
`

// dropDeadScript deletes one dead letter.
//
// KEYS[1] dl:{C}, KEYS[2] dl:{C}:e
// ARGV[1] update id
// Returns 1 when deleted, 0 when there was none.
const dropDeadScript = `
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])
`

// unindexScript drops a chat from the dead-letter index unless a dead
// letter came in since it was read.
//
// KEYS[1] deadletters
// ARGV[1] chat, ARGV[2] its score when read
// Returns 1 when dropped.
const unindexScript = `
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
`

// DeadLetter moves update e out of chat's inbox into the dead letters,
// with reason and the time, atomically: the update is in one or the other,
// never neither. Giving the same update up again changes nothing. Under
// maxmemory the move is refused as a whole and the update stays waiting.
// The chat's oldest dead letters past its bound go in the same step; the
// chats past DeadLetterChats right after (boundChats).
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
	ret := r.set.retention.DeadLetters.Milliseconds()
	err = r.deadLetter.Run(ctx, r.c, keys, e.ID, at, encodeDeadLetter(reason, e.Data), ret, at-ret, r.set.deadPerChat).Err()
	if err != nil {
		return fmt.Errorf("store: dead letter %s %d: %w", chat, e.ID, err)
	}
	return r.boundChats(ctx)
}

// boundChats drops the dead letters of the chats past DeadLetterChats,
// those whose last dead letter is oldest: each is taken out of the index
// unless it had a new one meanwhile, then its dead letters up to the time
// the index said are deleted (a newer one, given up in between, stays).
func (r *Redis) boundChats(ctx context.Context) error {
	n, err := r.c.ZCard(ctx, r.deadIndexKey()).Result()
	if err != nil || n <= int64(r.set.deadChats) {
		return err
	}
	over, err := r.c.ZRangeWithScores(ctx, r.deadIndexKey(), 0, n-int64(r.set.deadChats)-1).Result()
	if err != nil {
		return fmt.Errorf("store: bound dead letters: %w", err)
	}
	for _, z := range over {
		chat := z.Member.(string)
		dropped, err := r.dropIndex.Run(ctx, r.c, []string{r.deadIndexKey()}, chat, z.Score).Int()
		if err != nil {
			return fmt.Errorf("store: bound dead letters: %w", err)
		}
		if dropped == 0 {
			continue
		}
		if err := r.trimDead.Run(ctx, r.c, []string{r.deadKey(chat), r.deadEntriesKey(chat)}, int64(z.Score)).Err(); err != nil {
			return fmt.Errorf("store: bound dead letters: %w", err)
		}
	}
	return nil
}

// cutoff is the time before which a dead letter is past its retention.
func (r *Redis) deadCutoff(ctx context.Context) (int64, error) {
	now, err := r.c.Time(ctx).Result()
	if err != nil {
		return 0, err
	}
	return toMillis(now) - r.set.retention.DeadLetters.Milliseconds(), nil
}

// Requeue puts a dead letter back into its chat's inbox, as if it had just
// come in at now, and makes the chat due then (a running bot applies it);
// ErrNotFound when chat has no dead letter id.
func (r *Redis) Requeue(ctx context.Context, chat string, id int64, now time.Time) error {
	sid := strconv.FormatInt(id, 10)
	raw, err := r.c.HGet(ctx, r.deadEntriesKey(chat), sid).Result()
	if errors.Is(err, redis.Nil) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("store: requeue %s %d: %w", chat, id, err)
	}
	_, data, err := decodeDeadLetter([]byte(raw))
	if err != nil {
		return fmt.Errorf("store: requeue %s %d: %w", chat, id, err)
	}
	keys := []string{r.inboxKey(chat), r.deadKey(chat), r.deadEntriesKey(chat)}
	put, err := r.requeue.Run(ctx, r.c, keys, sid, raw, inboxMember(id, now, data), r.set.retention.Inboxes.Milliseconds()).Int()
	if err != nil {
		return fmt.Errorf("store: requeue %s %d: %w", chat, id, err)
	}
	if put == 0 {
		return ErrNotFound
	}
	return r.mark(ctx, Inboxes, chat, now)
}

// DropDeadLetter deletes chat's dead letter id; ErrNotFound when there is
// none.
func (r *Redis) DropDeadLetter(ctx context.Context, chat string, id int64) error {
	n, err := r.dropDead.Run(ctx, r.c, []string{r.deadKey(chat), r.deadEntriesKey(chat)}, id).Int()
	if err != nil {
		return fmt.Errorf("store: drop dead letter %s %d: %w", chat, id, err)
	}
	if n == 0 {
		return ErrNotFound
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
	cutoff, err := r.deadCutoff(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: dead letters: %w", err)
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
			if !ok || int64(d.Score) < cutoff {
				continue // deleted meanwhile, or past its retention
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
	cutoff, err := r.deadCutoff(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: dead letter count: %w", err)
	}
	pipe := r.c.Pipeline()
	cards := make([]*redis.IntCmd, len(chats))
	for i, z := range chats {
		cards[i] = pipe.ZCount(ctx, r.deadKey(z.Member.(string)), strconv.FormatInt(cutoff, 10), "+inf")
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
