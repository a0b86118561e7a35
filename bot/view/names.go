package view

import (
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/record"
)

// Views are the messages the bot keeps up to date. Their names carry the
// game number, so each game gets fresh messages and an old game's message
// is never edited into a new one.

// Table names the one group message of a game: lobby, table, result.
func Table(gameNo int) string { return "table:" + strconv.Itoa(gameNo) }

// Hand names the private hand message of a seat.
func Hand(gameNo, seat int) string {
	return "hand:" + strconv.Itoa(gameNo) + ":" + strconv.Itoa(seat)
}

// GroupHand names the record of a seat's hand in the group: the ephemeral
// message only its person sees (bot/deliver/grouphand). It is never
// marked dirty itself: it follows the seat's Hand.
func GroupHand(gameNo, seat int) string {
	return "ghand:" + strconv.Itoa(gameNo) + ":" + strconv.Itoa(seat)
}

// Parse splits a view name into its kind ("table", "hand" or "ghand"),
// game number and seat (-1 for the table).
func Parse(v string) (kind string, gameNo, seat int, ok bool) {
	parts := strings.Split(v, ":")
	var err error
	switch {
	case len(parts) == 2 && parts[0] == "table":
		gameNo, err = strconv.Atoi(parts[1])
		return "table", gameNo, -1, err == nil && Table(gameNo) == v
	case len(parts) == 3 && (parts[0] == "hand" || parts[0] == "ghand"):
		gameNo, err = strconv.Atoi(parts[1])
		if err != nil {
			return "", 0, 0, false
		}
		seat, err = strconv.Atoi(parts[2])
		return parts[0], gameNo, seat, err == nil && seat >= 0 && parts[0]+":"+strconv.Itoa(gameNo)+":"+strconv.Itoa(seat) == v
	}
	return "", 0, 0, false
}

// All lists every view of the table; a commit marks them all dirty and
// delivery skips those whose rendering did not change.
func All(t *record.Table) []string {
	if t.GameNo == 0 {
		return nil
	}
	v := []string{Table(t.GameNo)}
	if t.State != nil {
		for i, s := range t.Seats {
			if s.Human() || s.Leaver != nil {
				v = append(v, Hand(t.GameNo, i))
			}
		}
	}
	return v
}
