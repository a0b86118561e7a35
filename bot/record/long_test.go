package record

import (
	"fmt"
	"testing"
	"time"
)

func zone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// TestDeadline: a long turn's deadline by the wall clock of its zone, the
// night 23:00–09:00 not counting: within a day, across midnight, starting
// at night, ending exactly at dusk, 24-hour turns, the turn of a month and
// a year, and both changes of summer time (Kyiv: 29 March 2026 03:00 →
// 04:00, 25 October 2026 04:00 → 03:00; Jerusalem: 27 March, Friday,
// 02:00 → 03:00), also with nights that hold the change and days that do.
func TestDeadline(t *testing.T) {
	msk, kyiv, jer := zone(t, "Europe/Moscow"), zone(t, "Europe/Kyiv"), zone(t, "Asia/Jerusalem")
	night := DefaultNight()
	at := func(loc *time.Location, mon time.Month, day, h, m int) time.Time {
		return time.Date(2026, mon, day, h, m, 0, 0, loc)
	}
	for _, tc := range []struct {
		name   string
		loc    *time.Location
		night  Night
		start  time.Time
		d      time.Duration
		want   time.Time // on the zone's wall clock
		skips  bool      // a night lies between
		realIs time.Duration
	}{
		{name: "within a day", loc: msk, start: at(msk, 11, 23, 12, 0), d: time.Hour, want: at(msk, 11, 23, 13, 0)},
		{name: "ends as the night begins", loc: msk, start: at(msk, 11, 23, 22, 0), d: time.Hour, want: at(msk, 11, 23, 23, 0)},
		{name: "the clock stops at night", loc: msk, start: at(msk, 11, 23, 22, 30), d: time.Hour, want: at(msk, 11, 24, 9, 30), skips: true},
		{name: "a minute before the night", loc: msk, start: at(msk, 11, 23, 22, 59), d: time.Hour, want: at(msk, 11, 24, 9, 59), skips: true},
		{name: "starts as the night begins", loc: msk, start: at(msk, 11, 23, 23, 0), d: time.Hour, want: at(msk, 11, 24, 10, 0), skips: true},
		{name: "starts after midnight", loc: msk, start: at(msk, 11, 24, 2, 0), d: time.Hour, want: at(msk, 11, 24, 10, 0), skips: true},
		{name: "starts just before the morning", loc: msk, start: at(msk, 11, 24, 8, 59), d: time.Hour, want: at(msk, 11, 24, 10, 0), skips: true},
		{name: "starts with the morning", loc: msk, start: at(msk, 11, 24, 9, 0), d: time.Hour, want: at(msk, 11, 24, 10, 0)},
		{name: "20 minutes over the night", loc: msk, start: at(msk, 11, 23, 22, 50), d: 20 * time.Minute, want: at(msk, 11, 24, 9, 10), skips: true},
		{name: "12 hours in a day", loc: msk, start: at(msk, 11, 23, 10, 0), d: 12 * time.Hour, want: at(msk, 11, 23, 22, 0)},
		{name: "12 hours over a night", loc: msk, start: at(msk, 11, 23, 12, 0), d: 12 * time.Hour, want: at(msk, 11, 24, 10, 0), skips: true},
		{name: "24 hours from the morning", loc: msk, start: at(msk, 11, 23, 9, 0), d: 24 * time.Hour, want: at(msk, 11, 24, 19, 0), skips: true},
		{name: "24 hours from the day", loc: msk, start: at(msk, 11, 23, 10, 0), d: 24 * time.Hour, want: at(msk, 11, 24, 20, 0), skips: true},
		{name: "24 hours from just before the night: two nights", loc: msk, start: at(msk, 11, 23, 22, 59), d: 24 * time.Hour, want: at(msk, 11, 25, 18, 59), skips: true},
		{name: "24 hours from the night", loc: msk, start: at(msk, 11, 24, 3, 0), d: 24 * time.Hour, want: at(msk, 11, 25, 19, 0), skips: true},
		{name: "24 hours, exactly a day and a night", loc: msk, start: at(msk, 11, 23, 13, 0), d: 24 * time.Hour, want: at(msk, 11, 24, 23, 0), skips: true},
		{name: "over the end of a month", loc: msk, start: at(msk, 11, 30, 22, 0), d: 12 * time.Hour, want: at(msk, 12, 1, 20, 0), skips: true},
		{name: "over the end of a year", loc: msk, start: time.Date(2026, 12, 31, 22, 0, 0, 0, msk), d: 12 * time.Hour, want: time.Date(2027, 1, 1, 20, 0, 0, 0, msk), skips: true},

		{name: "spring: the night an hour shorter", loc: kyiv, start: at(kyiv, 3, 28, 22, 30), d: time.Hour, want: at(kyiv, 3, 29, 9, 30), skips: true, realIs: 10 * time.Hour},
		{name: "spring: 24 hours", loc: kyiv, start: at(kyiv, 3, 28, 10, 0), d: 24 * time.Hour, want: at(kyiv, 3, 29, 20, 0), skips: true, realIs: 33 * time.Hour},
		{name: "spring: starts in the night of the change", loc: kyiv, start: at(kyiv, 3, 29, 2, 30), d: time.Hour, want: at(kyiv, 3, 29, 10, 0), skips: true},
		{name: "autumn: the night an hour longer", loc: kyiv, start: at(kyiv, 10, 24, 22, 30), d: time.Hour, want: at(kyiv, 10, 25, 9, 30), skips: true, realIs: 12 * time.Hour},
		{name: "autumn: 24 hours", loc: kyiv, start: at(kyiv, 10, 24, 10, 0), d: 24 * time.Hour, want: at(kyiv, 10, 25, 20, 0), skips: true, realIs: 35 * time.Hour},
		{name: "autumn: starts in the repeated hour", loc: kyiv, start: time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC), d: time.Hour, want: at(kyiv, 10, 25, 10, 0), skips: true},
		{name: "Jerusalem: a Friday change", loc: jer, start: at(jer, 3, 26, 22, 30), d: 12 * time.Hour, want: at(jer, 3, 27, 20, 30), skips: true, realIs: 21 * time.Hour},
		{name: "a night that holds the change", loc: kyiv, night: Night{From: 2 * time.Hour, To: 5 * time.Hour}, start: at(kyiv, 3, 29, 1, 30), d: time.Hour, want: at(kyiv, 3, 29, 5, 30), skips: true, realIs: 3 * time.Hour},
		{name: "a day that holds the change", loc: kyiv, night: Night{From: time.Hour, To: 2 * time.Hour}, start: at(kyiv, 3, 29, 2, 30), d: 3 * time.Hour, want: at(kyiv, 3, 29, 6, 30), realIs: 3 * time.Hour},
		{name: "a night before midnight only", loc: msk, night: Night{From: 20 * time.Hour, To: 22 * time.Hour}, start: at(msk, 11, 23, 19, 30), d: time.Hour, want: at(msk, 11, 23, 22, 30), skips: true},
		{name: "no night", loc: msk, night: Night{From: time.Hour, To: time.Hour}, start: at(msk, 11, 23, 22, 30), d: time.Hour, want: at(msk, 11, 23, 23, 30)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.night
			if n == (Night{}) {
				n = night
			}
			got := Deadline(tc.start, tc.d, tc.loc, n)
			if !got.Equal(tc.want) {
				t.Errorf("Deadline(%s, %v) = %s, want %s", tc.start.In(tc.loc), tc.d, got.In(tc.loc), tc.want)
			}
			if Skips(tc.start, got, tc.d) != tc.skips {
				t.Errorf("Skips = %v, want %v", !tc.skips, tc.skips)
			}
			if tc.realIs != 0 && got.Sub(tc.start) != tc.realIs {
				t.Errorf("the turn lasts %v in real time, want %v", got.Sub(tc.start), tc.realIs)
			}
			if again := Deadline(tc.start, tc.d, tc.loc, n); !again.Equal(got) {
				t.Errorf("not pure: %s, then %s", got, again)
			}
		})
	}
}

// TestDeadlineEverywhere checks Deadline against what it promises, at
// starts all through 2026 (every 5 minutes in the days around each change
// of summer time, every 29 minutes elsewhere), in zones with and without
// summer time, for the lobby's long times and a short one, and for the
// default night and two others: the deadline never falls inside the
// night, the time the clock ran between start and deadline — counted day
// by day, another way than Deadline counts — is the turn's time, and a
// later start or a longer turn never ends earlier.
func TestDeadlineEverywhere(t *testing.T) {
	nights := []Night{DefaultNight(), {From: time.Hour, To: 7 * time.Hour}, {From: 2 * time.Hour, To: 5 * time.Hour}}
	durations := []time.Duration{20 * time.Minute, time.Hour, 12 * time.Hour, 24 * time.Hour}
	cases := 0
	for _, name := range []string{"Europe/Moscow", "Europe/Kyiv", "Asia/Jerusalem", "Europe/Berlin", "Asia/Kamchatka"} {
		loc := zone(t, name)
		for _, n := range nights {
			prev := make([]time.Time, len(durations)) // the deadlines of the start before
			for start := time.Date(2026, 1, 1, 0, 0, 0, 0, loc); start.Year() == 2026; start = start.Add(step(start, loc)) {
				for i, d := range durations {
					got := Deadline(start, d, loc, n)
					cases++
					if n.in(got, loc) && !got.Equal(n.last(got, loc, n.From)) {
						t.Fatalf("%s %v: Deadline(%s, %v) = %s falls inside the night", name, n, start.In(loc), d, got.In(loc))
					}
					if ran := awake(start, got, loc, n); ran != d {
						t.Fatalf("%s %v: Deadline(%s, %v) = %s: the clock ran %v", name, n, start.In(loc), d, got.In(loc), ran)
					}
					if got.Before(start.Add(d)) {
						t.Fatalf("%s: Deadline(%s, %v) = %s is sooner than the time itself", name, start.In(loc), d, got.In(loc))
					}
					if i > 0 && !got.After(Deadline(start, durations[i-1], loc, n)) {
						t.Fatalf("%s: a longer turn from %s does not end later", name, start.In(loc))
					}
					if got.Before(prev[i]) {
						t.Fatalf("%s: a later start %s ends sooner (%s) than the one before (%s)", name, start.In(loc), got.In(loc), prev[i].In(loc))
					}
					prev[i] = got
				}
			}
		}
	}
	t.Logf("%d deadlines checked", cases)
}

// step is the next start TestDeadlineEverywhere tries: 5 minutes on the
// days around a change of summer time, 29 elsewhere.
func step(t time.Time, loc *time.Location) time.Duration {
	_, before := t.Add(-72 * time.Hour).In(loc).Zone()
	_, after := t.Add(72 * time.Hour).In(loc).Zone()
	if before != after {
		return 5 * time.Minute
	}
	return 29 * time.Minute
}

// awake is how long the clock of a long turn runs between a and b: the
// parts of [a, b) outside the night, summed date by date over the days of
// the zone (each the time between a dawn and the next dusk).
func awake(a, b time.Time, loc *time.Location, n Night) time.Duration {
	var sum time.Duration
	y, m, d := a.In(loc).Date()
	for day := -1; ; day++ {
		dawn := time.Date(y, m, d+day, int(n.To/time.Hour), int(n.To%time.Hour/time.Minute), 0, 0, loc)
		if !dawn.Before(b) {
			return sum
		}
		duskDay := d + day
		if n.From < n.To {
			duskDay++ // the night begins the next date
		}
		dusk := time.Date(y, m, duskDay, int(n.From/time.Hour), int(n.From%time.Hour/time.Minute), 0, 0, loc)
		from, to := later(a, dawn), earlier(b, dusk)
		if to.After(from) {
			sum += to.Sub(from)
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// TestZones: every zone a lobby offers loads, their keys are distinct,
// and a record naming no zone, or one not offered, is in Moscow.
func TestZones(t *testing.T) {
	keys := map[string]bool{}
	for _, z := range Zones() {
		if _, err := time.LoadLocation(z.Name); err != nil {
			t.Errorf("zone %s: %v", z.Name, err)
		}
		if keys[z.Key] {
			t.Errorf("key %q twice", z.Key)
		}
		keys[z.Key] = true
	}
	for _, name := range []string{"", "Mars/Olympus", "Europe/Moscow"} {
		if got := (&Table{Zone: name}).Location().String(); got != DefaultZone {
			t.Errorf("zone %q is %s, want %s", name, got, DefaultZone)
		}
	}
	if got := (&Table{Zone: "Asia/Kamchatka"}).Location().String(); got != "Asia/Kamchatka" {
		t.Errorf("Kamchatka is %s", got)
	}
}

func (n Night) String() string { return fmt.Sprintf("%v–%v", n.From, n.To) }
