package record

import (
	"fmt"
	"strconv"
	"strings"
)

// A chat's tables. A group (or one forum topic in it) holds any number of
// tables up to MaxTables, numbered from 1; each is a record of its own,
// and its id names it in every store key, button, link, timer and result.
// Table 1's id is the chat's (ID): the id every table had before a chat
// could hold more, so the tables, buttons and links of then load
// unchanged. Table n's id is table 1's with a letter after it: b for 2, c
// for 3, … z for 26 (the letter the group's one-time second table already
// carried, so a stored second table is table 2). A private chat holds
// table 1 only: the person's practice table.

// MaxTables is the most tables a chat can hold: one a letter.
const MaxTables = 26

// MaxLimit is the most tables a group may be configured to hold
// (MAX_TABLES): the last table is the host of the group's cups
// (CupHost), never a table /newgame opens.
const MaxLimit = CupHost - 1

// Limit is a group's table limit configured as n (MAX_TABLES): 4 when
// not configured, MaxLimit at most.
func Limit(n int) int {
	if n <= 0 {
		return 4
	}
	return min(n, MaxLimit)
}

// TableID is the id of table n of a chat, or of one forum topic in it.
// n outside 1…MaxTables is a programming error.
func TableID(chatID int64, thread, n int) string {
	if n < 1 || n > MaxTables {
		panic(fmt.Sprintf("record: table number %d out of 1…%d", n, MaxTables))
	}
	if n == 1 {
		return ID(chatID, thread)
	}
	return ID(chatID, thread) + string(rune('a'+n-1))
}

// ParseTable splits a table id back into chat, topic and table number. It
// accepts exactly what TableID makes: one id a table, so "+100" or
// "-100a" never name a key of their own.
func ParseTable(id string) (chatID int64, thread, n int, err error) {
	own, n := id, 1
	if k := len(id) - 1; k > 0 && id[k] >= 'b' && id[k] <= 'z' {
		own, n = id[:k], int(id[k]-'a')+1
	}
	chat, topic, hasTopic := strings.Cut(own, "_")
	chatID, err = strconv.ParseInt(chat, 10, 64)
	if err != nil || chatID == 0 {
		return 0, 0, 0, fmt.Errorf("bad table id %q", id)
	}
	if hasTopic {
		thread, err = strconv.Atoi(topic)
		if err != nil || thread <= 0 {
			return 0, 0, 0, fmt.Errorf("bad table id %q", id)
		}
	}
	if ID(chatID, thread) != own || n > 1 && chatID > 0 {
		// "+100" or "0100" would name a different key for the same chat;
		// a private chat has one table.
		return 0, 0, 0, fmt.Errorf("non-canonical table id %q", id)
	}
	return chatID, thread, n, nil
}

// TableNo is the number of the table id names among its chat's: 1 for
// the chat's own id (and for an id that names no table).
func TableNo(id string) int {
	if _, _, n, err := ParseTable(id); err == nil {
		return n
	}
	return 1
}

// Sibling is table n of the chat (and topic) of table id; "" when id names
// no table or n is out of 1…MaxTables.
func Sibling(id string, n int) string {
	chat, thread, _, err := ParseTable(id)
	if err != nil || n < 1 || n > MaxTables || n > 1 && chat > 0 {
		return ""
	}
	return TableID(chat, thread, n)
}
