package store

import (
	"encoding/binary"
	"errors"
	"time"
)

// A dead letter is an update the runtime gave up on: its handler kept
// failing. It leaves its chat's inbox for the dead-letter set in one atomic
// step, so it is never lost between the two, and it is kept there (with
// its chat, the reason and the time) for a person to look at — and to put
// back in its inbox (Requeue) or drop (DropDeadLetter) — for
// DeadLetterRetention. The store keeps no more than DeadLettersPerChat of
// a chat (its newest) and DeadLetterChats chats (those whose last dead
// letter is newest): a bot that gives up everything for a while fills a
// bounded space, never the whole store.

// DeadLetter is one update given up, as DeadLetters reads it.
type DeadLetter struct {
	Chat   string
	Entry  InboxEntry
	Reason string
	At     time.Time // when it was given up (the store's clock)
}

// DeadLetterRetention is how long a chat's dead letters are kept after its
// last one: long enough for someone to notice and look.
const DeadLetterRetention = 30 * 24 * time.Hour

// DeadLettersPerChat and DeadLetterChats bound the dead letters kept: at
// most 20 of a chat and 500 chats, 10,000 in all.
const (
	DeadLettersPerChat = 20
	DeadLetterChats    = 500
)

// encodeDeadLetter packs a dead letter's reason and update bytes:
// uvarint length of the reason, the reason, the update.
func encodeDeadLetter(reason string, data []byte) []byte {
	b := binary.AppendUvarint(nil, uint64(len(reason)))
	b = append(b, reason...)
	return append(b, data...)
}

func decodeDeadLetter(b []byte) (reason string, data []byte, err error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return "", nil, errors.New("store: malformed dead letter")
	}
	return string(b[k : k+int(n)]), b[k+int(n):], nil
}
