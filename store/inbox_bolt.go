package store

import (
	"context"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Inbox buckets (see inbox.go):
//
//	in/<chat>/   id → 0, when it came in (ms, 8 bytes), the update (inboxValue)
//	indue…/      the Inboxes queue (queue_bolt.go)
const bucketInbox = "in"

// Ingest adds updates to a chat's inbox (an update already waiting there is
// not added twice) and makes the chat due in Inboxes at now unless it is
// due already (see (*Redis).Ingest).
func (b *Bolt) Ingest(ctx context.Context, chat string, entries []InboxEntry, now time.Time) error {
	if len(entries) == 0 {
		return nil
	}
	return b.db.Update(func(tx *bolt.Tx) error {
		in, err := tx.Bucket([]byte(bucketInbox)).CreateBucketIfNotExists([]byte(chat))
		if err != nil {
			return err
		}
		for _, e := range entries {
			if in.Get(u64(e.ID)) != nil {
				continue
			}
			if err := in.Put(u64(e.ID), inboxValue(now, e.Data)); err != nil {
				return err
			}
		}
		if err := expireAt(tx, expInbox, []byte(chat), b.now().Add(b.set.retention.Inboxes)); err != nil {
			return err
		}
		return boltQueue(tx, Inboxes).mark(chat, now)
	})
}

// Inbox returns up to n of a chat's waiting updates, oldest first.
func (b *Bolt) Inbox(ctx context.Context, chat string, n int) ([]InboxEntry, error) {
	var out []InboxEntry
	err := b.db.View(func(tx *bolt.Tx) error {
		in := tx.Bucket([]byte(bucketInbox)).Bucket([]byte(chat))
		if in == nil {
			return nil
		}
		c := in.Cursor()
		for k, v := c.First(); k != nil && len(out) < n; k, v = c.Next() {
			out = append(out, parseInboxValue(i64(k), v))
		}
		return nil
	})
	return out, err
}

// Handled removes an applied update from its chat's inbox.
func (b *Bolt) Handled(ctx context.Context, chat string, id int64) error {
	return b.db.Update(func(tx *bolt.Tx) error { return handled(tx, chat, id) })
}

// handled removes an update from its chat's inbox, and the inbox once empty.
func handled(tx *bolt.Tx, chat string, id int64) error {
	root := tx.Bucket([]byte(bucketInbox))
	in := root.Bucket([]byte(chat))
	if in == nil {
		return nil
	}
	if err := in.Delete(u64(id)); err != nil {
		return err
	}
	if k, _ := in.Cursor().First(); k == nil {
		return root.DeleteBucket([]byte(chat))
	}
	return nil
}
