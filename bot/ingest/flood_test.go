package ingest

import (
	"testing"
	"time"
)

// TestFloodGate: the gate is the user limiter (userlimit's tests pin the
// bucket) plus a free pass for updates without a sender.
func TestFloodGate(t *testing.T) {
	f := newFloodGate(8, 16)
	now := time.UnixMilli(1_700_000_000_000)
	id := int64(0)
	allow := func(user int64) bool {
		id++
		ok, _ := f.allow(id, user, now)
		return ok
	}
	for range 40 {
		allow(1)
	}
	if allow(1) {
		t.Fatal("the 41st press at once passed a burst of 16")
	}
	if !allow(0) {
		t.Fatal("an update without a sender was refused")
	}
	if !allow(2) {
		t.Fatal("another user was refused for the first one's flood")
	}
}
