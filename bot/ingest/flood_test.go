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
	for range 40 {
		f.allow(1, now)
	}
	if f.allow(1, now) {
		t.Fatal("the 41st press at once passed a burst of 16")
	}
	if !f.allow(0, now) {
		t.Fatal("an update without a sender was refused")
	}
	if !f.allow(2, now) {
		t.Fatal("another user was refused for the first one's flood")
	}
}
