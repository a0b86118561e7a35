package store

import "strconv"

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
}

// InboxChat is the inbox key of a Telegram chat (updates without a chat
// use chat 0).
func InboxChat(chat int64) string { return strconv.FormatInt(chat, 10) }
