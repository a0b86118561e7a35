package store

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// ForgetUser deletes everything the store keeps of a person (see
// forget.go): their results first, then the rest in one transaction.
func (b *Bolt) ForgetUser(ctx context.Context, user int64) error {
	if user <= 0 {
		return fmt.Errorf("store: forget user %d: not a person", user)
	}
	if err := b.Forget(ctx, UserPlayer(user)); err != nil {
		return err
	}
	chat := privateChat(user)
	return b.db.Update(func(tx *bolt.Tx) error {
		if err := forgetTable(tx, chat); err != nil {
			return err
		}
		if err := forgetKeptGames(tx, user); err != nil {
			return err
		}
		for _, e := range []struct {
			kind byte
			name []byte
		}{{expInbox, []byte(chat)}, {expDead, []byte(chat)}, {expResults, u64(user)}} {
			if err := deleteExpired(tx, e.kind, e.name); err != nil {
				return err
			}
			if err := unexpire(tx, e.kind, e.name); err != nil {
				return err
			}
		}
		for _, k := range userPointers(user) {
			if err := tx.Bucket([]byte(bucketPtr)).Delete([]byte(k)); err != nil {
				return err
			}
			if err := unexpire(tx, expPointer, []byte(k)); err != nil {
				return err
			}
		}
		return nil
	})
}

// forgetTable deletes a private chat's table — its record, applied update
// ids, views and message records, its timers — but keeps its outbox: what
// is queued there is on its way to the person (the very answer to
// /forgetme among it), and the outbox's sequence must not start over
// while a delivery may still hold entries of the old one.
func forgetTable(tx *bolt.Tx, name string) error {
	t := table(tx, name)
	if t == nil {
		return nil
	}
	if err := t.Delete([]byte(keyRec)); err != nil {
		return err
	}
	for _, b := range []string{bucketUpd, bucketUpdT, bucketDirty, bucketMsg} {
		if t.Bucket([]byte(b)) == nil {
			continue
		}
		if err := t.DeleteBucket([]byte(b)); err != nil {
			return err
		}
	}
	return boltQueue(tx, Timers).remove(name)
}
