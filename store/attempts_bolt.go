package store

import (
	"bytes"
	"context"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Attempt buckets:
//
//	try/   key → its attempts (8 bytes) + the item counted
//
// and an exp/ entry ('a' + key) ttl after the last attempt: a count read
// after it is none, and the sweep deletes it.
const bucketAttempts = "try"

// Attempt counts one more attempt at item under key and returns its
// number (see (*Redis).Attempt).
func (b *Bolt) Attempt(ctx context.Context, key, item string, ttl time.Duration) (int, error) {
	n := 1
	err := b.db.Update(func(tx *bolt.Tx) error {
		tries := tx.Bucket([]byte(bucketAttempts))
		now := b.now()
		cur := tries.Get([]byte(key))
		exp := tx.Bucket([]byte(bucketExpiry)).Get(expKey(expAttempt, []byte(key)))
		live := exp != nil && bytes.Compare(exp, orderedMillis(now)) > 0
		if live && len(cur) >= 8 && string(cur[8:]) == item {
			n = int(i64(cur[:8])) + 1
		}
		if err := tries.Put([]byte(key), append(u64(int64(n)), item...)); err != nil {
			return err
		}
		return expireAt(tx, expAttempt, []byte(key), now.Add(max(ttl, attemptTTL)))
	})
	return n, err
}

// ForgetAttempts drops key's count.
func (b *Bolt) ForgetAttempts(ctx context.Context, key string) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		if err := deleteAttempts(tx, []byte(key)); err != nil {
			return err
		}
		return unexpire(tx, expAttempt, []byte(key))
	})
}

// deleteAttempts deletes key's count, if any.
func deleteAttempts(tx *bolt.Tx, key []byte) error {
	if tries := tx.Bucket([]byte(bucketAttempts)); tries != nil {
		return tries.Delete(key)
	}
	return nil
}
