package view

import (
	"reflect"
	"testing"
)

// TestMessageRecordRoundTrip: a record survives the store's string form,
// and records written before Pending or Strip existed still read (their
// messages taken to show buttons). A record with no unanswered sends is
// written as versions before them wrote it.
func TestMessageRecordRoundTrip(t *testing.T) {
	for _, r := range []MessageRecord{
		{ID: 42, Digest: "ab12", Ping: true, Stale: []int{7, 9}, StaleSince: 1700000000000, Pending: 1700000000500, Strip: []int{9}, Gen: 2, Buttons: true},
		{ID: 43, Digest: "cd", Gen: 0},
		{Digest: "ef", Ping: true, Stale: []int{7}, Tries: 2, TriedAt: 31, Await: 1700000003000},
	} {
		if got := ParseMessageRecord(r.String()); !reflect.DeepEqual(got, r) {
			t.Fatalf("round trip: %+v, want %+v", got, r)
		}
	}
	old := ParseMessageRecord("42:ab12:1:7,9:1700000000000")
	if old.ID != 42 || !old.Ping || len(old.Stale) != 2 || old.Pending != 0 || !old.Buttons {
		t.Fatalf("five-field record read as %+v", old)
	}
	six := ParseMessageRecord("42:ab12:0::0:1700000000500")
	if six.Pending != 1700000000500 || len(six.Stale) != 0 || six.Strip != nil || !six.Buttons {
		t.Fatalf("six-field record read as %+v", six)
	}
	if s := (MessageRecord{ID: 42, Digest: "ab12", Buttons: true}).String(); s != "42:ab12:0::0:0::0:1" {
		t.Fatalf("a record without unanswered sends written as %q", s)
	}
	if bad := ParseMessageRecord("42:ab12"); bad.ID != 0 {
		t.Fatalf("unreadable record read as %+v", bad)
	}
}
