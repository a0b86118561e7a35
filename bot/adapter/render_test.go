package adapter

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/locales"
)

// The time a deadline states is an upper bound of the time left: never
// less than is left (so it stays true while the message waits for its next
// edit), rounded up to less than one of its units over it, and in a unit
// the catalog has words for.
func TestDeadlineBoundNeverPromisesLess(t *testing.T) {
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	var lefts []time.Duration
	for d := time.Millisecond; d < 5*time.Hour; d = d*11/10 + time.Millisecond {
		lefts = append(lefts, d)
	}
	lefts = append(lefts, time.Minute, time.Minute+1, time.Hour, time.Hour+1, 59*time.Minute+time.Second)
	for _, left := range lefts {
		key, count, bound := deadlineBound(left)
		if bound < left {
			t.Errorf("%v left: states %v, less than is left", left, bound)
		}
		unit, countUnit := time.Minute, time.Minute
		switch {
		case bound > time.Hour:
			unit, countUnit = time.Hour, time.Hour
		case bound < time.Minute:
			unit, countUnit = deadlineStep, time.Second
		}
		if bound-left >= unit {
			t.Errorf("%v left: states %v, a whole %v too much", left, bound, unit)
		}
		if (count == 0) != (bound == time.Minute) || count != 0 && time.Duration(count)*countUnit != bound {
			t.Errorf("%v left: count %d does not say %v", left, count, bound)
		}
		for _, lang := range cat.Langs() {
			if !cat.Has(key) || strings.Contains(DeadlineLeft(NewLoc(cat, lang), left), "{{") {
				t.Errorf("%v left: %s has no text in %s", left, key, lang)
			}
		}
	}
}
