package store_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestOutOfMemoryLosesNothing fills a real redis-server run with a tiny
// maxmemory (noeviction, as the bot requires) until it refuses writes:
// every write the bot makes then fails whole, nothing already stored
// disappears, the queues go on being claimed and released, and once memory
// is freed everything proceeds.
func TestOutOfMemoryLosesNothing(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t, "--maxmemory-policy", "noeviction")
	c := srv.Client(t)
	s := store.NewRedis(c, "tc:1:", store.Config{})
	ctx := t.Context()

	const tables = 12
	versions := map[string]int64{}
	for i := range tables {
		id := fmt.Sprint(-100 - i)
		v := get(s.Commit(ctx, id, store.Change{Data: []byte("state " + id), UpdateID: int64(1000 + i),
			Dirty: []string{"table"}, Outbox: [][]byte{[]byte("hello " + id)}, WakeAt: base, TimerAt: base.Add(time.Minute)}))(t)
		ok(t, s.SetMessage(ctx, id, "table", "m"+id))
		ok(t, s.Ingest(ctx, id, []store.InboxEntry{{ID: int64(2000 + i), Data: []byte("press")}, {ID: int64(3000 + i), Data: []byte("press 2")}}, base))
		ok(t, s.SetPointer(ctx, store.UserTableKey(int64(i+1)), id))
		versions[id] = v
	}
	if _, err := s.RecordResult(ctx, store.Result{ID: "r1", Game: "trickchef", Chat: -100, Started: base, Ended: base.Add(time.Minute),
		Seats: []store.ResultSeat{{Player: "u1", Name: "Аня", Place: 1}, {Player: "rpro", Name: "Робот", Place: 2}}}, nil); err != nil {
		t.Fatal(err)
	}
	// A dead letter a person may put back.
	ok(t, s.DeadLetter(ctx, "-102", store.InboxEntry{ID: 2002, Data: []byte("press")}, "handler failed"))
	before := oomSnapshot(t, s, tables)

	// Fill the server: its limit just above what it holds, then filler
	// keys, smaller and smaller, until even a small write is refused (a
	// write's own arguments count while it is checked).
	used := get(s.UsedMemory(ctx))(t)
	ok(t, c.ConfigSet(ctx, "maxmemory", fmt.Sprint(used+512<<10)).Err())
	fillers := 0
	for _, size := range []int{16 << 10, 1 << 10, 64} {
		filler := strings.Repeat("x", size)
		for ; ; fillers++ {
			err := c.Set(ctx, fmt.Sprint("filler:", fillers), filler, 0).Err()
			if err != nil && strings.Contains(err.Error(), "OOM") {
				break
			}
			ok(t, err)
			if fillers > 100_000 {
				t.Fatal("the server never ran out of memory")
			}
		}
	}
	// Then the limit a little under what it holds: a client's buffers
	// freed later must not bring it back under.
	ok(t, c.ConfigSet(ctx, "maxmemory", fmt.Sprint(get(s.UsedMemory(ctx))(t)-64<<10)).Err())

	// Every write the bot makes fails whole.
	isOOM := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "OOM") {
			t.Fatalf("%s under maxmemory: %v, want an OOM error", what, err)
		}
		// Whoever logs it reads what it is and what to do.
		if !errors.Is(err, store.ErrFull) || !strings.Contains(err.Error(), "Redis is full") || !strings.Contains(err.Error(), "raise maxmemory") {
			t.Fatalf("%s under maxmemory: %v, want it to say Redis is full (store.ErrFull)", what, err)
		}
	}
	for id, v := range versions {
		_, err := s.Commit(ctx, id, store.Change{Version: v, Data: []byte(strings.Repeat("new ", 100)), UpdateID: 2000,
			Dirty: []string{"hand:1"}, Outbox: [][]byte{[]byte("moved")}, WakeAt: base, TimerAt: base.Add(time.Hour)})
		isOOM("Commit", err)
		_, err = s.Commit(ctx, id, store.Change{OnlyQueue: true, UpdateID: 2001, Outbox: [][]byte{[]byte("reply")}})
		isOOM("queue-only Commit", err)
	}
	isOOM("Ingest", s.Ingest(ctx, "-100", []store.InboxEntry{{ID: 4000, Data: []byte("late")}}, base))
	isOOM("DeadLetter", s.DeadLetter(ctx, "-101", store.InboxEntry{ID: 2001, Data: []byte("press")}, "handler failed"))
	isOOM("Requeue", s.Requeue(ctx, "-102", 2002, base))
	_, err := s.Attempt(ctx, "in:-100", "2000", time.Hour)
	isOOM("Attempt", err) // the work does not run: a full store costs no attempt
	_, err = s.RecordResult(ctx, store.Result{ID: "r2", Game: "trickchef", Chat: -100, Started: base, Ended: base.Add(time.Minute),
		Seats: []store.ResultSeat{{Player: "u1", Name: "Аня", Place: 1}, {Player: "rpro", Name: "Робот", Place: 2}}}, nil)
	isOOM("RecordResult", err)
	// The queues still work: workers claim, renew and release what is due.
	for _, q := range []store.Queue{store.Deliveries, store.Inboxes, store.Timers} {
		claims := get(s.Claim(ctx, q, base.Add(time.Hour), time.Minute, 100))(t)
		if len(claims) != tables {
			t.Fatalf("claimed %d of %s under maxmemory, want %d", len(claims), q, tables)
		}
		for _, cl := range claims {
			if !get(s.Renew(ctx, cl, time.Minute))(t) {
				t.Fatalf("renewal of %+v refused under maxmemory", cl)
			}
			ok(t, s.Release(ctx, cl, base.Add(time.Minute)))
		}
	}
	if after := oomSnapshot(t, s, tables); !reflect.DeepEqual(after, before) {
		t.Fatalf("stored data changed under maxmemory:\n before %v\n after  %v", before, after)
	}

	// Memory freed: everything proceeds where it stood.
	for i := range fillers {
		ok(t, c.Del(ctx, fmt.Sprint("filler:", i)).Err())
	}
	for id, v := range versions {
		if nv := get(s.Commit(ctx, id, store.Change{Version: v, Data: []byte("after"), UpdateID: 2000, TimerAt: base.Add(time.Hour)}))(t); nv != v+1 {
			t.Fatalf("version after memory was freed = %d, want %d", nv, v+1)
		}
	}
	ok(t, s.DeadLetter(ctx, "-101", store.InboxEntry{ID: 2001, Data: []byte("press")}, "handler failed"))
	ok(t, s.Ingest(ctx, "-100", []store.InboxEntry{{ID: 4000, Data: []byte("late")}}, base))
	if n := get(s.DeadLetterCount(ctx))(t); n != 2 {
		t.Fatalf("DeadLetterCount = %d, want 2", n)
	}
	ok(t, s.Requeue(ctx, "-102", 2002, base))
	if n := get(s.Attempt(ctx, "in:-100", "2000", time.Hour))(t); n != 1 {
		t.Fatalf("the first attempt counted after memory was freed = %d, want 1", n)
	}
	if rec, err := s.RecordResult(ctx, store.Result{ID: "r2", Game: "trickchef", Chat: -100, Started: base, Ended: base.Add(time.Minute),
		Seats: []store.ResultSeat{{Player: "u1", Name: "Аня", Place: 1}, {Player: "rpro", Name: "Робот", Place: 2}}}, nil); err != nil || !rec {
		t.Fatalf("RecordResult after memory was freed = %v, %v", rec, err)
	}
}

// oomSnapshot reads everything the OOM test stored, to compare.
func oomSnapshot(t *testing.T, s *store.Redis, tables int) map[string]string {
	t.Helper()
	ctx := context.WithoutCancel(t.Context())
	out := map[string]string{}
	for i := range tables {
		id := fmt.Sprint(-100 - i)
		rec := get(s.Load(ctx, id))(t)
		out["rec "+id] = fmt.Sprintf("%d %s", rec.Version, rec.Data)
		out["out "+id] = fmt.Sprint(get(s.Outbox(ctx, id, 10))(t))
		out["dirty "+id] = fmt.Sprint(get(s.Dirty(ctx, id))(t))
		out["msg "+id] = fmt.Sprint(get(s.Messages(ctx, id))(t))
		out["inbox "+id] = fmt.Sprint(get(s.Inbox(ctx, id, 10))(t))
		out["ptr "+id] = get(s.Pointer(ctx, store.UserTableKey(int64(i+1))))(t)
		applied := get(s.Applied(ctx, id, int64(1000+i)))(t)
		out["upd "+id] = fmt.Sprint(applied)
	}
	for _, q := range []store.Queue{store.Deliveries, store.Inboxes, store.Timers} {
		out["pending "+string(q)] = fmt.Sprint(get(s.Pending(ctx, q))(t))
	}
	h := get(s.History(ctx, -100, 10))(t)
	out["history"] = fmt.Sprint(len(h), h[0].ID)
	out["dead"] = fmt.Sprint(get(s.DeadLetterCount(ctx))(t))
	return out
}
