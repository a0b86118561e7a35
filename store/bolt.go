package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Bolt is the embedded default store: one bbolt file, one process.
//
// Tables, wake-ups, message ids and pointers live in the file, so a restart
// loses nothing a game needs. Rate limits live in memory: they only pace
// this process's own calls to Telegram. bbolt locks the file, so a second
// process cannot open it; run replicas against Redis instead.
//
// File layout (buckets):
//
//	t/<table>/          one bucket per table
//	    rec             8-byte version + state bytes
//	    upd/   id → applied at (ms)          applied update ids
//	    updt/  applied at (ms) + id → ""     the same, in time order for trimming
//	    dirty/ view → version
//	    out/   id → announcement             ids from the bucket's sequence
//	    msg/   view → message record (opaque: the bot's message id and digest)
//	wake…/, timers…/, reviews…/, seasons…/  the Deliveries, Timers, Reviews and Seasons queues (queue_bolt.go)
//	ptr/     key → value
//	in/, indue…/      chats' waiting updates and the Inboxes queue (inbox_bolt.go)
//	dl/, dlid/        dead letters (deadletter_bolt.go)
//	games/, kept/, keptby/  kept games, their reviews and the people's
//	                  indexes of them (games_bolt.go)
//	exp/              when each thing expires (expire_bolt.go)
//	meta/    owner → the bot the file belongs to (Own)
type Bolt struct {
	db  *bolt.DB
	now func() time.Time // the store's clock: update-id retention, leases
	set settings

	changes feed // commits, for WatchChanges

	stopSweep chan struct{} // closed by Close: the expiry sweep stops
	sweepDone chan struct{} // closed when it has
	closeOnce sync.Once

	mu    sync.Mutex
	rates map[string]*rateLog
	swept int // len(rates) after the last forgetIdle sweep
}

// rateLog is one key's sliding-window log.
type rateLog struct {
	events []time.Time   // oldest first
	per    time.Duration // the window of the last Allow
	until  time.Time     // blocked until
	turns  map[string]turn
}

// turn is a caller waiting in AllowInTurn.
type turn struct {
	deadline time.Time
	expiry   time.Time // forgotten unless it comes back by then
}

// Bucket and key names; see the Bolt type comment.
const (
	bucketTables = "t"
	bucketPtr    = "ptr"

	keyRec      = "rec"
	bucketUpd   = "upd"
	bucketUpdT  = "updt"
	bucketDirty = "dirty"
	bucketOut   = "out"
	bucketMsg   = "msg"
)

// ErrFileInUse is OpenBolt's answer when another process holds the file
// (a running bot): it waited five seconds for it.
var ErrFileInUse = errors.New("the file is in use by another process")

// OpenBolt opens (creating if needed) the store file at path; while another
// process holds it, it waits five seconds, then fails with ErrFileInUse.
func OpenBolt(path string, cfg Config) (*Bolt, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 5 * time.Second})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("store: open %s: %w", path, ErrFileInUse)
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{[]byte(bucketTables), []byte(bucketPtr), []byte(bucketInbox),
			[]byte(bucketDead), []byte(bucketDeadID), []byte(bucketExpiry), []byte(bucketAttempts)} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		for _, b := range gameBuckets {
			if _, err := tx.CreateBucketIfNotExists([]byte(b)); err != nil {
				return err
			}
		}
		return createQueueBuckets(tx)
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	b := &Bolt{db: db, now: time.Now, set: cfg.settings(), rates: make(map[string]*rateLog),
		stopSweep: make(chan struct{}), sweepDone: make(chan struct{})}
	go b.sweepLoop(b.set.sweepEvery, b.stopSweep, b.sweepDone)
	return b, nil
}

// Close stops the sweep and closes the file.
func (b *Bolt) Close() error {
	b.closeOnce.Do(func() { close(b.stopSweep) })
	<-b.sweepDone
	return b.db.Close()
}

func u64(n int64) []byte {
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(n))
	return buf[:]
}

func i64(b []byte) int64 { return int64(binary.BigEndian.Uint64(b)) }

// orderedMillis encodes a time so that byte order is time order, including
// times before 1970.
func orderedMillis(t time.Time) []byte { return u64(toMillis(t) ^ -1<<63) }

func fromOrderedMillis(b []byte) time.Time { return fromMillis(i64(b) ^ -1<<63) }

func clone(b []byte) []byte { return append([]byte{}, b...) }

// table returns the table's bucket, or nil if it has none.
func table(tx *bolt.Tx, name string) *bolt.Bucket {
	return tx.Bucket([]byte(bucketTables)).Bucket([]byte(name))
}

// sub returns a sub-bucket of the table, creating both when create is set;
// without create it may return nil.
func sub(tx *bolt.Tx, name, bucket string, create bool) (*bolt.Bucket, error) {
	if !create {
		t := table(tx, name)
		if t == nil {
			return nil, nil
		}
		return t.Bucket([]byte(bucket)), nil
	}
	t, err := tx.Bucket([]byte(bucketTables)).CreateBucketIfNotExists([]byte(name))
	if err != nil {
		return nil, err
	}
	return t.CreateBucketIfNotExists([]byte(bucket))
}

// Load returns the table's state, or ErrNotFound.
func (b *Bolt) Load(ctx context.Context, name string) (Record, error) {
	rec, _, _, err := b.LoadFor(ctx, name, 0, "")
	return rec, err
}

// LoadFor is Load and Applied in one read: the table's state, whether
// updateID was already applied to it (false for 0), and, when view is not
// empty, that view's message record ("" for none).
func (b *Bolt) LoadFor(ctx context.Context, name string, updateID int64, view string) (Record, bool, string, error) {
	var rec Record
	var seen bool
	var message string
	err := b.db.View(func(tx *bolt.Tx) error {
		t := table(tx, name)
		if t == nil {
			return ErrNotFound
		}
		if u := t.Bucket([]byte(bucketUpd)); u != nil && updateID > 0 {
			seen = u.Get(u64(updateID)) != nil
		}
		v := t.Get([]byte(keyRec))
		if v == nil {
			return ErrNotFound
		}
		rec = Record{Version: i64(v[:8]), Data: clone(v[8:])}
		if m := t.Bucket([]byte(bucketMsg)); m != nil && view != "" {
			message = string(m.Get([]byte(view)))
		}
		return nil
	})
	if err != nil {
		return Record{}, false, "", err
	}
	return rec, seen, message, nil
}

// Applied reports whether update id was recorded with a change of the table
// (within UpdateRetention), so a redelivered update can be recognised before
// it is evaluated against a newer state.
func (b *Bolt) Applied(ctx context.Context, name string, updateID int64) (bool, error) {
	var seen bool
	err := b.db.View(func(tx *bolt.Tx) error {
		u, err := sub(tx, name, bucketUpd, false)
		if err == nil && u != nil {
			seen = u.Get(u64(updateID)) != nil
		}
		return err
	})
	return seen, err
}

// Commit writes c in one transaction and returns the new version. It fails
// with ErrConflict when the table's version is not c.Version and with
// ErrDuplicate when c.UpdateID was already applied; nothing is written then.
func (b *Bolt) Commit(ctx context.Context, name string, c Change) (int64, error) {
	if err := checkTable(name); err != nil {
		return 0, err
	}
	var ver int64
	err := b.db.Update(func(tx *bolt.Tx) error {
		t := table(tx, name)
		if c.UpdateID > 0 && t != nil {
			if u := t.Bucket([]byte(bucketUpd)); u != nil && u.Get(u64(c.UpdateID)) != nil {
				return ErrDuplicate
			}
		}
		var cur int64
		if t != nil {
			if v := t.Get([]byte(keyRec)); v != nil {
				cur = i64(v[:8])
			}
		}
		if c.OnlyQueue {
			ver, c.Dirty, c.Forget = cur, nil, nil
		} else if cur != c.Version {
			return ErrConflict
		} else {
			ver = cur + 1
		}
		if t == nil {
			var err error
			if t, err = tx.Bucket([]byte(bucketTables)).CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		if !c.OnlyQueue {
			if err := t.Put([]byte(keyRec), append(u64(ver), c.Data...)); err != nil {
				return err
			}
		}
		if c.UpdateID > 0 {
			if err := b.recordUpdate(t, c.UpdateID); err != nil {
				return err
			}
		}
		if len(c.Dirty) > 0 {
			d, err := t.CreateBucketIfNotExists([]byte(bucketDirty))
			if err != nil {
				return err
			}
			for _, view := range c.Dirty {
				if err := d.Put([]byte(view), u64(ver)); err != nil {
					return err
				}
			}
		}
		if len(c.Outbox) > 0 {
			o, err := t.CreateBucketIfNotExists([]byte(bucketOut))
			if err != nil {
				return err
			}
			for _, msg := range c.Outbox {
				id, err := o.NextSequence()
				if err != nil {
					return err
				}
				if err := o.Put(u64(int64(id)), msg); err != nil {
					return err
				}
			}
		}
		if m := t.Bucket([]byte(bucketMsg)); m != nil {
			for _, view := range c.Forget {
				if err := m.Delete([]byte(view)); err != nil {
					return err
				}
			}
		}
		if !c.WakeAt.IsZero() {
			if err := boltQueue(tx, Deliveries).schedule(name, c.WakeAt); err != nil {
				return err
			}
		}
		if !c.OnlyQueue {
			if err := boltQueue(tx, Timers).setExactly(name, c.TimerAt); err != nil {
				return err
			}
		}
		now := b.now()
		return expireAt(tx, expTable, []byte(name), now.Add(b.set.retention.tableTTL(c.TimerAt, now)))
	})
	if err != nil {
		return 0, err
	}
	if !c.OnlyQueue {
		b.changes.publish(TableChange{Table: name, Version: ver})
	}
	return ver, nil
}

// recordUpdate remembers an applied update id and forgets those older than
// UpdateRetention.
func (b *Bolt) recordUpdate(t *bolt.Bucket, id int64) error {
	upd, err := t.CreateBucketIfNotExists([]byte(bucketUpd))
	if err != nil {
		return err
	}
	byTime, err := t.CreateBucketIfNotExists([]byte(bucketUpdT))
	if err != nil {
		return err
	}
	now := b.now()
	at := orderedMillis(now)
	if err := upd.Put(u64(id), at); err != nil {
		return err
	}
	if err := byTime.Put(append(at, u64(id)...), nil); err != nil {
		return err
	}
	cutoff := orderedMillis(now.Add(-UpdateRetention))
	c := byTime.Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k[:8], cutoff) < 0; k, _ = c.First() {
		if err := upd.Delete(k[8:]); err != nil {
			return err
		}
		if err := byTime.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// Delete removes the table and takes it out of the table queues
// (Deliveries, Timers), held or not.
func (b *Bolt) Delete(ctx context.Context, name string) error {
	return b.db.Update(func(tx *bolt.Tx) error { return deleteTable(tx, name) })
}

// deleteTable removes a table, its queue entries and its expiry.
func deleteTable(tx *bolt.Tx, name string) error {
	if table(tx, name) != nil {
		if err := tx.Bucket([]byte(bucketTables)).DeleteBucket([]byte(name)); err != nil {
			return err
		}
	}
	for _, q := range tableQueues {
		if err := boltQueue(tx, q).remove(name); err != nil {
			return err
		}
	}
	return unexpire(tx, expTable, []byte(name))
}

// Dirty returns the table's dirty views with the version each was marked at.
func (b *Bolt) Dirty(ctx context.Context, name string) (map[string]int64, error) {
	out := make(map[string]int64)
	err := b.db.View(func(tx *bolt.Tx) error {
		d, _ := sub(tx, name, bucketDirty, false)
		if d == nil {
			return nil
		}
		return d.ForEach(func(k, v []byte) error {
			out[string(k)] = i64(v)
			return nil
		})
	})
	return out, err
}

// Views returns the table's message records and dirty marks (as Messages
// and Dirty) in one read.
func (b *Bolt) Views(ctx context.Context, name string) (map[string]string, map[string]int64, error) {
	records, err := b.Messages(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	marks, err := b.Dirty(ctx, name)
	return records, marks, err
}

// Clean removes the view's dirty mark if it was set at or before version, so
// a change committed while the view was rendering keeps it dirty.
func (b *Bolt) Clean(ctx context.Context, name, view string, version int64) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		d, _ := sub(tx, name, bucketDirty, false)
		if d == nil {
			return nil
		}
		if v := d.Get([]byte(view)); v != nil && i64(v) <= version {
			return d.Delete([]byte(view))
		}
		return nil
	})
}

// Outbox returns up to n queued announcements, oldest first.
func (b *Bolt) Outbox(ctx context.Context, name string, n int) ([]Envelope, error) {
	var out []Envelope
	err := b.db.View(func(tx *bolt.Tx) error {
		o, _ := sub(tx, name, bucketOut, false)
		if o == nil {
			return nil
		}
		c := o.Cursor()
		for k, v := c.First(); k != nil && len(out) < n; k, v = c.Next() {
			out = append(out, Envelope{ID: i64(k), Data: clone(v)})
		}
		return nil
	})
	return out, err
}

// Ack drops the announcements with ID ≤ id.
func (b *Bolt) Ack(ctx context.Context, name string, id int64) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		o, _ := sub(tx, name, bucketOut, false)
		if o == nil {
			return nil
		}
		c := o.Cursor()
		for k, _ := c.First(); k != nil && i64(k) <= id; k, _ = c.First() {
			if err := o.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// SetMessage records what the message of a rendered view is (the bot's
// opaque record), apart from the record so that it does not bump the version.
func (b *Bolt) SetMessage(ctx context.Context, name, view, record string) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		m, err := sub(tx, name, bucketMsg, true)
		if err != nil {
			return err
		}
		if err := m.Put([]byte(view), []byte(record)); err != nil {
			return err
		}
		return expireNoSooner(tx, expTable, []byte(name), b.now().Add(b.set.retention.Tables))
	})
}

// Messages returns view → message record for the table.
func (b *Bolt) Messages(ctx context.Context, name string) (map[string]string, error) {
	out := make(map[string]string)
	err := b.db.View(func(tx *bolt.Tx) error {
		m, _ := sub(tx, name, bucketMsg, false)
		if m == nil {
			return nil
		}
		return m.ForEach(func(k, v []byte) error {
			out[string(k)] = string(v)
			return nil
		})
	})
	return out, err
}

// DeleteMessages forgets the message records of views (absent ones are fine).
func (b *Bolt) DeleteMessages(ctx context.Context, name string, views ...string) error {
	if len(views) == 0 {
		return nil
	}
	return b.db.Update(func(tx *bolt.Tx) error {
		m, _ := sub(tx, name, bucketMsg, false)
		if m == nil {
			return nil
		}
		for _, v := range views {
			if err := m.Delete([]byte(v)); err != nil {
				return err
			}
		}
		return nil
	})
}

// SetPointer sets a small index entry, e.g. "user:42" → table id, kept
// for Retention.Pointers after it was last set or read.
func (b *Bolt) SetPointer(ctx context.Context, key, value string) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket([]byte(bucketPtr)).Put([]byte(key), []byte(value)); err != nil {
			return err
		}
		return expireAt(tx, expPointer, []byte(key), b.now().Add(b.set.retention.Pointers))
	})
}

// Pointer returns the value of an index entry, or ErrNotFound; reading it
// keeps it for another Retention.Pointers (written when half of it is
// used, so most reads stay reads).
func (b *Bolt) Pointer(ctx context.Context, key string) (string, error) {
	var v string
	stale := false
	period := b.set.retention.Pointers
	err := b.db.View(func(tx *bolt.Tx) error {
		raw := tx.Bucket([]byte(bucketPtr)).Get([]byte(key))
		if raw == nil {
			return ErrNotFound
		}
		v = string(raw)
		exp := tx.Bucket([]byte(bucketExpiry)).Get(expKey(expPointer, []byte(key)))
		stale = exp == nil || fromOrderedMillis(exp).Sub(b.now()) < period/2
		return nil
	})
	if err == nil && stale {
		err = b.db.Update(func(tx *bolt.Tx) error {
			if tx.Bucket([]byte(bucketPtr)).Get([]byte(key)) == nil {
				return nil
			}
			return expireAt(tx, expPointer, []byte(key), b.now().Add(period))
		})
	}
	return v, err
}

// DeletePointer removes an index entry only if it still holds value, so a
// stale cleanup cannot remove a pointer someone has since moved.
func (b *Bolt) DeletePointer(ctx context.Context, key, value string) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		p := tx.Bucket([]byte(bucketPtr))
		if raw := p.Get([]byte(key)); raw != nil && string(raw) == value {
			if err := p.Delete([]byte(key)); err != nil {
				return err
			}
			return unexpire(tx, expPointer, []byte(key))
		}
		return nil
	})
}

// Allow reports whether one more event under key fits in limit per window
// and, if so, records it. In memory: it paces this process only.
func (b *Bolt) Allow(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, time.Duration, error) {
	return b.allow(key, limit, per, now, false)
}

// Fits reports whether Allow would allow an event now, recording nothing.
func (b *Bolt) Fits(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, time.Duration, error) {
	return b.allow(key, limit, per, now, true)
}

func (b *Bolt) allow(key string, limit int, per time.Duration, now time.Time, peek bool) (bool, time.Duration, error) {
	if limit <= 0 || per <= 0 {
		return false, 0, fmt.Errorf("store: allow %s: limit and window must be positive", key)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.rateLog(key)
	if now.Before(r.until) {
		return false, r.until.Sub(now), nil
	}
	r.slide(now, per)
	if n := len(r.events); n >= limit {
		retry := r.events[n-limit].Add(per).Sub(now)
		return false, max(retry, time.Microsecond), nil
	}
	if !peek {
		b.record(r, per, now)
	}
	return true, 0, nil
}

// AllowInTurn is Allow with the callers taking turns, earliest deadline
// first; see (*Redis).AllowInTurn.
func (b *Bolt) AllowInTurn(ctx context.Context, key, caller string, deadline time.Time, limit int, per time.Duration, now time.Time) (bool, time.Duration, error) {
	if limit <= 0 || per <= 0 {
		return false, 0, fmt.Errorf("store: allow %s: limit and window must be positive", key)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.rateLog(key)
	for c, w := range r.turns {
		if !w.expiry.After(now) {
			delete(r.turns, c)
		}
	}
	ahead := len(r.turns)
	if caller != "" {
		if r.turns == nil {
			r.turns = map[string]turn{}
		}
		w, ok := r.turns[caller]
		if !ok || deadline.Before(w.deadline) {
			w.deadline = deadline
		}
		ahead = 0
		for c, o := range r.turns {
			if c != caller && (o.deadline.Before(w.deadline) || o.deadline.Equal(w.deadline) && c < caller) {
				ahead++
			}
		}
		r.turns[caller] = w
	}
	var retry time.Duration
	if now.Before(r.until) {
		retry = r.until.Sub(now)
	} else {
		r.slide(now, per)
		n := len(r.events)
		if ahead < limit-n {
			delete(r.turns, caller)
			b.record(r, per, now)
			return true, 0, nil
		}
		// The callers ahead take the room there is, a window's worth at a
		// time; this one goes when the event whose place it takes has left.
		k := ahead - (limit - n)
		rounds, i := k/limit, k%limit
		if i < n {
			retry = r.events[i].Add(per).Sub(now) + time.Duration(rounds)*per
		} else {
			retry = time.Duration(rounds+1) * per
		}
		retry = max(retry, time.Microsecond)
	}
	if caller != "" {
		w := r.turns[caller]
		w.expiry = now.Add(retry + TurnGrace)
		r.turns[caller] = w
	}
	return false, retry, nil
}

// Withdraw gives up caller's place in key's line (AllowInTurn), for a call
// that is no longer ready to go; nothing if it has none.
func (b *Bolt) Withdraw(ctx context.Context, key, caller string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r := b.rates[key]; r != nil {
		delete(r.turns, caller)
	}
	return nil
}

// rateLog returns key's log, created empty. Called with mu held.
func (b *Bolt) rateLog(key string) *rateLog {
	r := b.rates[key]
	if r == nil {
		r = &rateLog{}
		b.rates[key] = r
	}
	return r
}

// slide forgets the events that left the window.
func (r *rateLog) slide(now time.Time, per time.Duration) {
	i := 0
	for i < len(r.events) && !r.events[i].After(now.Add(-per)) {
		i++
	}
	r.events = r.events[i:]
}

// record adds one event now. Called with mu held.
func (b *Bolt) record(r *rateLog, per time.Duration, now time.Time) {
	r.events = append(r.events, now)
	r.per = per
	b.forgetIdle(now)
}

// forgetIdle drops rate logs that can no longer refuse anything, so the map
// does not grow with every chat ever seen. Called with mu held; it runs only
// when the map has doubled since the last sweep, so its cost is amortized.
func (b *Bolt) forgetIdle(now time.Time) {
	if len(b.rates) < 1024 || len(b.rates) < 2*b.swept {
		return
	}
	for k, r := range b.rates {
		if now.After(r.until) && len(r.turns) == 0 && (len(r.events) == 0 || now.Sub(r.events[len(r.events)-1]) > r.per) {
			delete(b.rates, k)
		}
	}
	b.swept = len(b.rates)
}

// Block makes Allow refuse key until the given time, as Telegram's 429
// retry_after demands. An earlier block never shortens a later one.
func (b *Bolt) Block(ctx context.Context, key string, until time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.rateLog(key)
	if until.After(r.until) {
		r.until = until
	}
	return nil
}

// Ping checks that the file is usable.
func (b *Bolt) Ping(ctx context.Context) error {
	return b.db.View(func(tx *bolt.Tx) error { return nil })
}

// Time is the machine's clock: one process, one clock.
func (b *Bolt) Time(ctx context.Context) (time.Time, error) { return time.Now(), nil }
