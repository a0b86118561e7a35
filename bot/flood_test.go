package bot

import (
	"testing"
	"time"
)

// TestFloodGate pins the per-user bucket: a burst passes, the flood past
// it is refused, time refills it at the rate, users do not share buckets,
// and the users remembered stay bounded however many come.
func TestFloodGate(t *testing.T) {
	f := newFloodGate(8, 16)
	now := time.UnixMilli(1_700_000_000_000)
	passed := 0
	for range 40 { // forty presses at once
		if f.allow(1, now) {
			passed++
		}
	}
	if passed != 16 {
		t.Fatalf("%d of 40 presses at once passed, want the burst of 16", passed)
	}
	if !f.allow(2, now) {
		t.Fatal("another user was refused for the first one's flood")
	}
	if !f.allow(0, now) {
		t.Fatal("an update without a sender was refused")
	}
	// Twenty a second for ten seconds: about eight of them pass each second.
	passed = 0
	for i := range 200 {
		if f.allow(1, now.Add(time.Duration(i+1)*50*time.Millisecond)) {
			passed++
		}
	}
	if passed < 78 || passed > 82 {
		t.Fatalf("%d of 200 presses at 20 a second passed in 10 s, want about 80", passed)
	}
	// A person at human pace (one press every 200 ms) is never refused.
	later := now.Add(time.Minute)
	for i := range 300 {
		if !f.allow(3, later.Add(time.Duration(i)*200*time.Millisecond)) {
			t.Fatalf("press %d at five a second refused", i)
		}
	}
	// Memory stays bounded: idle users are forgotten.
	for u := range int64(floodUsers + 10) {
		f.allow(1000+u, later.Add(2*time.Minute))
	}
	if n := len(f.users); n > floodUsers {
		t.Fatalf("%d users remembered, bound %d", n, floodUsers)
	}
}
