package store

import (
	"bytes"
	"context"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A queue in the bbolt file is four buckets (the first two keep the names
// the due sets had before leases, so a file's due work carries over):
//
//	due     name → due time (ms, the callers' clock)    members not held
//	idx     due time (ms) + name → ""                   the same, in time order
//	held    name → lease end (ms, the process clock) + token
//	again   name → due time it was scheduled at while held
//
// Held members are few (what the claimants work on at once), so a claim
// looks through them all for leases that ran out.
var boltQueueBuckets = map[Queue][4]string{
	Deliveries: {"wake", "wakeidx", "wakeheld", "wakeagain"},
	Inboxes:    {"indue", "indueidx", "inheld", "inagain"},
	Timers:     {"timers", "timersidx", "timersheld", "timersagain"},
	Reviews:    {"reviews", "reviewsidx", "reviewsheld", "reviewsagain"},
	Seasons:    {"seasons", "seasonsidx", "seasonsheld", "seasonsagain"},
}

// createQueueBuckets makes every queue's buckets (OpenBolt).
func createQueueBuckets(tx *bolt.Tx) error {
	for _, q := range queues {
		for _, name := range boltQueueBuckets[q] {
			if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// queueTx is one queue's buckets within a transaction.
type queueTx struct {
	due         dueSet
	held, again *bolt.Bucket
}

func boltQueue(tx *bolt.Tx, q Queue) queueTx {
	n := boltQueueBuckets[q]
	return queueTx{
		due:   dueSet{tx.Bucket([]byte(n[0])), tx.Bucket([]byte(n[1]))},
		held:  tx.Bucket([]byte(n[2])),
		again: tx.Bucket([]byte(n[3])),
	}
}

// isHeld reports whether a claim holds name (its lease may have run out
// without anyone claiming it since).
func (q queueTx) isHeld(name string) bool { return q.held.Get([]byte(name)) != nil }

// schedule makes name due no later than at; a held member keeps the time
// for its release.
func (q queueTx) schedule(name string, at time.Time) error {
	if q.isHeld(name) {
		return putEarlier(q.again, name, at)
	}
	return q.due.set(name, at, true)
}

// mark makes name due at at unless it is due already (or was scheduled
// while held).
func (q queueTx) mark(name string, at time.Time) error {
	if q.isHeld(name) {
		if q.again.Get([]byte(name)) != nil {
			return nil
		}
		return q.again.Put([]byte(name), orderedMillis(at))
	}
	if q.due.at(name) != nil {
		return nil
	}
	return q.due.set(name, at, false)
}

// setExactly makes name due at exactly at (zero: not due at all); a held
// member keeps it for its release.
func (q queueTx) setExactly(name string, at time.Time) error {
	if q.isHeld(name) {
		if at.IsZero() {
			return q.again.Delete([]byte(name))
		}
		return q.again.Put([]byte(name), orderedMillis(at))
	}
	if at.IsZero() {
		return q.due.remove(name)
	}
	return q.due.set(name, at, false)
}

// remove takes name out of the queue altogether, held or not.
func (q queueTx) remove(name string) error {
	if err := q.due.remove(name); err != nil {
		return err
	}
	if err := q.held.Delete([]byte(name)); err != nil {
		return err
	}
	return q.again.Delete([]byte(name))
}

// unhold ends name's claim: it is due again at the earlier of next (zero:
// none) and the time it was scheduled at while held, or not at all.
func (q queueTx) unhold(name string, next time.Time) error {
	if err := q.held.Delete([]byte(name)); err != nil {
		return err
	}
	at := next
	if a := q.again.Get([]byte(name)); a != nil {
		if t := fromOrderedMillis(a); at.IsZero() || t.Before(at) {
			at = t
		}
		if err := q.again.Delete([]byte(name)); err != nil {
			return err
		}
	}
	if at.IsZero() {
		return nil
	}
	return q.due.set(name, at, true)
}

// holder returns the token of the claim holding name and its lease end;
// ok is false when none does.
func (q queueTx) holder(name string) (token string, until time.Time, ok bool) {
	v := q.held.Get([]byte(name))
	if len(v) < 8 {
		return "", time.Time{}, false
	}
	return string(v[8:]), fromOrderedMillis(v[:8]), true
}

func (q queueTx) hold(name, token string, until time.Time) error {
	return q.held.Put([]byte(name), append(orderedMillis(until), token...))
}

// putEarlier sets name's time in b to at unless it holds an earlier one.
func putEarlier(b *bolt.Bucket, name string, at time.Time) error {
	enc := orderedMillis(at)
	if cur := b.Get([]byte(name)); cur != nil && bytes.Compare(cur, enc) <= 0 {
		return nil
	}
	return b.Put([]byte(name), enc)
}

// dueSet is a set of names each due at a time, kept twice: name → time,
// and time + name in time order.
type dueSet struct{ byName, byTime *bolt.Bucket }

// at is name's encoded due time, nil when it has none.
func (d dueSet) at(name string) []byte { return d.byName.Get([]byte(name)) }

// set makes name due at at, or at min(current, at) when onlyEarlier.
func (d dueSet) set(name string, at time.Time, onlyEarlier bool) error {
	enc := orderedMillis(at)
	if cur := d.at(name); cur != nil {
		if onlyEarlier && bytes.Compare(cur, enc) <= 0 {
			return nil
		}
		if err := d.byTime.Delete(append(clone(cur), name...)); err != nil {
			return err
		}
	}
	if err := d.byName.Put([]byte(name), enc); err != nil {
		return err
	}
	return d.byTime.Put(append(clone(enc), name...), nil)
}

// remove takes name out of the set, if it is there.
func (d dueSet) remove(name string) error {
	cur := d.at(name)
	if cur == nil {
		return nil
	}
	if err := d.byTime.Delete(append(clone(cur), name...)); err != nil {
		return err
	}
	return d.byName.Delete([]byte(name))
}

// first is the earliest due time; ok is false when the set is empty.
func (d dueSet) first() (time.Time, bool) {
	k, _ := d.byTime.Cursor().First()
	if k == nil {
		return time.Time{}, false
	}
	return fromOrderedMillis(k[:8]), true
}

// Claim takes up to limit members of q due at now (the caller's clock),
// earliest first, each leased for lease on the process clock; see
// (*Redis).Claim.
func (b *Bolt) Claim(ctx context.Context, q Queue, now time.Time, lease time.Duration, limit int) ([]Claim, error) {
	if err := claimArgs(q, lease, limit); err != nil {
		return nil, err
	}
	var claims []Claim
	err := b.db.Update(func(tx *bolt.Tx) error {
		qt := boltQueue(tx, q)
		clock := b.now()
		// Leases that ran out: their members are due again at once.
		var gone []string
		err := qt.held.ForEach(func(k, v []byte) error {
			if len(v) >= 8 && !fromOrderedMillis(v[:8]).After(clock) {
				gone = append(gone, string(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, name := range gone {
			if err := qt.unhold(name, now); err != nil {
				return err
			}
		}
		var due []string
		nowEnc := orderedMillis(now)
		c := qt.due.byTime.Cursor()
		for k, _ := c.First(); k != nil && len(due) < limit && bytes.Compare(k[:8], nowEnc) <= 0; k, _ = c.Next() {
			due = append(due, string(k[8:]))
		}
		until := fromMillis(toMillis(clock.Add(lease)))
		base := newToken()
		for i, name := range due {
			if err := qt.due.remove(name); err != nil {
				return err
			}
			c := Claim{Queue: q, Name: name, Token: memberToken(base, i+1)}
			if err := qt.hold(name, c.Token, until); err != nil {
				return err
			}
			claims = append(claims, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return claims, nil
}

// Renew extends c's lease to lease from now on the process clock; false
// when c is no longer held (see (*Redis).Renew).
func (b *Bolt) Renew(ctx context.Context, c Claim, lease time.Duration) (bool, error) {
	if err := claimArgs(c.Queue, lease, 1); err != nil {
		return false, err
	}
	renewed := false
	err := b.db.Update(func(tx *bolt.Tx) error {
		qt := boltQueue(tx, c.Queue)
		token, until, ok := qt.holder(c.Name)
		clock := b.now()
		if !ok || token != c.Token || !until.After(clock) {
			return nil
		}
		renewed = true
		return qt.hold(c.Name, c.Token, fromMillis(toMillis(clock.Add(lease))))
	})
	return renewed, err
}

// Release ends claim c (see (*Redis).Release); a claim no longer held
// changes nothing.
func (b *Bolt) Release(ctx context.Context, c Claim, next time.Time) error {
	if err := c.Queue.check(); err != nil {
		return err
	}
	return b.db.Update(func(tx *bolt.Tx) error {
		qt := boltQueue(tx, c.Queue)
		if token, _, ok := qt.holder(c.Name); !ok || token != c.Token {
			return nil
		}
		return qt.unhold(c.Name, next)
	})
}

// Schedule makes name due in q no later than at (see (*Redis).Schedule).
func (b *Bolt) Schedule(ctx context.Context, q Queue, name string, at time.Time) error {
	if err := q.check(); err != nil {
		return err
	}
	return b.db.Update(func(tx *bolt.Tx) error { return boltQueue(tx, q).schedule(name, at) })
}

// NextDue returns when the earliest member of q that is not held is due;
// ok is false when there is none.
func (b *Bolt) NextDue(ctx context.Context, q Queue) (time.Time, bool, error) {
	if err := q.check(); err != nil {
		return time.Time{}, false, err
	}
	var at time.Time
	var ok bool
	err := b.db.View(func(tx *bolt.Tx) error {
		at, ok = boltQueue(tx, q).due.first()
		return nil
	})
	return at, ok, err
}

// Pending counts the members of q, due or held (for metrics).
func (b *Bolt) Pending(ctx context.Context, q Queue) (int64, error) {
	if err := q.check(); err != nil {
		return 0, err
	}
	var n int64
	err := b.db.View(func(tx *bolt.Tx) error {
		qt := boltQueue(tx, q)
		n = int64(qt.due.byName.Stats().KeyN + qt.held.Stats().KeyN)
		return nil
	})
	return n, err
}

// Members lists up to n members of q: the due ones, earliest first, then
// the held ones (see (*Redis).Members).
func (b *Bolt) Members(ctx context.Context, q Queue, n int) ([]string, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	var out []string
	err := b.db.View(func(tx *bolt.Tx) error {
		qt := boltQueue(tx, q)
		c := qt.due.byTime.Cursor()
		for k, _ := c.First(); k != nil && len(out) < n; k, _ = c.Next() {
			out = append(out, string(k[8:]))
		}
		h := qt.held.Cursor()
		for k, _ := h.First(); k != nil && len(out) < n; k, _ = h.Next() {
			out = append(out, string(k))
		}
		return nil
	})
	return out, err
}
