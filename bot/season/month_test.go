package season

import (
	"testing"
	"time"
	_ "time/tzdata" // the zones' rules as this Go ships them, whatever the machine has
)

func zoneOf(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestMonthEnds: a month ends at midnight of the 1st in the group's zone —
// Vladivostok (UTC+10), Kaliningrad (UTC+2), Berlin on both sides of its
// clock changes — and, where a clock change skips that midnight
// (Asunción) or repeats it (Havana), at the first instant of the 1st.
func TestMonthEnds(t *testing.T) {
	tests := []struct {
		zone string
		at   string // any instant of the month
		want string // its end
	}{
		{"Asia/Vladivostok", "2026-01-15T12:00:00Z", "2026-01-31T14:00:00Z"},
		{"Asia/Vladivostok", "2026-01-31T13:59:59Z", "2026-01-31T14:00:00Z"},
		{"Asia/Vladivostok", "2026-01-31T14:00:00Z", "2026-02-28T14:00:00Z"}, // already February there
		{"Asia/Vladivostok", "2026-12-31T13:00:00Z", "2026-12-31T14:00:00Z"},
		{"Europe/Kaliningrad", "2026-01-31T14:00:00Z", "2026-01-31T22:00:00Z"}, // still January there
		{"Europe/Kaliningrad", "2026-02-10T00:00:00Z", "2026-02-28T22:00:00Z"},
		{"Europe/Kaliningrad", "2026-12-31T21:59:59Z", "2026-12-31T22:00:00Z"},
		{"Europe/Berlin", "2026-03-15T00:00:00Z", "2026-03-31T22:00:00Z"}, // April starts in summer time
		{"Europe/Berlin", "2026-10-15T00:00:00Z", "2026-10-31T23:00:00Z"}, // November in winter time
		{"UTC", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"},
		// 1 October 2023: Asunción's clocks went from 23:59:59 to 01:00.
		{"America/Asuncion", "2023-09-30T12:00:00Z", "2023-10-01T04:00:00Z"},
		// 1 November 2026: Havana's clocks go back from 01:00 to 00:00;
		// November starts at the first midnight.
		{"America/Havana", "2026-10-31T12:00:00Z", "2026-11-01T04:00:00Z"},
	}
	for _, tc := range tests {
		loc := zoneOf(t, tc.zone)
		at, want := utc(tc.at), utc(tc.want)
		if got := NextEnd(at, loc); !got.Equal(want) {
			t.Errorf("%s: NextEnd(%s) = %s, want %s", tc.zone, tc.at, got.UTC().Format(time.RFC3339), tc.want)
		}
		if got := Of(want, loc); got != Of(at, loc).Next() {
			t.Errorf("%s: %s is in %s, want %s", tc.zone, tc.want, got, Of(at, loc).Next())
		}
		if got := Of(want.Add(-time.Nanosecond), loc); got != Of(at, loc) {
			t.Errorf("%s: just before %s is %s, want %s", tc.zone, tc.want, got, Of(at, loc))
		}
	}
}

// TestMonthStartsEverywhere: in every zone of a varied list, every month
// from 1990 to 2040 starts at an instant of its 1st whose previous
// nanosecond is in the month before, and NextEnd of any instant is the
// next such start.
func TestMonthStartsEverywhere(t *testing.T) {
	zones := []string{"UTC", "Asia/Vladivostok", "Europe/Kaliningrad", "Europe/Moscow", "Europe/Berlin",
		"America/Asuncion", "America/Havana", "America/Santiago", "America/Sao_Paulo", "Asia/Tehran",
		"Australia/Lord_Howe", "Pacific/Apia", "Pacific/Chatham", "Asia/Kathmandu", "America/St_Johns"}
	for _, name := range zones {
		loc := zoneOf(t, name)
		for m := (Month{1990, time.January}); m.Before(Month{2041, time.January}); m = m.Next() {
			s := m.Start(loc)
			if Of(s, loc) != m || Of(s.Add(-time.Nanosecond), loc) != m.Prev() || s.In(loc).Day() != 1 {
				t.Fatalf("%s: %s starts at %s", name, m, s)
			}
			if got := NextEnd(s.Add(-time.Nanosecond), loc); !got.Equal(s) {
				t.Fatalf("%s: NextEnd before %s = %s, want %s", name, m, got, s)
			}
			if end := NextEnd(s, loc); !end.After(s) || !end.Equal(m.End(loc)) {
				t.Fatalf("%s: NextEnd(%s) = %s", name, s, end)
			}
		}
	}
}

func TestMonthArithmetic(t *testing.T) {
	dec := Month{2026, time.December}
	if dec.Next() != (Month{2027, time.January}) || dec.Next().Prev() != dec || dec.String() != "2026-12" {
		t.Errorf("December: next %v, back %v, %s", dec.Next(), dec.Next().Prev(), dec)
	}
	if !(Month{2026, time.November}).Before(dec) || dec.Before(dec) || dec.Next().Before(dec) {
		t.Error("Before")
	}
	if Of(utc("2026-05-31T23:00:00Z"), nil) != (Month{2026, time.May}) {
		t.Error("a nil zone is UTC")
	}
}
