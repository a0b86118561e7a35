package adapter

import (
	"time"

	"github.com/trickchef/trickchef/bot/record"
)

// A long turn (the table's time for a move an hour or more) is said as a
// clock time in the group's zone, not as a bound of the time left: it
// runs for hours, its clock stops at night, and «до 21:40» stays true
// however seldom the message is drawn.

// longDeadline is a long turn's deadline text («⏳ ход до 21:40»), or
// false for a seat whose turn is not long.
func longDeadline(l Loc, v TableView, ts *record.Seat) (string, bool) {
	if ts.Turn == nil || ts.Turn.Nonce != ts.Nonce {
		return "", false
	}
	key := "table.deadline_until"
	if ts.Turn.Night {
		key = "table.deadline_night"
	}
	return l.T(key, "Until", Until(l, v.t.Location(), v.now, ts.Due)), true
}

// Until says until when, on the wall clock of loc, to a reader at now:
// «до 21:40» the same day, «до пятницы, 14:00» another. A long turn ends
// within three days, so the weekday names its day for as long as the
// message is read before it (and a text drawn today never says «завтра»,
// which would go stale overnight).
func Until(l Loc, loc *time.Location, now, at time.Time) string {
	at = at.In(loc)
	hm := at.Format("15:04")
	if y, m, d := now.In(loc).Date(); at.Year() == y && at.Month() == m && at.Day() == d {
		return l.T("until.today", "Time", hm)
	}
	return l.T("until.day", "Day", l.T("until."+weekdayKey(at.Weekday())), "Time", hm)
}

// weekdayKey is the catalog's key of a day ("until.<day>": the day in the
// case «до» takes).
func weekdayKey(d time.Weekday) string {
	return [...]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}[d]
}
