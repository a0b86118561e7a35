package store

import (
	"strconv"
	"strings"
	"time"
)

// The inbox holds updates between the moment they are fetched from
// Telegram and the moment they are applied. Fetching confirms an update to
// Telegram as soon as it is in its chat's inbox, so the next getUpdates
// never waits for a slow chat; each chat's updates are then applied in
// order, by whichever replica claims the chat, and one is removed only
// once it is applied. A chat is claimed in the Inboxes queue (Claim,
// Renew, Release): a lease that a crashed replica's successor takes over.

// InboxEntry is one update waiting in its chat's inbox; IDs are Telegram's
// update ids, which grow over time, so an inbox is in arrival order.
type InboxEntry struct {
	ID   int64
	Data []byte
	// At is when it came in (Ingest's now; Requeue's for one put back), as
	// Inbox reads it: zero for an update stored before the store kept it.
	// Ingest ignores it.
	At time.Time
}

// InboxChat is the inbox key of a Telegram chat (updates without a chat
// use chat 0).
func InboxChat(chat int64) string { return strconv.FormatInt(chat, 10) }

// inboxMember is an entry as Redis keeps it: "<id>:<ms>:<data>", its time
// after its id (before, "<id>:<data>", whose data, an update's JSON, never
// starts with a digit).
func inboxMember(id int64, at time.Time, data []byte) string {
	return strconv.FormatInt(id, 10) + ":" + strconv.FormatInt(toMillis(at), 10) + ":" + string(data)
}

// parseInboxMember reads an inbox member of either form.
func parseInboxMember(m string) (InboxEntry, bool) {
	id, rest, ok := strings.Cut(m, ":")
	n, err := strconv.ParseInt(id, 10, 64)
	if !ok || err != nil {
		return InboxEntry{}, false
	}
	e := InboxEntry{ID: n, Data: []byte(rest)}
	if rest != "" && rest[0] >= '0' && rest[0] <= '9' {
		ms, data, ok := strings.Cut(rest, ":")
		at, err := strconv.ParseInt(ms, 10, 64)
		if !ok || err != nil {
			return InboxEntry{}, false
		}
		e.Data, e.At = []byte(data), fromMillis(at)
	}
	return e, true
}

// inboxValue is an entry's value in Bolt: 0, its time (8 bytes), the
// update (before, the update alone, whose JSON never starts with 0).
func inboxValue(at time.Time, data []byte) []byte {
	return append(append([]byte{0}, u64(toMillis(at))...), data...)
}

// parseInboxValue reads an inbox value of either form.
func parseInboxValue(id int64, v []byte) InboxEntry {
	if len(v) >= 9 && v[0] == 0 {
		return InboxEntry{ID: id, Data: clone(v[9:]), At: fromMillis(i64(v[1:9]))}
	}
	return InboxEntry{ID: id, Data: clone(v)}
}
