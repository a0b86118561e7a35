package store

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

// Dead-letter buckets:
//
//	dl/     given up at (ms) + update id + chat → reason and update (encodeDeadLetter)
//	dlid/   chat + 0x00 + update id → its key in dl/
const (
	bucketDead   = "dl"
	bucketDeadID = "dlid"
)

func deadIDKey(chat string, id int64) []byte { return append(append([]byte(chat), 0), u64(id)...) }

// DeadLetter moves update e out of chat's inbox into the dead letters, with
// reason and the time, in one transaction (see (*Redis).DeadLetter).
func (b *Bolt) DeadLetter(ctx context.Context, chat string, e InboxEntry, reason string) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		ids := tx.Bucket([]byte(bucketDeadID))
		idKey := deadIDKey(chat, e.ID)
		if ids.Get(idKey) == nil {
			key := append(append(orderedMillis(b.now()), u64(e.ID)...), chat...)
			if err := tx.Bucket([]byte(bucketDead)).Put(key, encodeDeadLetter(reason, e.Data)); err != nil {
				return err
			}
			if err := ids.Put(idKey, key); err != nil {
				return err
			}
		}
		if err := expireAt(tx, expDead, []byte(chat), b.now().Add(b.set.retention.DeadLetters)); err != nil {
			return err
		}
		return handled(tx, chat, e.ID)
	})
}

// DeadLetters returns the n newest dead letters of all chats, newest first.
func (b *Bolt) DeadLetters(ctx context.Context, n int) ([]DeadLetter, error) {
	var out []DeadLetter
	err := b.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketDead)).Cursor()
		for k, v := c.Last(); k != nil && len(out) < n; k, v = c.Prev() {
			reason, data, err := decodeDeadLetter(v)
			if err != nil || len(k) < 16 {
				return err
			}
			out = append(out, DeadLetter{Chat: string(k[16:]), Entry: InboxEntry{ID: i64(k[8:16]), Data: clone(data)},
				Reason: reason, At: fromOrderedMillis(k[:8])})
		}
		return nil
	})
	return out, err
}

// DeadLetterCount counts the dead letters of all chats (for metrics).
func (b *Bolt) DeadLetterCount(ctx context.Context) (int64, error) {
	var n int64
	err := b.db.View(func(tx *bolt.Tx) error {
		n = int64(tx.Bucket([]byte(bucketDeadID)).Stats().KeyN)
		return nil
	})
	return n, err
}
