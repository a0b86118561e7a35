// Package store persists game tables for the bot.
//
// A table is kept as opaque bytes plus a version, so the store never needs to
// know which game it holds. Everything one player action writes — the new
// state, the Telegram update id that caused it, the views to re-render and
// the announcements to send — is committed atomically with compare-and-set on
// the version, which makes redelivered updates and racing replicas harmless.
//
// Two implementations share one method set: [Redis] for production, where
// many replicas share one Redis (or Redis Cluster), and [Bolt], an embedded
// single-process default backed by one bbolt file. The bot declares the
// interface it needs; this package deliberately exports none.
//
// Times handed to the store (due times, leases) are kept at millisecond
// precision.
package store

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

var (
	// ErrNotFound is returned when a table or pointer does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrConflict is returned when a Commit lost the compare-and-set race:
	// the caller should reload and retry.
	ErrConflict = errors.New("store: version conflict")
	// ErrDuplicate is returned when the Change's UpdateID was already applied
	// to the table; nothing was written and the update can be acknowledged.
	ErrDuplicate = errors.New("store: update already applied")
	// ErrNotReplicated is returned, under Config.WaitReplicas, when a write is
	// on the Redis master but fewer replicas than asked had it in time: it
	// may be lost if the master dies now. Retry as after any error.
	ErrNotReplicated = errors.New("store: write not on enough replicas in time")
)

// Record is a table's state as last committed.
type Record struct {
	Data    []byte
	Version int64 // ≥ 1 for an existing table
}

// Change is everything one applied action writes, atomically (all or nothing).
type Change struct {
	// Version is the version the change was computed from; 0 creates the
	// table, which must not exist yet.
	Version int64
	Data    []byte
	// UpdateID, when > 0, is the Telegram update id recorded with the change
	// so that a redelivered update is refused with ErrDuplicate. Ids are
	// remembered for at least UpdateRetention.
	UpdateID int64
	// Dirty names the views (e.g. "table", "hand:123", "lobby") to mark dirty
	// at the new version.
	Dirty []string
	// Outbox holds announcements appended to the table's outbox, in order.
	Outbox [][]byte
	// WakeAt, when non-zero, makes the table due in Deliveries no later
	// than WakeAt (the earlier of WakeAt and its current due time).
	WakeAt time.Time
	// TimerAt is when the table's turn timer (or other due table work) is
	// due: a full commit sets the table's member of Timers to exactly
	// TimerAt, and zero takes it out. OnlyQueue commits leave Timers alone.
	TimerAt time.Time
	// Forget names views whose message records (see SetMessage) are
	// deleted with the change, so the next delivery posts them anew.
	Forget []string
	// OnlyQueue makes a change that only appends Outbox, records UpdateID
	// and applies WakeAt: the state, its version, the views, the message
	// records and the timer are left as they are, with no compare-and-set
	// (Data, Version, Dirty, Forget and TimerAt are ignored), and Commit
	// returns the current version. It is for what a chat is told without any table
	// changing: a reply, a rules page turned, a settled question.
	OnlyQueue bool
}

// Envelope is one queued announcement; IDs increase per table.
type Envelope struct {
	ID   int64
	Data []byte
}

// Key names of the small global entries the bot keeps besides tables. They
// are built here, like every other key, so that the layout lives in one place.

// StartedKey is the pointer that marks a user who opened the private chat
// (the bot may write to them).
func StartedKey(user int64) string { return "started:" + strconv.FormatInt(user, 10) }

// UserTableKey is the pointer from a user to the table of their current
// game, for /start in private.
func UserTableKey(user int64) string { return "user:" + strconv.FormatInt(user, 10) }

// BrokenKey is where a table's record is set aside when its game broke
// (its state unreadable, its changes failing again and again), for a
// person to look at: one per table and game.
func BrokenKey(table string, gameNo int) string {
	return "broken:" + table + ":" + strconv.Itoa(gameNo)
}

// BrokenOutboxKey is where an outbox entry that could not be read is set
// aside, beside its table's record (BrokenKey).
func BrokenOutboxKey(table string, gameNo int) string { return BrokenKey(table, gameNo) + ":outbox" }

// TableTokenKey is the pointer from a table's token (its join link's and
// its «Стол» page's) to its id. The name is from when only the page had one.
func TableTokenKey(token string) string { return "webtable:" + token }

// ChatRateKey is the rate-limit key of one Telegram chat.
func ChatRateKey(chat int64) string { return "chat:" + strconv.FormatInt(chat, 10) }

// GlobalRateKey is the rate-limit key shared by every call of the token.
const GlobalRateKey = "global"

// UpdateRetention is how long applied update ids are remembered. Telegram
// keeps unconfirmed updates for 24 hours, so a redelivery cannot come later.
const UpdateRetention = 24 * time.Hour

// toMillis converts a time to the millisecond scores the stores keep.
func toMillis(t time.Time) int64 { return t.UnixMilli() }

// fromMillis is the inverse of toMillis.
func fromMillis(ms int64) time.Time { return time.UnixMilli(ms) }

// checkTable rejects table ids that cannot be stored: the empty id, and ids
// starting with '}', which would leave the Redis hash tag empty and scatter
// the table's keys over Cluster slots.
func checkTable(table string) error {
	if table == "" || table[0] == '}' {
		return fmt.Errorf("store: invalid table id %q", table)
	}
	return nil
}
