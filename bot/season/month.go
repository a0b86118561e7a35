// Package season is a group's season: a calendar month in the group's time
// zone, per game. It ranks a month's finished games (store.Result, as the
// store keeps them) into standings with a season score, and sums a month up
// for its recap: the champion and the podium, the most games, the best
// single game and the biggest rise (docs/bot.md «Seasons»).
//
// It is pure: the caller gives the results, the time and the zone; it reads
// no clock and no store, and it never names a game.
package season

import (
	"fmt"
	"time"
)

// Month is a calendar month: a season.
type Month struct {
	Year  int
	Month time.Month
}

// Of is the month t falls in, in loc (nil: UTC).
func Of(t time.Time, loc *time.Location) Month {
	y, m, _ := t.In(zone(loc)).Date()
	return Month{y, m}
}

// NextEnd is the end of the month t falls in: the first instant of the next
// month in loc, always after t.
func NextEnd(t time.Time, loc *time.Location) time.Time {
	return Of(t, loc).End(loc)
}

func (m Month) String() string { return fmt.Sprintf("%04d-%02d", m.Year, int(m.Month)) }

// Next and Prev are the months after and before.
func (m Month) Next() Month {
	if m.Month == time.December {
		return Month{m.Year + 1, time.January}
	}
	return Month{m.Year, m.Month + 1}
}

func (m Month) Prev() Month {
	if m.Month == time.January {
		return Month{m.Year - 1, time.December}
	}
	return Month{m.Year, m.Month - 1}
}

// Before reports whether m is an earlier month than o.
func (m Month) Before(o Month) bool {
	return m.Year < o.Year || m.Year == o.Year && m.Month < o.Month
}

// Contains reports whether t falls in m, in loc.
func (m Month) Contains(t time.Time, loc *time.Location) bool { return Of(t, loc) == m }

// Start is the month's first instant in loc: midnight of the 1st — or,
// where a clock change skips that midnight (Asunción went from 23:59:59 to
// 01:00 on 1 October 2023), the first instant of the 1st that exists.
// time.Date alone may land on either side of such a gap.
func (m Month) Start(loc *time.Location) time.Time {
	loc = zone(loc)
	guess := time.Date(m.Year, m.Month, 1, 0, 0, 0, 0, loc)
	// The first second whose month, in loc, is m or later: a day either
	// side holds it, whatever the zone's offset does there.
	lo, hi := guess.Add(-48*time.Hour).Unix(), guess.Add(48*time.Hour).Unix()
	for lo < hi {
		mid := lo + (hi-lo)/2
		if Of(time.Unix(mid, 0), loc).Before(m) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return time.Unix(lo, 0).In(loc)
}

// End is the month's end: the next month's Start.
func (m Month) End(loc *time.Location) time.Time { return m.Next().Start(loc) }

func zone(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}
