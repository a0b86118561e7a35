package record

import (
	"time"

	// The zones a group may choose must load on any host, a container
	// without a zoneinfo of its own included.
	_ "time/tzdata"
)

// A long turn is a person's turn at a table whose time for a move is an
// hour or more (LongTurn). Its deadline is a clock time in the group's
// zone, its clock stops at night (the night does not count, Deadline), and
// the person is reminded once in private before it runs out (Turn).

// LongTurn is the shortest time for a move that makes a turn long.
const LongTurn = time.Hour

// Long reports whether a time for a move makes turns long.
func Long(turn time.Duration) bool { return turn >= LongTurn }

// DefaultZone is a group's time zone until its lobby picks one.
const DefaultZone = "Europe/Moscow"

// Zone is a time zone a lobby offers: its IANA name, kept in the record,
// and its key among the catalog's names of zones ("zone.<key>").
type Zone struct {
	Name string
	Key  string
}

// Zones are the zones a lobby offers, west to east: where the groups
// that play in Russian live.
func Zones() []Zone {
	return []Zone{
		{"Europe/Berlin", "berlin"},
		{"Europe/Riga", "riga"},
		{"Europe/Kaliningrad", "kaliningrad"},
		{"Europe/Kyiv", "kyiv"},
		{"Europe/Chisinau", "chisinau"},
		{"Asia/Jerusalem", "jerusalem"},
		{"Europe/Minsk", "minsk"},
		{"Europe/Moscow", "moscow"},
		{"Asia/Tbilisi", "tbilisi"},
		{"Asia/Yerevan", "yerevan"},
		{"Asia/Baku", "baku"},
		{"Europe/Samara", "samara"},
		{"Asia/Yekaterinburg", "yekaterinburg"},
		{"Asia/Tashkent", "tashkent"},
		{"Asia/Almaty", "almaty"},
		{"Asia/Bishkek", "bishkek"},
		{"Asia/Omsk", "omsk"},
		{"Asia/Novosibirsk", "novosibirsk"},
		{"Asia/Krasnoyarsk", "krasnoyarsk"},
		{"Asia/Irkutsk", "irkutsk"},
		{"Asia/Yakutsk", "yakutsk"},
		{"Asia/Vladivostok", "vladivostok"},
		{"Asia/Magadan", "magadan"},
		{"Asia/Kamchatka", "kamchatka"},
	}
}

// ZoneOf is the offered zone named name: the default for "" or a name
// not offered (a record is data: it may hold anything).
func ZoneOf(name string) Zone {
	if name == "" {
		name = DefaultZone
	}
	for _, z := range Zones() {
		if z.Name == name {
			return z
		}
	}
	return ZoneOf(DefaultZone)
}

// Location is the time zone of the table's group.
func (t *Table) Location() *time.Location {
	loc, err := time.LoadLocation(ZoneOf(t.Zone).Name)
	if err != nil {
		// Only a broken build lacks the embedded zones; Moscow has not
		// changed its offset since 2014.
		return time.FixedZone("MSK", 3*60*60)
	}
	return loc
}

// Night is when the clock of a long turn stops: from From to To on the
// group's wall clock, both as offsets from midnight (From after To: the
// night runs past midnight). A deadline never falls inside it.
type Night struct {
	From, To time.Duration
}

// DefaultNight is 23:00–09:00.
func DefaultNight() Night { return Night{From: 23 * time.Hour, To: 9 * time.Hour} }

// Deadline is when a long turn that starts at start with d of time runs
// out in the zone loc, the night n not counting: the clock runs by day,
// stops when the night begins and runs on in the morning. A turn that
// starts at night starts in the morning; one whose time runs out exactly
// as the night begins ends then. Durations are real time, so a night made
// shorter or longer by a change to or from summer time counts as what it
// is. Pure: the same arguments, the same deadline.
func Deadline(start time.Time, d time.Duration, loc *time.Location, n Night) time.Time {
	if n.From == n.To || d <= 0 {
		return start.Add(max(d, 0))
	}
	t, left := start, d
	for {
		if n.in(t, loc) {
			t = n.next(t, loc, n.To)
		}
		dusk := n.next(t, loc, n.From)
		if day := dusk.Sub(t); left > day {
			t, left = dusk, left-day
			continue
		}
		return t.Add(left)
	}
}

// Skips reports whether a turn of d from start to deadline lost time to
// a night: what the deadline's text then says.
func Skips(start, deadline time.Time, d time.Duration) bool { return deadline.Sub(start) > d }

// in reports whether t falls in the night: the last dusk before it (or at
// it) came after the last dawn.
func (n Night) in(t time.Time, loc *time.Location) bool {
	return n.last(t, loc, n.From).After(n.last(t, loc, n.To))
}

// next is the first moment after t at which the wall clock of loc shows
// off past midnight.
func (n Night) next(t time.Time, loc *time.Location, off time.Duration) time.Time {
	for day := 0; ; day++ {
		if at := wallClock(t, loc, day, off); at.After(t) {
			return at
		}
	}
}

// last is the last moment at or before t at which the wall clock of loc
// shows off past midnight.
func (n Night) last(t time.Time, loc *time.Location, off time.Duration) time.Time {
	for day := 0; ; day-- {
		if at := wallClock(t, loc, day, off); !at.After(t) {
			return at
		}
	}
}

// wallClock is the moment the wall clock of loc shows off past midnight,
// days after t's date there. A wall clock time that a change to summer
// time skips is read as time.Date reads it.
func wallClock(t time.Time, loc *time.Location, days int, off time.Duration) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d+days, int(off/time.Hour), int(off%time.Hour/time.Minute), 0, 0, loc)
}

// Turn is a person's long turn while it runs: which turn it is, whether
// its deadline (Seat.Due) skips a night, and when the person is reminded
// of it. Nil for a short turn and for a seat with nothing to do.
type Turn struct {
	// Nonce is the seat's nonce when the turn began: the turn is this
	// seat's while its nonce is the same, so a reminder never comes for
	// a move already made.
	Nonce int `json:"nonce"`
	// Night is set when the deadline lies past a night that did not count.
	Night bool `json:"night,omitempty"`
	// Remind is when the person gets their one reminder; zero once it
	// was queued.
	Remind time.Time `json:"remind,omitempty"`
}

// RemindAt is when the seat's reminder of its long turn is due; zero when
// none waits.
func (s *Seat) RemindAt() time.Time {
	if s.Turn == nil || s.Due.IsZero() || s.Turn.Nonce != s.Nonce {
		return time.Time{}
	}
	return s.Turn.Remind
}
