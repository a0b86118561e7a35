package store

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/store/redistest"
)

// TestEveryKeyExpires writes through every method that writes, then
// checks that every key but the global ones (the queues, the dead-letter
// index) has a time to live: nothing of a chat lives forever.
func TestEveryKeyExpires(t *testing.T) {
	ctx := t.Context()
	c := redistest.Client(t)
	prefix := redistest.Prefix(t)
	r := NewRedis(c, prefix, Config{})
	at := time.UnixMilli(1_700_000_000_000)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	v, err := r.Commit(ctx, "-1", Change{Data: []byte("a")})
	must(err)
	// Keys a later commit creates, while the record's time is fresh.
	_, err = r.Commit(ctx, "-1", Change{Version: v, Data: []byte("b"), UpdateID: 5, Dirty: []string{"table"},
		Outbox: [][]byte{[]byte("o")}, WakeAt: at, TimerAt: at})
	must(err)
	_, err = r.Commit(ctx, "-2", Change{OnlyQueue: true, UpdateID: 6, Outbox: [][]byte{[]byte("reply")}})
	must(err)
	must(r.SetMessage(ctx, "-1", "table", "m"))
	must(r.SetMessage(ctx, "-3", "table", "m"))
	must(r.Ingest(ctx, "-1", []InboxEntry{{ID: 1, Data: []byte("u")}, {ID: 2, Data: []byte("v")}}, at))
	must(r.DeadLetter(ctx, "-1", InboxEntry{ID: 2, Data: []byte("v")}, "r"))
	must(r.SetPointer(ctx, UserTableKey(1), "-1"))
	_, err = r.Attempt(ctx, "in:-1", "1", time.Hour)
	must(err)
	must(r.Ingest(ctx, "-4", []InboxEntry{{ID: 3, Data: []byte("w")}}, at))
	must(r.DeadLetter(ctx, "-4", InboxEntry{ID: 3, Data: []byte("w")}, "r"))
	must(r.Requeue(ctx, "-4", 3, at))
	_, _, err = r.Allow(ctx, ChatRateKey(-1), 5, time.Minute, at)
	must(err)
	must(r.Block(ctx, ChatRateKey(-1), time.Now().Add(time.Minute)))
	_, err = r.RecordResult(ctx, Result{ID: "r1", Game: "trickchef", Chat: -1, Started: at, Ended: at,
		Seats: []ResultSeat{{Player: "u1", Name: "A", Place: 1}, {Player: "rpro", Name: "R", Place: 2}}}, nil)
	must(err)
	_, err = r.RecordResult(ctx, Result{ID: "r2", Game: "chef", Chat: -1, Started: at, Ended: at,
		Seats: []ResultSeat{{Player: "u1", Name: "A", Place: 1}, {Player: "rpro", Name: "R", Place: 2}}}, nil)
	must(err)

	must(r.KeepGame(ctx, "-1:1:1700000000", []int64{1, 2}, []byte("game")))
	must(r.SetReview(ctx, "-1:1:1700000000", 1, []byte("review")))

	global := map[string]bool{r.deadIndexKey(): true}
	for _, q := range queues {
		k := r.queueKeys(q)
		for _, key := range []string{k.due, k.held, k.token, k.again, k.ver} {
			global[key] = true
		}
	}
	keys, err := c.Keys(ctx, prefix+"*").Result()
	must(err)
	if len(keys) < 20 {
		t.Fatalf("only %d keys written: %v", len(keys), keys)
	}
	for _, k := range keys {
		if global[k] {
			continue
		}
		if ttl := c.PTTL(ctx, k).Val(); ttl < 0 {
			t.Errorf("%s has no time to live", k)
		}
	}
}
