package season

import (
	"testing"
	"time"
)

// TestAttackMonthEdges: in zones whose clocks jump around midnight or sit
// off the hour (Asunción, Chatham, Lord Howe, Kathmandu, Kiritimati,
// Samoa, Havana, Santiago, Tehran, Nuuk), every month's Start is the first
// second of the month there, and the second before it is the last of the
// month before; End is the next Start.
func TestAttackMonthEdges(t *testing.T) {
	for _, name := range []string{"America/Asuncion", "Pacific/Chatham", "Australia/Lord_Howe", "Asia/Kathmandu",
		"Pacific/Kiritimati", "Pacific/Apia", "America/Havana", "America/Santiago", "Asia/Tehran", "America/Nuuk", "UTC"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Logf("%s: %v", name, err)
			continue
		}
		for m := (Month{2010, time.January}); m.Before(Month{2031, time.January}); m = m.Next() {
			s := m.Start(loc)
			if got := Of(s, loc); got != m {
				t.Errorf("%s: %v starts at %v, in %v", name, m, s, got)
			}
			if got := Of(s.Add(-time.Second), loc); got != m.Prev() {
				t.Errorf("%s: the second before %v's start %v is in %v", name, m, s, got)
			}
			if !m.End(loc).Equal(m.Next().Start(loc)) || !NextEnd(s, loc).Equal(m.End(loc)) {
				t.Errorf("%s: %v ends at %v, next starts at %v", name, m, m.End(loc), m.Next().Start(loc))
			}
		}
	}
}
