package userlimit

import (
	"testing"
	"time"
)

// TestLimiter pins the per-user bucket: a burst passes, the flood past it
// is refused, time refills it at the rate, users do not share buckets,
// and the users remembered stay bounded however many come.
func TestLimiter(t *testing.T) {
	l := New(8, 16)
	now := time.UnixMilli(1_700_000_000_000)
	passed := 0
	for range 40 { // forty at once
		if l.Allow(1, now) {
			passed++
		}
	}
	if passed != 16 {
		t.Fatalf("%d of 40 at once passed, want the burst of 16", passed)
	}
	if !l.Allow(2, now) {
		t.Fatal("another user was refused for the first one's flood")
	}
	// Twenty a second for ten seconds: about eight of them pass each second.
	passed = 0
	for i := range 200 {
		if l.Allow(1, now.Add(time.Duration(i+1)*50*time.Millisecond)) {
			passed++
		}
	}
	if passed < 78 || passed > 82 {
		t.Fatalf("%d of 200 at 20 a second passed in 10 s, want about 80", passed)
	}
	// A person at five a second is never refused.
	later := now.Add(time.Minute)
	for i := range 300 {
		if !l.Allow(3, later.Add(time.Duration(i)*200*time.Millisecond)) {
			t.Fatalf("press %d at five a second refused", i)
		}
	}
	// Memory stays bounded: idle users are forgotten.
	for u := range int64(maxUsers + 10) {
		l.Allow(1000+u, later.Add(2*time.Minute))
	}
	if n := l.Users(); n > maxUsers {
		t.Fatalf("%d users remembered, bound %d", n, maxUsers)
	}
}
