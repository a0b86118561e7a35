package store

import (
	"bytes"
	"context"
	"sort"
	"time"

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

// deadKeyParts reads a key of dl/: when, which update, which chat.
func deadKeyParts(k []byte) (at time.Time, id int64, chat string) {
	return fromOrderedMillis(k[:8]), i64(k[8:16]), string(k[16:])
}

// DeadLetter moves update e out of chat's inbox into the dead letters, with
// reason and the time, in one transaction that also keeps them within
// their bounds (see (*Redis).DeadLetter).
func (b *Bolt) DeadLetter(ctx context.Context, chat string, e InboxEntry, reason string) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		ids := tx.Bucket([]byte(bucketDeadID))
		idKey := deadIDKey(chat, e.ID)
		now := b.now()
		if ids.Get(idKey) == nil {
			key := append(append(orderedMillis(now), u64(e.ID)...), chat...)
			if err := tx.Bucket([]byte(bucketDead)).Put(key, encodeDeadLetter(reason, e.Data)); err != nil {
				return err
			}
			if err := ids.Put(idKey, key); err != nil {
				return err
			}
		}
		if err := expireAt(tx, expDead, []byte(chat), now.Add(b.set.retention.DeadLetters)); err != nil {
			return err
		}
		if err := b.boundDead(tx, now); err != nil {
			return err
		}
		return handled(tx, chat, e.ID)
	})
}

// boundDead deletes the dead letters past their retention, a chat's past
// DeadLettersPerChat (its oldest) and the chats' past DeadLetterChats
// (those whose last is oldest). Dead letters are few: it looks at them all.
func (b *Bolt) boundDead(tx *bolt.Tx, now time.Time) error {
	dead := tx.Bucket([]byte(bucketDead))
	cutoff := orderedMillis(now.Add(-b.set.retention.DeadLetters))
	var gone [][]byte
	byChat := map[string][][]byte{} // chat → its keys in dl/, oldest first
	c := dead.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if bytes.Compare(k[:8], cutoff) < 0 {
			gone = append(gone, clone(k))
			continue
		}
		_, _, chat := deadKeyParts(k)
		byChat[chat] = append(byChat[chat], clone(k))
	}
	chats := make([]string, 0, len(byChat))
	for chat, keys := range byChat {
		chats = append(chats, chat)
		if extra := len(keys) - b.set.deadPerChat; extra > 0 {
			gone = append(gone, keys[:extra]...)
		}
	}
	if extra := len(chats) - b.set.deadChats; extra > 0 {
		newest := func(chat string) []byte { keys := byChat[chat]; return keys[len(keys)-1] }
		sort.Slice(chats, func(i, j int) bool { return bytes.Compare(newest(chats[i]), newest(chats[j])) < 0 })
		for _, chat := range chats[:extra] {
			gone = append(gone, byChat[chat]...)
			if err := unexpire(tx, expDead, []byte(chat)); err != nil {
				return err
			}
		}
	}
	for _, k := range gone {
		if err := deleteDead(tx, k); err != nil {
			return err
		}
	}
	return nil
}

// deleteDead deletes the dead letter whose key in dl/ is k.
func deleteDead(tx *bolt.Tx, k []byte) error {
	_, id, chat := deadKeyParts(k)
	if err := tx.Bucket([]byte(bucketDeadID)).Delete(deadIDKey(chat, id)); err != nil {
		return err
	}
	return tx.Bucket([]byte(bucketDead)).Delete(k)
}

// DeadLetters returns the n newest dead letters of all chats, newest first.
func (b *Bolt) DeadLetters(ctx context.Context, n int) ([]DeadLetter, error) {
	var out []DeadLetter
	cutoff := orderedMillis(b.now().Add(-b.set.retention.DeadLetters))
	err := b.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketDead)).Cursor()
		for k, v := c.Last(); k != nil && len(out) < n && bytes.Compare(k[:8], cutoff) >= 0; k, v = c.Prev() {
			reason, data, err := decodeDeadLetter(v)
			if err != nil || len(k) < 16 {
				return err
			}
			at, id, chat := deadKeyParts(k)
			out = append(out, DeadLetter{Chat: chat, Entry: InboxEntry{ID: id, Data: clone(data)}, Reason: reason, At: at})
		}
		return nil
	})
	return out, err
}

// DeadLetterCount counts the dead letters of all chats (for metrics).
func (b *Bolt) DeadLetterCount(ctx context.Context) (int64, error) {
	var n int64
	cutoff := orderedMillis(b.now().Add(-b.set.retention.DeadLetters))
	err := b.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketDead)).Cursor()
		for k, _ := c.Seek(cutoff); k != nil; k, _ = c.Next() {
			n++
		}
		return nil
	})
	return n, err
}

// Requeue puts a dead letter back into its chat's inbox, as if it had just
// come in at now, and makes the chat due then (see (*Redis).Requeue).
func (b *Bolt) Requeue(ctx context.Context, chat string, id int64, now time.Time) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		key := tx.Bucket([]byte(bucketDeadID)).Get(deadIDKey(chat, id))
		if key == nil {
			return ErrNotFound
		}
		key = clone(key)
		_, data, err := decodeDeadLetter(tx.Bucket([]byte(bucketDead)).Get(key))
		if err != nil {
			return err
		}
		in, err := tx.Bucket([]byte(bucketInbox)).CreateBucketIfNotExists([]byte(chat))
		if err != nil {
			return err
		}
		if in.Get(u64(id)) == nil {
			if err := in.Put(u64(id), inboxValue(now, data)); err != nil {
				return err
			}
		}
		if err := expireAt(tx, expInbox, []byte(chat), b.now().Add(b.set.retention.Inboxes)); err != nil {
			return err
		}
		if err := deleteDead(tx, key); err != nil {
			return err
		}
		return boltQueue(tx, Inboxes).mark(chat, now)
	})
}

// DropDeadLetter deletes chat's dead letter id; ErrNotFound when there is
// none.
func (b *Bolt) DropDeadLetter(ctx context.Context, chat string, id int64) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		key := tx.Bucket([]byte(bucketDeadID)).Get(deadIDKey(chat, id))
		if key == nil {
			return ErrNotFound
		}
		return deleteDead(tx, clone(key))
	})
}
