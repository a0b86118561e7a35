package store

import (
	"bytes"
	"context"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Expiry in the bbolt file: what Redis expires by itself (see Retention),
// Bolt deletes in a sweep, every Config.Sweep period and on demand (Sweep).
// Each thing that expires has an entry in one bucket:
//
//	exp/   kind + name → when it expires (ms, the process clock)
//
// kinds: 't' a table, 'i' a chat's inbox, 'p' a pointer, 'r' a group's
// results (chat as 8 bytes), 'u' a person's index of groups, 'd' a chat's
// dead letters, 'g' a kept game (its ref; set once, at its keep), 'a' a count
// of attempts (attempts_bolt.go). The write
// that counts as activity sets its entry.
const bucketExpiry = "exp"

const (
	expTable    = 't'
	expInbox    = 'i'
	expPointer  = 'p'
	expResults  = 'r'
	expPerson   = 'u'
	expDead     = 'd'
	expGame     = 'g'
	expAttempt  = 'a'
	metaExpired = "expiry" // meta/: set once every old thing has an entry
)

func expKey(kind byte, name []byte) []byte { return append([]byte{kind}, name...) }

// expireAt records that a thing expires at at.
func expireAt(tx *bolt.Tx, kind byte, name []byte, at time.Time) error {
	return tx.Bucket([]byte(bucketExpiry)).Put(expKey(kind, name), orderedMillis(at))
}

// expireNoSooner moves a thing's expiry to at unless it is later already.
func expireNoSooner(tx *bolt.Tx, kind byte, name []byte, at time.Time) error {
	b := tx.Bucket([]byte(bucketExpiry))
	if cur := b.Get(expKey(kind, name)); cur != nil && bytes.Compare(cur, orderedMillis(at)) >= 0 {
		return nil
	}
	return b.Put(expKey(kind, name), orderedMillis(at))
}

// expireIfNone sets a thing's expiry unless it has one.
func expireIfNone(tx *bolt.Tx, kind byte, name []byte, at time.Time) error {
	if tx.Bucket([]byte(bucketExpiry)).Get(expKey(kind, name)) != nil {
		return nil
	}
	return expireAt(tx, kind, name, at)
}

// unexpire forgets a thing's expiry (it was deleted).
func unexpire(tx *bolt.Tx, kind byte, name []byte) error {
	return tx.Bucket([]byte(bucketExpiry)).Delete(expKey(kind, name))
}

// Sweep deletes what has expired and returns how many things it deleted.
// The first sweep of a file written before expiry gives everything in it a
// full period from now.
func (b *Bolt) Sweep(ctx context.Context) (int, error) {
	n := 0
	err := b.db.Update(func(tx *bolt.Tx) error {
		now := b.now()
		if err := b.expireOld(tx, now); err != nil {
			return err
		}
		var gone [][]byte
		nowEnc := orderedMillis(now)
		err := tx.Bucket([]byte(bucketExpiry)).ForEach(func(k, v []byte) error {
			if bytes.Compare(v, nowEnc) <= 0 {
				gone = append(gone, clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range gone {
			if err := deleteExpired(tx, k[0], k[1:]); err != nil {
				return err
			}
			if err := tx.Bucket([]byte(bucketExpiry)).Delete(k); err != nil {
				return err
			}
		}
		n = len(gone)
		return nil
	})
	return n, err
}

// deleteExpired deletes one expired thing.
func deleteExpired(tx *bolt.Tx, kind byte, name []byte) error {
	switch kind {
	case expTable:
		return deleteTable(tx, string(name))
	case expInbox:
		if err := deleteBucketIfAny(tx.Bucket([]byte(bucketInbox)), name); err != nil {
			return err
		}
		return boltQueue(tx, Inboxes).remove(string(name))
	case expPointer:
		return tx.Bucket([]byte(bucketPtr)).Delete(name)
	case expResults:
		return deleteBucketIfAny(tx.Bucket([]byte(resBucket)), name)
	case expPerson:
		return deleteBucketIfAny(tx.Bucket([]byte(resUsersBucket)), name)
	case expDead:
		return deleteDeadLetters(tx, string(name))
	case expGame:
		return deleteGame(tx, string(name))
	case expAttempt:
		return deleteAttempts(tx, name)
	}
	return nil
}

// deleteBucketIfAny deletes parent/name if both exist.
func deleteBucketIfAny(parent *bolt.Bucket, name []byte) error {
	if parent == nil || parent.Bucket(name) == nil {
		return nil
	}
	return parent.DeleteBucket(name)
}

// deleteDeadLetters deletes every dead letter of a chat.
func deleteDeadLetters(tx *bolt.Tx, chat string) error {
	ids, dead := tx.Bucket([]byte(bucketDeadID)), tx.Bucket([]byte(bucketDead))
	prefix := append([]byte(chat), 0)
	var keys [][]byte
	c := ids.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		keys = append(keys, clone(k), clone(v))
	}
	for i := 0; i < len(keys); i += 2 {
		if err := ids.Delete(keys[i]); err != nil {
			return err
		}
		if err := dead.Delete(keys[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// expireOld gives everything written before expiry existed (everything
// without an entry) a full period from now, once per file.
func (b *Bolt) expireOld(tx *bolt.Tx, now time.Time) error {
	meta, err := tx.CreateBucketIfNotExists([]byte(bucketMeta))
	if err != nil {
		return err
	}
	if meta.Get([]byte(metaExpired)) != nil {
		return nil
	}
	r := b.set.retention
	each := func(bucket string, kind byte, period time.Duration) error {
		root := tx.Bucket([]byte(bucket))
		if root == nil {
			return nil
		}
		return root.ForEach(func(k, _ []byte) error {
			return expireIfNone(tx, kind, clone(k), now.Add(period))
		})
	}
	for _, e := range []struct {
		bucket string
		kind   byte
		period time.Duration
	}{
		{bucketTables, expTable, r.Tables}, {bucketInbox, expInbox, r.Inboxes}, {bucketPtr, expPointer, r.Pointers},
		{resBucket, expResults, r.Results}, {resUsersBucket, expPerson, r.Results},
	} {
		if err := each(e.bucket, e.kind, e.period); err != nil {
			return err
		}
	}
	chats := map[string]bool{}
	err = tx.Bucket([]byte(bucketDeadID)).ForEach(func(k, _ []byte) error {
		if i := bytes.IndexByte(k, 0); i >= 0 {
			chats[string(k[:i])] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	for chat := range chats {
		if err := expireIfNone(tx, expDead, []byte(chat), now.Add(r.DeadLetters)); err != nil {
			return err
		}
	}
	return meta.Put([]byte(metaExpired), []byte("1"))
}

// sweepLoop sweeps every period until stop is closed.
func (b *Bolt) sweepLoop(every time.Duration, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			_, _ = b.Sweep(context.Background()) // a failed sweep is done by the next
		}
	}
}
