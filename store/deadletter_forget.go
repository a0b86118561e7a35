package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
	bolt "go.etcd.io/bbolt"
)

// Forgetting a person reaches the dead letters too: an update given up in
// a group's chat holds its sender's id and name (and those of anyone it
// quotes). The store cannot read an update, so the runtime says which
// dead letters hold the person, and DropDeadLetters deletes them, in every
// chat. It reads every dead letter: forgetting is rare, and dead letters
// are few and kept DeadLetterRetention.

// DropDeadLetters deletes every dead letter, of any chat, that match says
// to (match is called once per dead letter and must not use the store),
// and returns how many went. A dead letter that cannot be read is left for
// a person to look at.
func (r *Redis) DropDeadLetters(ctx context.Context, match func(DeadLetter) bool) (int, error) {
	chats, err := r.indexedChats(ctx, 0)
	if err != nil {
		return 0, err
	}
	if len(chats) == 0 {
		return 0, nil
	}
	pipe := r.c.Pipeline()
	ids := make([]*redis.ZSliceCmd, len(chats))
	entries := make([]*redis.MapStringStringCmd, len(chats))
	for i, z := range chats {
		chat := z.Member.(string)
		ids[i] = pipe.ZRangeWithScores(ctx, r.deadKey(chat), 0, -1)
		entries[i] = pipe.HGetAll(ctx, r.deadEntriesKey(chat))
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return 0, fmt.Errorf("store: drop dead letters: %w", err)
	}
	dropped := 0
	for i, z := range chats {
		chat := z.Member.(string)
		var gone []string
		for _, d := range ids[i].Val() {
			id := d.Member.(string)
			reason, data, err := decodeDeadLetter([]byte(entries[i].Val()[id]))
			n, perr := strconv.ParseInt(id, 10, 64)
			if err != nil || perr != nil {
				continue
			}
			if match(DeadLetter{Chat: chat, Entry: InboxEntry{ID: n, Data: data}, Reason: reason, At: fromMillis(int64(d.Score))}) {
				gone = append(gone, id)
			}
		}
		if len(gone) == 0 {
			continue
		}
		// Both keys are in the chat's slot: one transaction.
		tx := r.c.TxPipeline()
		tx.ZRem(ctx, r.deadKey(chat), toAny(gone)...)
		tx.HDel(ctx, r.deadEntriesKey(chat), gone...)
		if _, err := tx.Exec(ctx); err != nil {
			return dropped, fmt.Errorf("store: drop dead letters of %s: %w", chat, err)
		}
		dropped += len(gone)
	}
	return dropped, nil
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// DropDeadLetters deletes every dead letter that match says to (see
// (*Redis).DropDeadLetters), in one transaction.
func (b *Bolt) DropDeadLetters(ctx context.Context, match func(DeadLetter) bool) (int, error) {
	dropped := 0
	err := b.db.Update(func(tx *bolt.Tx) error {
		dead, ids := tx.Bucket([]byte(bucketDead)), tx.Bucket([]byte(bucketDeadID))
		var gone [][]byte
		c := dead.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(k) < 16 {
				continue
			}
			reason, data, err := decodeDeadLetter(v)
			if err != nil {
				continue
			}
			d := DeadLetter{Chat: string(k[16:]), Entry: InboxEntry{ID: i64(k[8:16]), Data: clone(data)}, Reason: reason, At: fromOrderedMillis(k[:8])}
			if match(d) {
				gone = append(gone, clone(k))
			}
		}
		for _, k := range gone {
			if err := dead.Delete(k); err != nil {
				return err
			}
			if err := ids.Delete(deadIDKey(string(k[16:]), i64(k[8:16]))); err != nil {
				return err
			}
		}
		dropped = len(gone)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: drop dead letters: %w", err)
	}
	return dropped, nil
}
