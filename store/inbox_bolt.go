package store

import (
	"bytes"
	"context"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Inbox buckets (see inbox.go):
//
//	in/<chat>/   id → update              a chat's waiting updates
//	indue/       chat → due (ms)          when a chat's inbox is due; a claim's lease end
//	indueidx/    due (ms) + chat → ""     the same, in time order
const (
	bucketInbox    = "in"
	bucketInDue    = "indue"
	bucketInDueIdx = "indueidx"
)

// inboxDue is the due set of chat inboxes, kept like the tables' wake set.
func inboxDue(tx *bolt.Tx) dueSet {
	return dueSet{tx.Bucket([]byte(bucketInDue)), tx.Bucket([]byte(bucketInDueIdx))}
}

// Ingest adds updates to a chat's inbox (an update already waiting there is
// not added twice) and makes the chat due at now unless it is claimed.
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
			if err := in.Put(u64(e.ID), clone(e.Data)); err != nil {
				return err
			}
		}
		due := inboxDue(tx)
		if due.at(chat) != nil {
			return nil
		}
		return due.set(chat, now, false)
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
			out = append(out, InboxEntry{ID: i64(k), Data: clone(v)})
		}
		return nil
	})
	return out, err
}

// Handled removes an applied update from its chat's inbox.
func (b *Bolt) Handled(ctx context.Context, chat string, id int64) error {
	return b.db.Update(func(tx *bolt.Tx) error {
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
	})
}

// ClaimChats claims up to limit chats whose inbox is due at now, for lease.
func (b *Bolt) ClaimChats(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Claim, error) {
	return b.claimFrom(inboxDue, now, lease, limit)
}

// ReleaseChat ends a chat's claim. With next set the chat is due again
// then; with next zero it leaves the due set, unless updates came in
// meanwhile, which make it due at now.
func (b *Bolt) ReleaseChat(ctx context.Context, c Claim, next, now time.Time) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		due := inboxDue(tx)
		if cur := due.at(c.Table); cur == nil || !bytes.Equal(cur, orderedMillis(c.Lease)) {
			return nil
		}
		if next.IsZero() {
			if in := tx.Bucket([]byte(bucketInbox)).Bucket([]byte(c.Table)); in != nil {
				if k, _ := in.Cursor().First(); k != nil {
					return due.set(c.Table, now, false)
				}
			}
			return due.remove(c.Table)
		}
		return due.set(c.Table, next, false)
	})
}

// NextChat returns when the earliest chat is due; ok is false when none is.
func (b *Bolt) NextChat(ctx context.Context) (time.Time, bool, error) {
	return b.firstDue(inboxDue)
}
