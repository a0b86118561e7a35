package store

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// Queue names one of the store's sets of due work: each member (a table id,
// a chat, a review request) is due at a time and is worked on by one
// claimant at a time.
//
// Due times are the callers' clock: a turn deadline is computed by the bot,
// and tests drive a fake clock through them. Leases are the store's clock
// (Redis TIME inside the scripts; Bolt's process clock), never a caller's,
// so a replica whose clock runs ahead cannot take a member another replica
// still holds.
type Queue string

const (
	// Deliveries are tables with something to show (delivery).
	Deliveries Queue = "wake"
	// Inboxes are chats with updates waiting (ingestion).
	Inboxes Queue = "inbox"
	// Timers are tables whose turn timer (or other due table work) is due.
	Timers Queue = "timers"
	// Reviews are review requests (ReviewRequest: a kept game and the
	// person who asked), worked on by the review worker; nothing but
	// Schedule and Release moves them. Like every queue's, a release with
	// a zero next takes the member out unless it was scheduled again
	// meanwhile.
	Reviews Queue = "reviews"
	// Seasons are group chats (the chat id in decimal) whose month ends:
	// due at the end of the month of their last game, in the group's
	// time zone, when the month's recap is posted (bot/results).
	Seasons Queue = "seasons"
)

// queues lists every queue, for what touches them all (migration).
var queues = []Queue{Deliveries, Inboxes, Timers, Reviews, Seasons}

// tableQueues are the queues whose members are tables: Delete and expiry
// take a table out of them. Inboxes hold chats, whose waiting updates are
// not the table's (a group's table id is its chat id); Reviews hold review
// requests (games.go).
var tableQueues = []Queue{Deliveries, Timers}

func (q Queue) check() error {
	switch q {
	case Deliveries, Inboxes, Timers, Reviews, Seasons:
		return nil
	}
	return fmt.Errorf("store: unknown queue %q", string(q))
}

// Claim is one member of a queue taken by Claim: held by its claimant until
// Release, or until its lease runs out on the store's clock.
type Claim struct {
	Queue Queue
	Name  string // the member: a table id or a chat
	Token string // this claim's identity (random); Renew and Release check it
}

// claimArgs checks a Claim's arguments.
func claimArgs(q Queue, lease time.Duration, limit int) error {
	if err := q.check(); err != nil {
		return err
	}
	if lease < time.Millisecond || limit <= 0 {
		return fmt.Errorf("store: claim %s: lease (≥ 1ms) and limit must be positive", q)
	}
	return nil
}

// newToken is a random claim identity: unguessable, so no claimant can
// release or renew another's claim by mistake. Each claim of one Claim
// call gets the call's token with its index appended.
func newToken() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// memberToken is the token of the i-th member (from 1) claimed by a call.
func memberToken(base string, i int) string { return fmt.Sprintf("%s.%x", base, i) }
