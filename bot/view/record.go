package view

import (
	"slices"
	"strconv"
	"strings"
)

// MessageRecord is what the store keeps about a view's message: its id, a
// digest of what it shows, whether it pinged, replaced messages still to
// delete (since when), and since when it has been waiting to show a change;
// replaced messages whose buttons are still to be taken away, the view's
// repost count it was posted for (Table.Reposts) and whether it has buttons.
// Kept in the table's message hash, so it goes with the table.
type MessageRecord struct {
	ID         int
	Digest     string
	Ping       bool
	Stale      []int
	StaleSince int64 // unix ms of the oldest replaced message
	// Pending is the unix ms of the oldest change the message does not
	// show yet, once a call to show it had to wait; 0 if none.
	Pending int64
	// Strip are replaced messages that still show buttons: they lose them
	// as soon as the budget allows (strip), before any batch deletion.
	Strip []int
	// Gen is the view's repost count the message was posted for.
	Gen int
	// Buttons: the message shows buttons (records written before this
	// existed are taken to).
	Buttons bool
	// Tries counts the view's sends in a row that Telegram did not answer
	// in time (each may have posted a copy the record does not know), the
	// last of them for the table's version TriedAt. Await is until when
	// (unix ms) the last one's answer may still come: the view is not
	// sent again before then (bot/deliver, unanswered.go).
	Tries   int
	TriedAt int64
	Await   int64
}

func (r MessageRecord) String() string {
	ping := "0"
	if r.Ping {
		ping = "1"
	}
	buttons := "0"
	if r.Buttons {
		buttons = "1"
	}
	s := strconv.Itoa(r.ID) + ":" + r.Digest + ":" + ping + ":" + joinIDs(r.Stale) + ":" +
		strconv.FormatInt(r.StaleSince, 10) + ":" + strconv.FormatInt(r.Pending, 10) + ":" +
		joinIDs(r.Strip) + ":" + strconv.Itoa(r.Gen) + ":" + buttons
	if r.Tries == 0 && r.TriedAt == 0 && r.Await == 0 {
		return s // as versions before Tries wrote it, which they read
	}
	return s + ":" + strconv.Itoa(r.Tries) + ":" + strconv.FormatInt(r.TriedAt, 10) + ":" + strconv.FormatInt(r.Await, 10)
}

func joinIDs(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	return strings.Join(s, ",")
}

func splitIDs(s string) []int {
	var ids []int
	for _, x := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(x); err == nil && n > 0 {
			ids = append(ids, n)
		}
	}
	return ids
}

// ParseMessageRecord reads a record (records written before Pending existed
// have five fields, before Strip six, and those without unanswered sends
// nine); anything unreadable is an empty record (the view is then posted
// anew).
func ParseMessageRecord(s string) MessageRecord {
	f := strings.Split(s, ":")
	if len(f) != 5 && len(f) != 6 && len(f) != 9 && len(f) != 12 {
		return MessageRecord{}
	}
	id, err := strconv.Atoi(f[0])
	if err != nil {
		return MessageRecord{}
	}
	r := MessageRecord{ID: id, Digest: f[1], Ping: f[2] == "1", Stale: splitIDs(f[3]), Buttons: true}
	r.StaleSince, _ = strconv.ParseInt(f[4], 10, 64)
	if len(f) >= 6 {
		r.Pending, _ = strconv.ParseInt(f[5], 10, 64)
	}
	if len(f) >= 9 {
		r.Strip = splitIDs(f[6])
		r.Gen, _ = strconv.Atoi(f[7])
		r.Buttons = f[8] == "1"
	}
	if len(f) == 12 {
		r.Tries, _ = strconv.Atoi(f[9])
		r.TriedAt, _ = strconv.ParseInt(f[10], 10, 64)
		r.Await, _ = strconv.ParseInt(f[11], 10, 64)
	}
	return r
}

// Replaced reports whether id is a message this view showed before.
func (r MessageRecord) Replaced(id int) bool {
	return slices.Contains(r.Stale, id) || slices.Contains(r.Strip, id)
}
