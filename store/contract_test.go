package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
)

// tableStore is the method set both stores share; the contract below pins
// its behaviour for each of them.
type tableStore interface {
	Load(ctx context.Context, table string) (store.Record, error)
	LoadFor(ctx context.Context, table string, updateID int64, view string) (store.Record, bool, string, error)
	Views(ctx context.Context, table string) (map[string]string, map[string]int64, error)
	Commit(ctx context.Context, table string, c store.Change) (int64, error)
	Delete(ctx context.Context, table string) error
	Dirty(ctx context.Context, table string) (map[string]int64, error)
	Clean(ctx context.Context, table, view string, version int64) error
	Outbox(ctx context.Context, table string, n int) ([]store.Envelope, error)
	Ack(ctx context.Context, table string, id int64) error
	Claim(ctx context.Context, q store.Queue, now time.Time, lease time.Duration, limit int) ([]store.Claim, error)
	Renew(ctx context.Context, c store.Claim, lease time.Duration) (bool, error)
	Release(ctx context.Context, c store.Claim, next time.Time) error
	Schedule(ctx context.Context, q store.Queue, name string, at time.Time) error
	NextDue(ctx context.Context, q store.Queue) (time.Time, bool, error)
	Pending(ctx context.Context, q store.Queue) (int64, error)
	Applied(ctx context.Context, table string, updateID int64) (bool, error)
	SetMessage(ctx context.Context, table, view, record string) error
	Messages(ctx context.Context, table string) (map[string]string, error)
	DeleteMessages(ctx context.Context, table string, views ...string) error
	SetPointer(ctx context.Context, key, value string) error
	Pointer(ctx context.Context, key string) (string, error)
	DeletePointer(ctx context.Context, key, value string) error
	Allow(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, time.Duration, error)
	Fits(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, time.Duration, error)
	AllowInTurn(ctx context.Context, key, caller string, deadline time.Time, limit int, per time.Duration, now time.Time) (bool, time.Duration, error)
	Withdraw(ctx context.Context, key, caller string) error
	Block(ctx context.Context, key string, until time.Time) error
	Ping(ctx context.Context) error
	Ingest(ctx context.Context, chat string, entries []store.InboxEntry, now time.Time) error
	Inbox(ctx context.Context, chat string, n int) ([]store.InboxEntry, error)
	Handled(ctx context.Context, chat string, id int64) error
	DeadLetter(ctx context.Context, chat string, e store.InboxEntry, reason string) error
	DeadLetters(ctx context.Context, n int) ([]store.DeadLetter, error)
	DeadLetterCount(ctx context.Context) (int64, error)
	Requeue(ctx context.Context, chat string, id int64, now time.Time) error
	DropDeadLetter(ctx context.Context, chat string, id int64) error
	Members(ctx context.Context, q store.Queue, n int) ([]string, error)
	Attempt(ctx context.Context, key, item string, ttl time.Duration) (int, error)
	ForgetAttempts(ctx context.Context, key string) error
	KeepGame(ctx context.Context, ref string, people []int64, data []byte) error
	KeptGame(ctx context.Context, ref string) ([]byte, error)
	KeptGames(ctx context.Context, user int64, n int) ([]string, error)
	SetReview(ctx context.Context, ref string, user int64, data []byte) error
	Review(ctx context.Context, ref string, user int64) ([]byte, error)
	ForgetUser(ctx context.Context, user int64) error
}

var (
	_ tableStore = (*store.Redis)(nil)
	_ tableStore = (*store.Bolt)(nil)
)

// base is a fixed clock origin for wake-ups and rate limits.
var base = time.UnixMilli(1_700_000_000_000)

// get turns a (value, error) result into the value, failing t on error:
// get(s.Load(ctx, id))(t).
func get[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func ok(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("err = %v, want %v", err, want)
	}
}

// runContract runs the shared behaviour tests; newStore returns an empty
// store of its own for each subtest.
func runContract(t *testing.T, newStore func(t *testing.T) tableStore) {
	t.Run("LoadNotFound", func(t *testing.T) {
		s := newStore(t)
		_, err := s.Load(t.Context(), "nope")
		wantErr(t, err, store.ErrNotFound)
	})

	t.Run("CreateAndCAS", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		v := get(s.Commit(ctx, "g1", store.Change{Data: []byte("a")}))(t)
		if v != 1 {
			t.Fatalf("create version = %d, want 1", v)
		}
		_, err := s.Commit(ctx, "g1", store.Change{Data: []byte("again")})
		wantErr(t, err, store.ErrConflict)

		v = get(s.Commit(ctx, "g1", store.Change{Version: 1, Data: []byte("b\x00\xff")}))(t)
		if v != 2 {
			t.Fatalf("version = %d, want 2", v)
		}
		_, err = s.Commit(ctx, "g1", store.Change{Version: 1, Data: []byte("stale")})
		wantErr(t, err, store.ErrConflict)
		_, err = s.Commit(ctx, "g1", store.Change{Version: 3, Data: []byte("future")})
		wantErr(t, err, store.ErrConflict)

		rec := get(s.Load(ctx, "g1"))(t)
		if rec.Version != 2 || !bytes.Equal(rec.Data, []byte("b\x00\xff")) {
			t.Fatalf("Load = %+v, want version 2 data b\\x00\\xff", rec)
		}
		// Empty state is a valid state.
		get(s.Commit(ctx, "g1", store.Change{Version: 2}))(t)
		rec = get(s.Load(ctx, "g1"))(t)
		if rec.Version != 3 || len(rec.Data) != 0 {
			t.Fatalf("Load = %+v, want version 3 and no data", rec)
		}
		for _, bad := range []string{"", "}x"} {
			if _, err := s.Commit(ctx, bad, store.Change{Data: []byte("x")}); err == nil {
				t.Errorf("Commit accepted table id %q", bad)
			}
		}
		// Tables are independent.
		_, err = s.Load(ctx, "g2")
		wantErr(t, err, store.ErrNotFound)
	})

	t.Run("DuplicateUpdate", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		get(s.Commit(ctx, "g", store.Change{Data: []byte("v1"), UpdateID: 100,
			Dirty: []string{"table"}, Outbox: [][]byte{[]byte("hello")}}))(t)
		ok(t, s.Clean(ctx, "g", "table", 1))

		// The same update again, even computed from the right version.
		_, err := s.Commit(ctx, "g", store.Change{Version: 1, Data: []byte("v2"), UpdateID: 100,
			Dirty: []string{"table", "hand:1"}, Outbox: [][]byte{[]byte("dup")}, WakeAt: base})
		wantErr(t, err, store.ErrDuplicate)
		// Also from a stale version: duplicate wins, so the caller acks it.
		_, err = s.Commit(ctx, "g", store.Change{Version: 0, Data: []byte("v2"), UpdateID: 100})
		wantErr(t, err, store.ErrDuplicate)

		rec := get(s.Load(ctx, "g"))(t)
		if rec.Version != 1 || string(rec.Data) != "v1" {
			t.Fatalf("Load = %+v after duplicate, want v1", rec)
		}
		if !get(s.Applied(ctx, "g", 100))(t) {
			t.Fatal("Applied(100) = false for an applied update")
		}
		if get(s.Applied(ctx, "g", 101))(t) || get(s.Applied(ctx, "other", 100))(t) {
			t.Fatal("Applied reports an update that was not applied to that table")
		}
		// LoadFor answers both questions in one read.
		for _, c := range []struct {
			table   string
			update  int64
			applied bool
			err     error
		}{{"g", 100, true, nil}, {"g", 101, false, nil}, {"g", 0, false, nil}, {"other", 100, false, store.ErrNotFound}} {
			rec, applied, _, err := s.LoadFor(ctx, c.table, c.update, "")
			wantErr(t, err, c.err)
			if applied != c.applied {
				t.Errorf("LoadFor(%s, %d) applied = %v, want %v", c.table, c.update, applied, c.applied)
			}
			if c.err == nil && (rec.Version != 1 || string(rec.Data) != "v1") {
				t.Errorf("LoadFor(%s, %d) = %+v, want v1", c.table, c.update, rec)
			}
		}
		if d := get(s.Dirty(ctx, "g"))(t); len(d) != 0 {
			t.Fatalf("Dirty = %v after duplicate, want none", d)
		}
		out := get(s.Outbox(ctx, "g", 10))(t)
		if len(out) != 1 || string(out[0].Data) != "hello" {
			t.Fatalf("Outbox = %v after duplicate, want only hello", out)
		}

		// Another update id applies; update ids are per table.
		get(s.Commit(ctx, "g", store.Change{Version: 1, Data: []byte("v2"), UpdateID: 101}))(t)
		get(s.Commit(ctx, "other", store.Change{Data: []byte("x"), UpdateID: 100}))(t)
	})

	t.Run("DirtyClean", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		get(s.Commit(ctx, "g", store.Change{Data: []byte("1"), Dirty: []string{"table", "hand:1", "lobby"}}))(t)
		get(s.Commit(ctx, "g", store.Change{Version: 1, Data: []byte("2"), Dirty: []string{"table"}}))(t)
		got := get(s.Dirty(ctx, "g"))(t)
		want := map[string]int64{"table": 2, "hand:1": 1, "lobby": 1}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Dirty = %v, want %v", got, want)
		}
		// A renderer that saw version 1 cleans hand:1 but not the newer table mark.
		ok(t, s.Clean(ctx, "g", "table", 1))
		ok(t, s.Clean(ctx, "g", "hand:1", 1))
		ok(t, s.Clean(ctx, "g", "missing", 9))
		got = get(s.Dirty(ctx, "g"))(t)
		want = map[string]int64{"table": 2, "lobby": 1}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Dirty = %v, want %v", got, want)
		}
		ok(t, s.Clean(ctx, "g", "table", 2))
		ok(t, s.Clean(ctx, "g", "lobby", 5))
		if got := get(s.Dirty(ctx, "g"))(t); len(got) != 0 {
			t.Fatalf("Dirty = %v, want none", got)
		}
		if got := get(s.Dirty(ctx, "absent"))(t); len(got) != 0 {
			t.Fatalf("Dirty(absent) = %v", got)
		}
	})

	t.Run("Outbox", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		if out := get(s.Outbox(ctx, "g", 10))(t); len(out) != 0 {
			t.Fatalf("empty Outbox = %v", out)
		}
		get(s.Commit(ctx, "g", store.Change{Data: []byte("1"), Outbox: [][]byte{[]byte("a"), []byte("b:c")}}))(t)
		get(s.Commit(ctx, "g", store.Change{Version: 1, Data: []byte("2"), Outbox: [][]byte{[]byte("d\x00"), {}}}))(t)
		out := get(s.Outbox(ctx, "g", 10))(t)
		var data []string
		for i, e := range out {
			data = append(data, string(e.Data))
			if i > 0 && e.ID <= out[i-1].ID {
				t.Fatalf("ids not increasing: %v", out)
			}
		}
		if want := []string{"a", "b:c", "d\x00", ""}; !reflect.DeepEqual(data, want) {
			t.Fatalf("Outbox data = %q, want %q", data, want)
		}
		if two := get(s.Outbox(ctx, "g", 2))(t); len(two) != 2 || two[1].ID != out[1].ID {
			t.Fatalf("Outbox(2) = %v", two)
		}
		ok(t, s.Ack(ctx, "g", out[1].ID))
		rest := get(s.Outbox(ctx, "g", 10))(t)
		if len(rest) != 2 || rest[0].ID != out[2].ID {
			t.Fatalf("after Ack: %v, want the last two of %v", rest, out)
		}
		ok(t, s.Ack(ctx, "g", out[3].ID))
		get(s.Commit(ctx, "g", store.Change{Version: 2, Data: []byte("3"), Outbox: [][]byte{[]byte("e")}}))(t)
		last := get(s.Outbox(ctx, "g", 10))(t)
		if len(last) != 1 || last[0].ID <= out[3].ID || string(last[0].Data) != "e" {
			t.Fatalf("after full Ack and new entry: %v (old ids %v)", last, out)
		}
	})

	runQueueContract(t, newStore)

	t.Run("Messages", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		get(s.Commit(ctx, "g", store.Change{Data: []byte("x")}))(t)
		ok(t, s.SetMessage(ctx, "g", "table", "501:a"))
		ok(t, s.SetMessage(ctx, "g", "hand:42", "502:b"))
		ok(t, s.SetMessage(ctx, "g", "hand:43", "504:c"))
		ok(t, s.SetMessage(ctx, "g", "table", "503:d"))
		got := get(s.Messages(ctx, "g"))(t)
		if want := map[string]string{"table": "503:d", "hand:42": "502:b", "hand:43": "504:c"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("Messages = %v, want %v", got, want)
		}
		ok(t, s.DeleteMessages(ctx, "g", "hand:42", "absent"))
		ok(t, s.DeleteMessages(ctx, "g"))
		if got := get(s.Messages(ctx, "g"))(t); !reflect.DeepEqual(got, map[string]string{"table": "503:d", "hand:43": "504:c"}) {
			t.Fatalf("Messages = %v", got)
		}
		// A commit may forget message records, atomically with the change.
		get(s.Commit(ctx, "g", store.Change{Version: 1, Data: []byte("y"), Forget: []string{"hand:43", "absent"}}))(t)
		if got := get(s.Messages(ctx, "g"))(t); !reflect.DeepEqual(got, map[string]string{"table": "503:d"}) {
			t.Fatalf("Messages after Forget = %v", got)
		}
		// Message ids do not bump the version.
		if rec := get(s.Load(ctx, "g"))(t); rec.Version != 2 {
			t.Fatalf("version = %d after SetMessage, want 2", rec.Version)
		}
		// Views reads the records with the dirty marks.
		get(s.Commit(ctx, "g", store.Change{Version: 2, Data: []byte("z"), Dirty: []string{"hand:42"}}))(t)
		records, marks, err := s.Views(ctx, "g")
		ok(t, err)
		if !reflect.DeepEqual(records, map[string]string{"table": "503:d"}) || !reflect.DeepEqual(marks, map[string]int64{"hand:42": 3}) {
			t.Fatalf("Views = %v, %v; want the table's record and hand:42 marked at 3", records, marks)
		}
		// LoadFor reads one view's record along with the table.
		for view, want := range map[string]string{"table": "503:d", "hand:42": "", "": ""} {
			rec, applied, msg, err := s.LoadFor(ctx, "g", 0, view)
			ok(t, err)
			if rec.Version != 3 || applied || msg != want {
				t.Fatalf("LoadFor(g, 0, %q) = v%d, %v, %q; want v3, false, %q", view, rec.Version, applied, msg, want)
			}
		}
		_, _, msg, err := s.LoadFor(ctx, "absent", 5, "table")
		wantErr(t, err, store.ErrNotFound)
		if msg != "" {
			t.Fatalf("LoadFor of an absent table gave the message %q", msg)
		}
		// Message ids of a table not yet created are fine too.
		ok(t, s.SetMessage(ctx, "new", "lobby", "7"))
		_, err = s.Load(ctx, "new")
		wantErr(t, err, store.ErrNotFound)
		get(s.Commit(ctx, "new", store.Change{Data: []byte("x")}))(t)
	})

	t.Run("Pointers", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		_, err := s.Pointer(ctx, "user:42")
		wantErr(t, err, store.ErrNotFound)
		ok(t, s.SetPointer(ctx, "user:42", "g1"))
		if v := get(s.Pointer(ctx, "user:42"))(t); v != "g1" {
			t.Fatalf("Pointer = %q", v)
		}
		ok(t, s.SetPointer(ctx, "user:42", "g2"))
		ok(t, s.DeletePointer(ctx, "user:42", "g1")) // stale: kept
		if v := get(s.Pointer(ctx, "user:42"))(t); v != "g2" {
			t.Fatalf("Pointer = %q after stale delete, want g2", v)
		}
		ok(t, s.DeletePointer(ctx, "user:42", "g2"))
		_, err = s.Pointer(ctx, "user:42")
		wantErr(t, err, store.ErrNotFound)
		ok(t, s.DeletePointer(ctx, "user:42", "g2"))
	})

	t.Run("Allow", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		allow := func(key string, limit int, per time.Duration, now time.Time) (bool, time.Duration) {
			t.Helper()
			ok, retry, err := s.Allow(ctx, key, limit, per, now)
			if err != nil {
				t.Fatal(err)
			}
			return ok, retry
		}
		// 3 per second: a burst of 3, then refused until the oldest leaves the window.
		for i := range 3 {
			if ok, _ := allow("chat:1", 3, time.Second, base.Add(time.Duration(i)*100*time.Millisecond)); !ok {
				t.Fatalf("event %d refused", i)
			}
		}
		ok, retry := allow("chat:1", 3, time.Second, base.Add(500*time.Millisecond))
		if ok || retry != 500*time.Millisecond {
			t.Fatalf("4th = %v retry %v, want refused retry 500ms", ok, retry)
		}
		// A refused call consumes nothing; the retry time is exact.
		if ok, _ := allow("chat:1", 3, time.Second, base.Add(time.Second-time.Millisecond)); ok {
			t.Fatal("allowed before the oldest event left the window")
		}
		if ok, _ := allow("chat:1", 3, time.Second, base.Add(time.Second)); !ok {
			t.Fatal("refused once the oldest event left the window")
		}
		// Keys are independent.
		if ok, _ := allow("chat:2", 3, time.Second, base.Add(500*time.Millisecond)); !ok {
			t.Fatal("another key was limited")
		}
		// Never more than limit in any window (20 per minute, as Telegram groups).
		var times []time.Time
		for ms := 0; ms < 180_000; ms += 700 {
			now := base.Add(time.Duration(ms) * time.Millisecond)
			if ok, _ := allow("group", 20, time.Minute, now); ok {
				times = append(times, now)
			}
		}
		for i := 20; i < len(times); i++ {
			if times[i].Sub(times[i-20]) < time.Minute {
				t.Fatalf("21 events within a minute: %v .. %v", times[i-20], times[i])
			}
		}
		if len(times) < 57 {
			t.Fatalf("only %d events in 3 minutes at 20/min", len(times))
		}
		if _, _, err := s.Allow(ctx, "bad", 0, time.Second, base); err == nil {
			t.Fatal("limit 0 accepted")
		}
	})

	t.Run("Fits", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		for range 3 {
			fits, _, err := s.Fits(ctx, "chat:3", 1, time.Second, base)
			ok(t, err)
			if !fits {
				t.Fatal("an empty key does not fit one event")
			}
		}
		// Looking recorded nothing: the one event still fits.
		allowed, _, err := s.Allow(ctx, "chat:3", 1, time.Second, base)
		ok(t, err)
		if !allowed {
			t.Fatal("refused after Fits")
		}
		fits, retry, err := s.Fits(ctx, "chat:3", 1, time.Second, base.Add(300*time.Millisecond))
		ok(t, err)
		if fits || retry != 700*time.Millisecond {
			t.Fatalf("Fits on a full key = %v retry %v, want false retry 700ms", fits, retry)
		}
	})

	// A group's calls share one window with a ceiling per kind of call
	// (bot/budget.go): every ceiling counts every event of the key, and
	// the retry time is when the window falls below the caller's ceiling.
	t.Run("MixedCeilings", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		allow := func(limit int, ms int) (bool, time.Duration) {
			t.Helper()
			ok, retry, err := s.Allow(ctx, "group:mixed", limit, time.Minute, base.Add(time.Duration(ms)*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			return ok, retry
		}
		for i := range 13 {
			if ok, _ := allow(13, i*1000); !ok {
				t.Fatalf("event %d under 13 refused", i)
			}
		}
		if ok, retry := allow(13, 20_000); ok || retry != 40*time.Second {
			t.Fatalf("14th under 13 = %v retry %v, want refused retry 40s", ok, retry)
		}
		for i := range 4 {
			if ok, _ := allow(17, 20_000+i); !ok {
				t.Fatalf("event %d under 17 refused with %d in the window", i, 13+i)
			}
		}
		if ok, retry := allow(17, 21_000); ok || retry != 39*time.Second {
			t.Fatalf("18th under 17 = %v retry %v, want refused retry 39s", ok, retry)
		}
		for i := range 3 {
			if ok, _ := allow(20, 22_000+i); !ok {
				t.Fatalf("event %d under 20 refused with %d in the window", i, 17+i)
			}
		}
		fits, retry, err := s.Fits(ctx, "group:mixed", 20, time.Minute, base.Add(23*time.Second))
		ok(t, err)
		if fits || retry != 37*time.Second {
			t.Fatalf("21st under 20 fits = %v retry %v, want false retry 37s", fits, retry)
		}
		// Under 13, the window must lose 8 events: the 8th oldest leaves at 67 s.
		if ok, retry := allow(13, 30_000); ok || retry != 37*time.Second {
			t.Fatalf("under 13 with 20 in the window = %v retry %v, want refused retry 37s", ok, retry)
		}
		if ok, _ := allow(20, 60_000); !ok {
			t.Fatal("under 20 refused once the oldest left the window")
		}
	})

	t.Run("AllowInTurn", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		const key = "token"
		turn := func(caller string, deadline, now time.Duration) (bool, time.Duration) {
			t.Helper()
			allowed, retry, err := s.AllowInTurn(ctx, key, caller, base.Add(deadline), 2, time.Second, base.Add(now))
			ok(t, err)
			return allowed, retry
		}
		// Room for two: the first two callers go at once.
		if a, _ := turn("a", 5*time.Second, 0); !a {
			t.Fatal("a refused with room")
		}
		if b, _ := turn("b", 5*time.Second, 100*time.Millisecond); !b {
			t.Fatal("b refused with room")
		}
		// Full: a late deadline waits for a's event to leave; an earlier
		// deadline, come after it, is ahead of it and waits less.
		late, retry := turn("late", 30*time.Second, 200*time.Millisecond)
		if late || retry != 800*time.Millisecond {
			t.Fatalf("late = %v retry %v, want refused retry 800ms", late, retry)
		}
		urgent, retry := turn("urgent", 500*time.Millisecond, 300*time.Millisecond)
		if urgent || retry != 700*time.Millisecond {
			t.Fatalf("urgent = %v retry %v, want refused retry 700ms", urgent, retry)
		}
		late, retry = turn("late", 30*time.Second, 400*time.Millisecond)
		if late || retry != 700*time.Millisecond {
			t.Fatalf("late behind urgent = %v retry %v, want refused retry 700ms (b's event)", late, retry)
		}
		// A caller without a place waits behind both: a window's worth of
		// callers, then a's place.
		if anon, retry := turn("", 0, 400*time.Millisecond); anon || retry != 1600*time.Millisecond {
			t.Fatalf("no-place caller = %v retry %v, want refused retry 1.6s", anon, retry)
		}
		// One event left the window: the room is urgent's, not late's,
		// though late asks first; a later deadline than the one late came
		// with changes nothing.
		if late, _ := turn("late", time.Hour, time.Second); late {
			t.Fatal("late took the room an earlier deadline waits for")
		}
		if urgent, _ := turn("urgent", 500*time.Millisecond, time.Second+10*time.Millisecond); !urgent {
			t.Fatal("urgent refused at its turn")
		}
		// A caller grown more urgent moves up: late, now due before
		// latest, goes first.
		if latest, _ := turn("latest", 20*time.Second, 1050*time.Millisecond); latest {
			t.Fatal("latest allowed on a full key")
		}
		if late, _ := turn("late", 10*time.Second, 1060*time.Millisecond); late {
			t.Fatal("late allowed on a full key")
		}
		if late, _ := turn("late", 30*time.Second, 1100*time.Millisecond); !late {
			t.Fatal("late refused at its turn")
		}
		// A caller that does not come back loses its place.
		turn("c", 0, 1200*time.Millisecond) // full: waits, first in line
		if d, retry := turn("d", time.Second, 1300*time.Millisecond); d {
			t.Fatalf("d allowed on a full key (retry %v)", retry)
		}
		// Later, with room for one: c's place would put d second.
		gone := 1200*time.Millisecond + time.Second + store.TurnGrace // c's retry time plus the grace, at most
		if allowed, _, err := s.Allow(ctx, key, 2, time.Second, base.Add(gone)); err != nil || !allowed {
			t.Fatalf("Allow = %v, %v", allowed, err)
		}
		if d, _ := turn("d", time.Second, gone+time.Millisecond); !d {
			t.Fatal("a caller that never came back still holds its place")
		}
		// A caller that withdraws holds nobody back.
		fill := func(at time.Duration, n int) {
			t.Helper()
			for range n {
				if allowed, _, err := s.Allow(ctx, key, 2, time.Second, base.Add(at)); err != nil || !allowed {
					t.Fatalf("Allow = %v, %v", allowed, err)
				}
			}
		}
		now := gone + 2*time.Second
		fill(now, 2)
		if e, _ := turn("e", 0, now+time.Millisecond); e {
			t.Fatal("e allowed on a full key")
		}
		ok(t, s.Withdraw(ctx, key, "e"))
		ok(t, s.Withdraw(ctx, key, "never-waited"))
		fill(now+time.Second, 1) // room for one more
		if f, _ := turn("f", time.Minute, now+time.Second+2*time.Millisecond); !f {
			t.Fatal("a withdrawn caller still holds its place")
		}
		if _, _, err := s.AllowInTurn(ctx, key, "x", base, 0, time.Second, base); err == nil {
			t.Fatal("limit 0 accepted")
		}
	})

	t.Run("Block", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		// Real time here: the Redis store derives the block's TTL from the clock.
		now := time.Now()
		ok(t, s.Block(ctx, "chat:9", now.Add(7*time.Second)))
		ok(t, s.Block(ctx, "chat:9", now.Add(2*time.Second))) // shorter: ignored
		allowed, retry, err := s.Allow(ctx, "chat:9", 100, time.Second, now)
		ok(t, err)
		if allowed || retry != 7*time.Second {
			t.Fatalf("Allow during block = %v retry %v, want refused retry 7s", allowed, retry)
		}
		allowed, retry, err = s.Allow(ctx, "chat:9", 100, time.Second, now.Add(7*time.Second))
		ok(t, err)
		if !allowed || retry != 0 {
			t.Fatalf("Allow after block = %v retry %v, want allowed", allowed, retry)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		get(s.Commit(ctx, "old", store.Change{Data: []byte("state"), UpdateID: 5,
			Dirty: []string{"table"}, Outbox: [][]byte{[]byte("x")}, WakeAt: base}))(t)
		ok(t, s.SetMessage(ctx, "old", "table", "77"))
		get(s.Commit(ctx, "keep", store.Change{Data: []byte("k"), Dirty: []string{"table"}, WakeAt: base.Add(time.Hour)}))(t)

		// Migration: load old, create new, delete old.
		rec := get(s.Load(ctx, "old"))(t)
		get(s.Commit(ctx, "new", store.Change{Data: rec.Data}))(t)
		ok(t, s.Delete(ctx, "old"))
		ok(t, s.Delete(ctx, "never-existed"))

		_, err := s.Load(ctx, "old")
		wantErr(t, err, store.ErrNotFound)
		if d := get(s.Dirty(ctx, "old"))(t); len(d) != 0 {
			t.Fatalf("Dirty after Delete = %v", d)
		}
		if o := get(s.Outbox(ctx, "old", 10))(t); len(o) != 0 {
			t.Fatalf("Outbox after Delete = %v", o)
		}
		if m := get(s.Messages(ctx, "old"))(t); len(m) != 0 {
			t.Fatalf("Messages after Delete = %v", m)
		}
		if at, _ := must2(t)(s.NextDue(ctx, store.Deliveries)); !at.Equal(base.Add(time.Hour)) {
			t.Fatalf("NextDue = %v, want the kept table's %v", at, base.Add(time.Hour))
		}
		// The id is free again, update ids included.
		get(s.Commit(ctx, "old", store.Change{Data: []byte("fresh"), UpdateID: 5}))(t)
		if rec := get(s.Load(ctx, "new"))(t); string(rec.Data) != "state" {
			t.Fatalf("new = %+v", rec)
		}
		if d := get(s.Dirty(ctx, "keep"))(t); len(d) != 1 {
			t.Fatalf("Delete touched another table: %v", d)
		}
		ok(t, s.Ping(ctx))
	})

	t.Run("ConcurrentCAS", func(t *testing.T) {
		s := newStore(t)
		testConcurrentCAS(t, s, 32, 50)
	})

	t.Run("Inbox", func(t *testing.T) { testInbox(t, newStore(t)) })

	t.Run("DeadLetters", func(t *testing.T) { testDeadLetters(t, newStore(t)) })

	t.Run("RequeueAndDrop", func(t *testing.T) { testRequeue(t, newStore(t)) })

	t.Run("Attempts", func(t *testing.T) { testAttempts(t, newStore(t)) })

	runKeptGamesContract(t, newStore)

	t.Run("OnlyQueue", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		// On a table that does not exist: queued, and still no state.
		v := get(s.Commit(ctx, "q", store.Change{OnlyQueue: true, UpdateID: 3, Outbox: [][]byte{[]byte("hello")}, WakeAt: base}))(t)
		if v != 0 {
			t.Fatalf("version after a queue-only change = %d, want 0", v)
		}
		if _, err := s.Load(ctx, "q"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a queue-only change made a table: %v", err)
		}
		_, err := s.Commit(ctx, "q", store.Change{OnlyQueue: true, UpdateID: 3, Outbox: [][]byte{[]byte("again")}})
		wantErr(t, err, store.ErrDuplicate)
		// On a table: its state, version and views are left as they are.
		ok(t, s.Clean(ctx, "q", "x", 0))
		get(s.Commit(ctx, "q", store.Change{Data: []byte("s1"), Dirty: []string{"table"}}))(t)
		ok(t, s.Clean(ctx, "q", "table", 1))
		v = get(s.Commit(ctx, "q", store.Change{OnlyQueue: true, Version: 7, Data: []byte("ignored"), Dirty: []string{"table"},
			UpdateID: 4, Outbox: [][]byte{[]byte("page")}}))(t)
		if v != 1 {
			t.Fatalf("version after a queue-only change = %d, want 1 (unchanged)", v)
		}
		if rec := get(s.Load(ctx, "q"))(t); string(rec.Data) != "s1" || rec.Version != 1 {
			t.Fatalf("record after a queue-only change = %+v", rec)
		}
		if d := get(s.Dirty(ctx, "q"))(t); len(d) != 0 {
			t.Fatalf("a queue-only change marked views dirty: %v", d)
		}
		out := get(s.Outbox(ctx, "q", 10))(t)
		if len(out) != 2 || string(out[0].Data) != "hello" || string(out[1].Data) != "page" {
			t.Fatalf("outbox = %v", out)
		}
		if seen := get(s.Applied(ctx, "q", 4))(t); !seen {
			t.Fatal("a queue-only change did not record its update")
		}
		if at, has := must2(t)(s.NextDue(ctx, store.Deliveries)); !has || !at.Equal(base) {
			t.Fatalf("wake-up = %v, %v; want %v", at, has, base)
		}
	})
}

// testInbox pins the chats' inboxes: entries in id order, each once, a
// chat claimed by one taker at a time, and no entry left without a due
// chat whatever the order of an ingest and a release.
func testInbox(t *testing.T, s tableStore) {
	ctx := t.Context()
	ids := func(es []store.InboxEntry) []int64 {
		var out []int64
		for _, e := range es {
			out = append(out, e.ID)
		}
		return out
	}
	claim := func(at time.Duration) []store.Claim {
		t.Helper()
		return get(s.Claim(ctx, store.Inboxes, base.Add(at), time.Minute, 10))(t)
	}
	if _, has := must2(t)(s.NextDue(ctx, store.Inboxes)); has {
		t.Fatal("a new store has a due chat")
	}
	ok(t, s.Ingest(ctx, "-100", []store.InboxEntry{{ID: 7, Data: []byte("seven:\x00")}, {ID: 5, Data: []byte("five")}}, base))
	ok(t, s.Ingest(ctx, "-100", []store.InboxEntry{{ID: 5, Data: []byte("five again")}, {ID: 9, Data: []byte("nine")}}, base.Add(time.Second)))
	ok(t, s.Ingest(ctx, "42", []store.InboxEntry{{ID: 6, Data: []byte("six")}}, base.Add(2*time.Second)))
	got := get(s.Inbox(ctx, "-100", 10))(t)
	if !reflect.DeepEqual(ids(got), []int64{5, 7, 9}) || string(got[0].Data) != "five" || string(got[1].Data) != "seven:\x00" {
		t.Fatalf("inbox = %v", ids(got))
	}
	// Each entry says when it came in (the ingest's now): the first copy's.
	if !got[0].At.Equal(base) || !got[1].At.Equal(base) || !got[2].At.Equal(base.Add(time.Second)) {
		t.Fatalf("inbox times = %v %v %v, want %v %v %v", got[0].At, got[1].At, got[2].At, base, base, base.Add(time.Second))
	}
	if m := get(s.Members(ctx, store.Inboxes, 10))(t); !reflect.DeepEqual(m, []string{"-100", "42"}) {
		t.Fatalf("Members(Inboxes) = %v, want [-100 42] (due, earliest first)", m)
	}
	if m := get(s.Members(ctx, store.Inboxes, 1))(t); !reflect.DeepEqual(m, []string{"-100"}) {
		t.Fatalf("Members(Inboxes, 1) = %v, want [-100]", m)
	}
	if got := get(s.Inbox(ctx, "-100", 2))(t); len(got) != 2 {
		t.Fatalf("Inbox(2) = %d entries", len(got))
	}
	if at, _ := must2(t)(s.NextDue(ctx, store.Inboxes)); !at.Equal(base) {
		t.Fatalf("next chat due at %v, want %v (the first ingest)", at, base)
	}

	// Claims: the earliest due first, each chat to one taker.
	claims := claim(time.Second)
	if got := names(claims); !reflect.DeepEqual(got, []string{"-100"}) {
		t.Fatalf("claimed %v, want [-100] (42 is due later)", got)
	}
	if m := get(s.Members(ctx, store.Inboxes, 10))(t); !reflect.DeepEqual(m, []string{"42", "-100"}) {
		t.Fatalf("Members(Inboxes) = %v, want [42 -100] (due, then held)", m)
	}
	c42 := claim(5 * time.Second)
	if !reflect.DeepEqual(names(c42), []string{"42"}) {
		t.Fatalf("claimed %v, want [42]: -100 is held", names(c42))
	}
	// An ingest into a held chat keeps the claim, and makes the chat due
	// again on its release.
	ok(t, s.Ingest(ctx, "-100", []store.InboxEntry{{ID: 11, Data: []byte("eleven")}}, base.Add(6*time.Second)))
	if c := claim(time.Hour); len(c) != 0 {
		t.Fatalf("claimed %v while both chats are held", names(c))
	}
	for _, id := range []int64{5, 7, 9} {
		ok(t, s.Handled(ctx, "-100", id))
	}
	ok(t, s.Handled(ctx, "-100", 5)) // twice is harmless
	// Released with nothing more to do, but an update came in meanwhile:
	// due again at once.
	ok(t, s.Release(ctx, claims[0], time.Time{}))
	c2 := claim(8 * time.Second)
	if !reflect.DeepEqual(names(c2), []string{"-100"}) {
		t.Fatalf("claimed %v after a release with an entry ingested meanwhile, want [-100]", names(c2))
	}
	// A stale claim's release changes nothing.
	ok(t, s.Release(ctx, claims[0], time.Time{}))
	if c := claim(time.Hour); len(c) != 0 {
		t.Fatalf("a stale release freed the chat: %v", names(c))
	}
	ok(t, s.Handled(ctx, "-100", 11))
	if got := get(s.Inbox(ctx, "-100", 10))(t); len(got) != 0 {
		t.Fatalf("inbox after all handled = %v", ids(got))
	}
	// Released empty: gone from the queue; released with a time: due then,
	// and an update coming in before does not pull the retry earlier.
	ok(t, s.Release(ctx, c2[0], time.Time{}))
	ok(t, s.Release(ctx, c42[0], base.Add(50*time.Second)))
	ok(t, s.Ingest(ctx, "42", []store.InboxEntry{{ID: 12, Data: []byte("twelve")}}, base.Add(45*time.Second)))
	if at, has := must2(t)(s.NextDue(ctx, store.Inboxes)); !has || !at.Equal(base.Add(50*time.Second)) {
		t.Fatalf("next chat due at %v %v, want 42's retry at %v", at, has, base.Add(50*time.Second))
	}
	if c := claim(49 * time.Second); len(c) != 0 {
		t.Fatalf("claimed %v before the retry time", names(c))
	}
	if c := claim(50 * time.Second); !reflect.DeepEqual(names(c), []string{"42"}) {
		t.Fatalf("claimed %v at the retry time, want [42]", names(c))
	}
	// An empty ingest writes nothing.
	ok(t, s.Ingest(ctx, "7", nil, base))
	if got := get(s.Inbox(ctx, "7", 10))(t); len(got) != 0 {
		t.Fatalf("empty ingest left %v", got)
	}
	if n := get(s.Pending(ctx, store.Inboxes))(t); n != 1 {
		t.Fatalf("Pending(Inboxes) = %d, want 1 (42, held)", n)
	}
}

// testDeadLetters pins the dead letters: an update given up leaves its
// inbox and is kept, with its chat, reason and time, once.
func testDeadLetters(t *testing.T, s tableStore) {
	ctx := t.Context()
	if n := get(s.DeadLetterCount(ctx))(t); n != 0 {
		t.Fatalf("DeadLetterCount = %d on a new store", n)
	}
	if d := get(s.DeadLetters(ctx, 10))(t); len(d) != 0 {
		t.Fatalf("DeadLetters = %v on a new store", d)
	}
	ok(t, s.Ingest(ctx, "-7", []store.InboxEntry{{ID: 1, Data: []byte("a")}, {ID: 2, Data: []byte("b\x00:c")}, {ID: 3, Data: []byte("c")}}, base))
	ok(t, s.Ingest(ctx, "8", []store.InboxEntry{{ID: 4, Data: []byte("d")}}, base))
	inbox := func(chat string) []int64 {
		var ids []int64
		for _, e := range get(s.Inbox(ctx, chat, 10))(t) {
			ids = append(ids, e.ID)
		}
		return ids
	}
	before := time.Now().Add(-time.Minute)
	ok(t, s.DeadLetter(ctx, "-7", store.InboxEntry{ID: 2, Data: []byte("b\x00:c")}, "panic: «тупик»\nstack"))
	if got := inbox("-7"); !reflect.DeepEqual(got, []int64{1, 3}) {
		t.Fatalf("inbox after a dead letter = %v, want [1 3]", got)
	}
	// Giving it up again changes nothing.
	ok(t, s.DeadLetter(ctx, "-7", store.InboxEntry{ID: 2, Data: []byte("other")}, "again"))
	if n := get(s.DeadLetterCount(ctx))(t); n != 1 {
		t.Fatalf("DeadLetterCount = %d, want 1", n)
	}
	time.Sleep(5 * time.Millisecond) // the next one is newer
	ok(t, s.DeadLetter(ctx, "8", store.InboxEntry{ID: 4, Data: []byte("d")}, "bad state"))
	if got := inbox("8"); len(got) != 0 {
		t.Fatalf("inbox of 8 = %v, want empty", got)
	}
	got := get(s.DeadLetters(ctx, 10))(t)
	if len(got) != 2 {
		t.Fatalf("DeadLetters = %+v, want two", got)
	}
	want := []store.DeadLetter{
		{Chat: "8", Entry: store.InboxEntry{ID: 4, Data: []byte("d")}, Reason: "bad state"},
		{Chat: "-7", Entry: store.InboxEntry{ID: 2, Data: []byte("b\x00:c")}, Reason: "panic: «тупик»\nstack"},
	}
	for i, d := range got {
		if d.Chat != want[i].Chat || d.Entry.ID != want[i].Entry.ID || string(d.Entry.Data) != string(want[i].Entry.Data) ||
			d.Reason != want[i].Reason || d.At.Before(before) || d.At.After(time.Now().Add(time.Minute)) {
			t.Fatalf("dead letter %d = %+v, want %+v at about now", i, d, want[i])
		}
	}
	if !got[0].At.After(got[1].At) {
		t.Fatalf("dead letters not newest first: %v, %v", got[0].At, got[1].At)
	}
	if one := get(s.DeadLetters(ctx, 1))(t); len(one) != 1 || one[0].Chat != "8" {
		t.Fatalf("DeadLetters(1) = %+v, want the newest", one)
	}
	if none := get(s.DeadLetters(ctx, 0))(t); len(none) != 0 {
		t.Fatalf("DeadLetters(0) = %+v", none)
	}
	// An update handled meanwhile is still kept when given up.
	ok(t, s.DeadLetter(ctx, "-7", store.InboxEntry{ID: 99, Data: []byte("z")}, "gone"))
	if n := get(s.DeadLetterCount(ctx))(t); n != 3 {
		t.Fatalf("DeadLetterCount = %d, want 3", n)
	}
	if got := inbox("-7"); !reflect.DeepEqual(got, []int64{1, 3}) {
		t.Fatalf("inbox = %v, want [1 3] untouched", got)
	}
}

// testRequeue pins what a person does with a dead letter: put back, it is
// in its chat's inbox again (as come in now) and the chat due; dropped, it
// is gone; either, once.
func testRequeue(t *testing.T, s tableStore) {
	ctx := t.Context()
	ok(t, s.Ingest(ctx, "-7", []store.InboxEntry{{ID: 1, Data: []byte("a")}, {ID: 2, Data: []byte("b:2")}, {ID: 3, Data: []byte("c")}}, base))
	for _, id := range []int64{1, 2} {
		ok(t, s.DeadLetter(ctx, "-7", store.InboxEntry{ID: id, Data: []byte(map[int64]string{1: "a", 2: "b:2"}[id])}, "failed"))
	}
	c := get(s.Claim(ctx, store.Inboxes, base, time.Minute, 10))(t)
	ok(t, s.Handled(ctx, "-7", 3))
	ok(t, s.Release(ctx, c[0], time.Time{}))
	if _, has := must2(t)(s.NextDue(ctx, store.Inboxes)); has {
		t.Fatal("a chat with an empty inbox is due")
	}
	later := base.Add(time.Hour)
	ok(t, s.Requeue(ctx, "-7", 2, later))
	got := get(s.Inbox(ctx, "-7", 10))(t)
	if len(got) != 1 || got[0].ID != 2 || string(got[0].Data) != "b:2" || !got[0].At.Equal(later) {
		t.Fatalf("inbox after a requeue = %+v, want update 2 come in at %v", got, later)
	}
	if at, has := must2(t)(s.NextDue(ctx, store.Inboxes)); !has || !at.Equal(later) {
		t.Fatalf("chat due at %v %v after a requeue, want %v", at, has, later)
	}
	if d := get(s.DeadLetters(ctx, 10))(t); len(d) != 1 || d[0].Entry.ID != 1 {
		t.Fatalf("dead letters after a requeue = %+v, want update 1 alone", d)
	}
	wantErr(t, s.Requeue(ctx, "-7", 2, later), store.ErrNotFound)
	wantErr(t, s.Requeue(ctx, "8", 1, later), store.ErrNotFound)
	wantErr(t, s.DropDeadLetter(ctx, "-7", 2), store.ErrNotFound)
	ok(t, s.DropDeadLetter(ctx, "-7", 1))
	wantErr(t, s.DropDeadLetter(ctx, "-7", 1), store.ErrNotFound)
	if n := get(s.DeadLetterCount(ctx))(t); n != 0 {
		t.Fatalf("DeadLetterCount = %d after a drop and a requeue, want 0", n)
	}
	// Given up again, it is a dead letter again.
	ok(t, s.DeadLetter(ctx, "-7", got[0], "failed again"))
	if d := get(s.DeadLetters(ctx, 10))(t); len(d) != 1 || d[0].Entry.ID != 2 || d[0].Reason != "failed again" {
		t.Fatalf("dead letters = %+v, want update 2 given up again", d)
	}
}

// testAttempts pins the attempt counts: counted on per item under a key,
// from 1 for another item or after the count expired or was forgotten;
// keys apart.
func testAttempts(t *testing.T, s tableStore) {
	ctx := t.Context()
	for want := 1; want <= 3; want++ {
		if n := get(s.Attempt(ctx, "in:-1", "5", time.Minute))(t); n != want {
			t.Fatalf("attempt %d at 5 counted %d", want, n)
		}
	}
	if n := get(s.Attempt(ctx, "in:-2", "5", time.Minute))(t); n != 1 {
		t.Fatalf("another key's first attempt counted %d", n)
	}
	if n := get(s.Attempt(ctx, "in:-1", "6", time.Minute))(t); n != 1 {
		t.Fatalf("another item's first attempt counted %d", n)
	}
	if n := get(s.Attempt(ctx, "in:-1", "6", time.Minute))(t); n != 2 {
		t.Fatalf("its second counted %d", n)
	}
	ok(t, s.ForgetAttempts(ctx, "in:-1"))
	ok(t, s.ForgetAttempts(ctx, "never"))
	if n := get(s.Attempt(ctx, "in:-1", "6", time.Minute))(t); n != 1 {
		t.Fatalf("an attempt after forgetting counted %d", n)
	}
	if n := get(s.Attempt(ctx, "table:-3", "", 50*time.Millisecond))(t); n != 1 {
		t.Fatalf("attempt with no item counted %d", n)
	}
	if n := get(s.Attempt(ctx, "table:-3", "", 50*time.Millisecond))(t); n != 2 {
		t.Fatalf("second attempt with no item counted %d", n)
	}
	time.Sleep(150 * time.Millisecond)
	if n := get(s.Attempt(ctx, "table:-3", "", time.Minute))(t); n != 1 {
		t.Fatalf("an attempt after the count expired counted %d", n)
	}
}

// testConcurrentCAS has workers increment one counter through
// Load/Commit, retrying on conflict; any lost update shows in the total.
func testConcurrentCAS(t *testing.T, s tableStore, workers, increments int) {
	ctx := t.Context()
	get(s.Commit(ctx, "counter", store.Change{Data: []byte("0")}))(t)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := range increments {
				for {
					rec, err := s.Load(ctx, "counter")
					if err != nil {
						errs <- err
						return
					}
					var n int
					fmt.Sscan(string(rec.Data), &n)
					_, err = s.Commit(ctx, "counter", store.Change{
						Version:  rec.Version,
						Data:     fmt.Appendf(nil, "%d", n+1),
						UpdateID: int64(w*increments + i + 1),
						Dirty:    []string{"table"},
					})
					if errors.Is(err, store.ErrConflict) {
						continue
					}
					if err != nil {
						errs <- err
						return
					}
					break
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	rec := get(s.Load(ctx, "counter"))(t)
	want := workers * increments
	if string(rec.Data) != fmt.Sprint(want) || rec.Version != int64(want+1) {
		t.Fatalf("counter = %s at version %d, want %d at version %d", rec.Data, rec.Version, want, want+1)
	}
}

func must2(t *testing.T) func(time.Time, bool, error) (time.Time, bool) {
	return func(at time.Time, has bool, err error) (time.Time, bool) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return at, has
	}
}

// names lists the members claimed, in order.
func names(cs []store.Claim) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// runKeptGamesContract pins the kept games and their reviews: first write
// wins, one review per person, none without its game, each person's index
// newest first and bounded, forgetting a person takes their reviews and
// index but leaves the games to the others, bad input changes nothing, and review requests queue like
// any other work.
func runKeptGamesContract(t *testing.T, newStore func(t *testing.T) tableStore) {
	const ref = "-1001234:7:1795000000"
	t.Run("KeepGame", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		_, err := s.KeptGame(ctx, ref)
		wantErr(t, err, store.ErrNotFound)
		game := []byte("game\x00\xff")
		ok(t, s.KeepGame(ctx, ref, []int64{42, 43}, game))
		if got := get(s.KeptGame(ctx, ref))(t); !bytes.Equal(got, game) {
			t.Fatalf("KeptGame = %q, want %q", got, game)
		}
		for _, u := range []int64{42, 43} {
			if got := get(s.KeptGames(ctx, u, 10))(t); !reflect.DeepEqual(got, []string{ref}) {
				t.Errorf("KeptGames(%d) = %v, want [%s]", u, got, ref)
			}
		}
		// A game of nobody (robots only) is kept and indexed nowhere;
		// an empty game is a game.
		ok(t, s.KeepGame(ctx, "-5:1:1795000000", nil, nil))
		if got := get(s.KeptGame(ctx, "-5:1:1795000000"))(t); len(got) != 0 {
			t.Errorf("an empty game = %q", got)
		}
		if got := get(s.KeptGames(ctx, 44, 10))(t); len(got) != 0 {
			t.Errorf("KeptGames of someone who kept nothing = %v", got)
		}
		if got := get(s.KeptGames(ctx, 42, 0))(t); len(got) != 0 {
			t.Errorf("KeptGames(n = 0) = %v", got)
		}
	})

	t.Run("KeepGameFirstWriteWins", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		ok(t, s.KeepGame(ctx, ref, []int64{42}, []byte("first")))
		ok(t, s.SetReview(ctx, ref, 42, []byte("review")))
		// A retried job, with another copy and one more person.
		ok(t, s.KeepGame(ctx, ref, []int64{42, 43}, []byte("second")))
		if got := get(s.KeptGame(ctx, ref))(t); string(got) != "first" {
			t.Errorf("KeptGame after a second keep = %q, want the first", got)
		}
		if got := get(s.Review(ctx, ref, 42))(t); string(got) != "review" {
			t.Errorf("review after a second keep = %q", got)
		}
		ok(t, s.KeepGame(ctx, "-1:1:1", []int64{42}, []byte("later")))
		ok(t, s.KeepGame(ctx, ref, []int64{42}, []byte("third")))
		if got := get(s.KeptGames(ctx, 42, 10))(t); !reflect.DeepEqual(got, []string{"-1:1:1", ref}) {
			t.Errorf("KeptGames after keeping a kept game again = %v: it keeps its place", got)
		}
	})

	t.Run("Reviews", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		ok(t, s.KeepGame(ctx, ref, []int64{42, 43}, []byte("game")))
		_, err := s.Review(ctx, ref, 42)
		wantErr(t, err, store.ErrNotFound)
		ok(t, s.SetReview(ctx, ref, 42, []byte("r42")))
		ok(t, s.SetReview(ctx, ref, 43, []byte("r43\x00")))
		ok(t, s.SetReview(ctx, ref, 42, []byte("r42 again")))
		ok(t, s.SetReview(ctx, ref, 44, nil)) // an empty review is a review
		for u, want := range map[int64]string{42: "r42 again", 43: "r43\x00", 44: ""} {
			if got := get(s.Review(ctx, ref, u))(t); string(got) != want {
				t.Errorf("Review(%d) = %q, want %q", u, got, want)
			}
		}
		_, err = s.Review(ctx, ref, 45)
		wantErr(t, err, store.ErrNotFound)
		if got := get(s.KeptGame(ctx, ref))(t); string(got) != "game" {
			t.Errorf("the game after its reviews = %q", got)
		}
		// No game, no review: nothing is written.
		const gone = "-9:1:1795000000"
		wantErr(t, s.SetReview(ctx, gone, 42, []byte("r")), store.ErrNotFound)
		_, err = s.Review(ctx, gone, 42)
		wantErr(t, err, store.ErrNotFound)
		_, err = s.KeptGame(ctx, gone)
		wantErr(t, err, store.ErrNotFound)
	})

	t.Run("KeptGamesOrderAndBound", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		var refs []string
		for i := range store.KeptPerPerson + 5 {
			r := fmt.Sprintf("-100:%d:1795000000", i+1)
			refs = append(refs, r)
			ok(t, s.KeepGame(ctx, r, []int64{42, int64(1000 + i%2)}, []byte(r)))
		}
		newest := func(n int) []string {
			var out []string
			for i := len(refs) - 1; i >= 0 && len(out) < n; i-- {
				out = append(out, refs[i])
			}
			return out
		}
		if got := get(s.KeptGames(ctx, 42, 3))(t); !reflect.DeepEqual(got, newest(3)) {
			t.Errorf("KeptGames(3) = %v, want %v", got, newest(3))
		}
		got := get(s.KeptGames(ctx, 42, 1000))(t)
		if !reflect.DeepEqual(got, newest(store.KeptPerPerson)) {
			t.Errorf("KeptGames = %d refs from %v, want the newest %d\ngot  %v\nwant %v", len(got), got[len(got)-1], store.KeptPerPerson, got, newest(store.KeptPerPerson))
		}
		// Out of 42's index, the oldest games are still kept for the
		// others who played them.
		get(s.KeptGame(ctx, refs[0]))(t)
		if got := get(s.KeptGames(ctx, 1000, 1000))(t); len(got) != (store.KeptPerPerson+5+1)/2 || got[len(got)-1] != refs[0] {
			t.Errorf("KeptGames of the other person: %d refs, last %v", len(got), got[len(got)-1])
		}
	})

	t.Run("KeptGamesForget", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		const (
			shared   = "-100:1:1795000000"
			practice = "42:3:1795000100"
			theirs   = "-100:2:1795000200"
		)
		ok(t, s.KeepGame(ctx, shared, []int64{42, 43}, []byte("s")))
		ok(t, s.KeepGame(ctx, practice, []int64{42}, []byte("p")))
		ok(t, s.KeepGame(ctx, theirs, []int64{43}, []byte("t")))
		for _, r := range []string{shared, practice} {
			ok(t, s.SetReview(ctx, r, 42, []byte("mine")))
		}
		ok(t, s.SetReview(ctx, shared, 43, []byte("theirs")))
		ok(t, s.SetReview(ctx, theirs, 43, []byte("theirs")))
		ok(t, s.Schedule(ctx, store.Reviews, store.ReviewRequest(shared, 42), base))
		ok(t, s.Schedule(ctx, store.Reviews, store.ReviewRequest(shared, 43), base))

		ok(t, s.ForgetUser(ctx, 42))
		ok(t, s.ForgetUser(ctx, 42)) // again: harmless
		// The games stay (renaming the seat in a copy, or dropping a copy
		// nobody else played, is the runtime's); 42's reviews and request
		// go, 43's stay.
		for r, want := range map[string]string{shared: "s", practice: "p", theirs: "t"} {
			if got := get(s.KeptGame(ctx, r))(t); string(got) != want {
				t.Errorf("kept game %s after forgetting 42 = %q, want %q", r, got, want)
			}
			_, err := s.Review(ctx, r, 42)
			wantErr(t, err, store.ErrNotFound)
		}
		for _, r := range []string{shared, theirs} {
			if got := get(s.Review(ctx, r, 43))(t); string(got) != "theirs" {
				t.Errorf("43's review of %s = %q", r, got)
			}
		}
		claims := get(s.Claim(ctx, store.Reviews, base.Add(time.Hour), time.Minute, 10))(t)
		if !reflect.DeepEqual(names(claims), []string{store.ReviewRequest(shared, 43)}) {
			t.Errorf("review requests after forgetting 42: %v, want only 43's", names(claims))
		}
		if got := get(s.KeptGames(ctx, 42, 10))(t); len(got) != 0 {
			t.Errorf("the forgotten person's index = %v", got)
		}
		if got := get(s.KeptGames(ctx, 43, 10))(t); !reflect.DeepEqual(got, []string{theirs, shared}) {
			t.Errorf("KeptGames(43) = %v, want [%s %s]", got, theirs, shared)
		}
		// A person forgotten keeps games anew when they play again.
		ok(t, s.KeepGame(ctx, "42:4:1795000300", []int64{42}, []byte("new")))
		if got := get(s.KeptGames(ctx, 42, 10))(t); !reflect.DeepEqual(got, []string{"42:4:1795000300"}) {
			t.Errorf("KeptGames(42) after playing again = %v", got)
		}
	})

	t.Run("KeptGamesBadInput", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		for _, bad := range []string{"", "a b", "x{y", "x}y", "{z}", "ключ", "a\x00b", "tab\t", strings.Repeat("1", 201)} {
			if err := s.KeepGame(ctx, bad, []int64{42}, []byte("g")); err == nil {
				t.Errorf("KeepGame accepted ref %q", bad)
			}
			if _, err := s.KeptGame(ctx, bad); err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("KeptGame(%q) = %v, want a refusal", bad, err)
			}
			if err := s.SetReview(ctx, bad, 42, []byte("r")); err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("SetReview(%q) = %v, want a refusal", bad, err)
			}
			if _, err := s.Review(ctx, bad, 42); err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("Review(%q) = %v, want a refusal", bad, err)
			}
		}
		ok(t, s.KeepGame(ctx, strings.Repeat("1", 200), nil, nil)) // the longest ref
		for _, people := range [][]int64{{0}, {42, -7}} {
			if err := s.KeepGame(ctx, ref, people, []byte("g")); err == nil {
				t.Errorf("KeepGame accepted people %v", people)
			}
		}
		_, err := s.KeptGame(ctx, ref)
		wantErr(t, err, store.ErrNotFound) // nothing written
		if got := get(s.KeptGames(ctx, 42, 10))(t); len(got) != 0 {
			t.Errorf("a refused keep indexed %v", got)
		}
		ok(t, s.KeepGame(ctx, ref, []int64{42}, []byte("g")))
		for _, u := range []int64{0, -1} {
			if err := s.SetReview(ctx, ref, u, []byte("r")); err == nil {
				t.Errorf("SetReview accepted user %d", u)
			}
			if _, err := s.Review(ctx, ref, u); err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("Review(user %d) = %v, want a refusal", u, err)
			}
			if _, err := s.KeptGames(ctx, u, 10); err == nil {
				t.Errorf("KeptGames accepted user %d", u)
			}
		}
	})

	t.Run("ReviewsQueue", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		q := store.Reviews
		name := store.ReviewRequest(ref, 42)
		if r, u, ok := store.ParseReviewRequest(name); !ok || r != ref || u != 42 {
			t.Fatalf("ParseReviewRequest(%q) = %q %d %v", name, r, u, ok)
		}
		for _, bad := range []string{"", ref, ref + "|", ref + "|0", ref + "|x", "|42", "a b|42"} {
			if _, _, ok := store.ParseReviewRequest(bad); ok {
				t.Errorf("ParseReviewRequest accepted %q", bad)
			}
		}
		other := store.ReviewRequest(ref, 43)
		ok(t, s.Schedule(ctx, q, name, base))
		ok(t, s.Schedule(ctx, q, other, base.Add(time.Minute)))
		// Reviews are apart from the other queues.
		for _, o := range []store.Queue{store.Deliveries, store.Inboxes, store.Timers} {
			if n := get(s.Pending(ctx, o))(t); n != 0 {
				t.Errorf("Pending(%s) = %d after scheduling reviews", o, n)
			}
		}
		if n := get(s.Pending(ctx, q))(t); n != 2 {
			t.Fatalf("Pending(reviews) = %d, want 2", n)
		}
		claims := get(s.Claim(ctx, q, base, time.Minute, 10))(t)
		if !reflect.DeepEqual(names(claims), []string{name}) {
			t.Fatalf("claimed %v, want [%s]", names(claims), name)
		}
		if c := get(s.Claim(ctx, q, base.Add(time.Hour), time.Minute, 10))(t); !reflect.DeepEqual(names(c), []string{other}) {
			t.Fatalf("claimed %v an hour later, want [%s] (the first is held)", names(c), other)
		} else {
			ok(t, s.Release(ctx, c[0], base.Add(2*time.Hour))) // a retry later
		}
		if !get(s.Renew(ctx, claims[0], time.Minute))(t) {
			t.Fatal("Renew of a held review request failed")
		}
		// Done: a release with no next time takes it out.
		ok(t, s.Release(ctx, claims[0], time.Time{}))
		if n := get(s.Pending(ctx, q))(t); n != 1 {
			t.Fatalf("Pending(reviews) after the release = %d, want 1", n)
		}
		if at, has := must2(t)(s.NextDue(ctx, q)); !has || !at.Equal(base.Add(2*time.Hour)) {
			t.Fatalf("NextDue(reviews) = %v %v, want the retry at %v", at, has, base.Add(2*time.Hour))
		}
		if c := get(s.Claim(ctx, q, base.Add(24*time.Hour), time.Minute, 10))(t); !reflect.DeepEqual(names(c), []string{other}) {
			t.Fatalf("claimed %v a day later, want only [%s]", names(c), other)
		}
	})
}
