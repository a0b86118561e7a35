package store_test

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// forgetStore is what the forgetting and expiry tests touch.
type forgetStore interface {
	tableStore
	ForgetUser(ctx context.Context, user int64) error
	RecordResult(ctx context.Context, r store.Result, rate store.RateFunc) (bool, error)
	History(ctx context.Context, chat int64, n int) ([]store.Result, error)
	PlayerChats(ctx context.Context, player string) ([]int64, error)
	Stats(ctx context.Context, chat int64, game, player string) (store.PlayerStats, bool, error)
}

// forgetStores runs a test against Redis, a one-node Cluster and Bolt,
// each made with cfg.
func forgetStores(t *testing.T, cfg store.Config, test func(t *testing.T, s forgetStore, sweep func())) {
	t.Run("Redis", func(t *testing.T) {
		t.Parallel()
		test(t, store.NewRedis(redistest.Client(t), redistest.Prefix(t), cfg), func() {})
	})
	t.Run("Cluster", func(t *testing.T) {
		t.Parallel()
		test(t, store.NewRedis(redistest.StartCluster(t).ClusterClient(t), "tc:", cfg), func() {})
	})
	t.Run("Bolt", func(t *testing.T) {
		t.Parallel()
		b, err := store.OpenBolt(filepath.Join(t.TempDir(), "s.db"), cfg)
		ok(t, err)
		t.Cleanup(func() { b.Close() })
		test(t, b, func() { get(b.Sweep(t.Context()))(t) })
	})
}

// game is a finished game of one person and a robot, or two people.
func game(id string, chat int64, players ...string) store.Result {
	r := store.Result{ID: id, Game: "trickchef", Chat: chat, Started: base, Ended: base.Add(time.Minute)}
	for i, p := range players {
		r.Seats = append(r.Seats, store.ResultSeat{Player: p, Name: "name " + p, Place: i + 1, Score: 10 - i})
	}
	return r
}

// TestForgetUser: /forgetme deletes everything the store keeps of the
// person and nothing of anyone else — but what their private chat's
// outbox still has to send them (the answer to /forgetme itself), whose
// ids must not start over while a delivery may hold the old ones, and the
// kept games, which stay (without the person's reviews) for the runtime
// to rename the person in (TestForgetInGames).
func TestForgetUser(t *testing.T) {
	forgetStores(t, store.Config{}, func(t *testing.T, s forgetStore, _ func()) {
		ctx := t.Context()
		for _, u := range []int64{42, 43} {
			me := store.InboxChat(u)
			for _, k := range []string{store.UserTableKey(u), store.StartedKey(u), store.TipsOffKey(u)} {
				ok(t, s.SetPointer(ctx, k, "-100"))
			}
			get(s.Commit(ctx, me, store.Change{Data: []byte("practice"), UpdateID: 7, Dirty: []string{"table"},
				Outbox: [][]byte{[]byte("hi")}, WakeAt: base, TimerAt: base}))(t)
			ok(t, s.SetMessage(ctx, me, "table", "m1"))
			ok(t, s.Ingest(ctx, me, []store.InboxEntry{{ID: 8, Data: []byte("press")}, {ID: 9, Data: []byte("bad")}}, base))
			ok(t, s.DeadLetter(ctx, me, store.InboxEntry{ID: 9, Data: []byte("bad")}, "panic"))
			get(s.RecordResult(ctx, game("p"+me, u, store.UserPlayer(u), "rpro"), nil))(t)
			ok(t, s.KeepGame(ctx, me+":1:1795000000", []int64{u}, []byte("practice game")))
			ok(t, s.SetReview(ctx, me+":1:1795000000", u, []byte("my review")))
		}
		get(s.RecordResult(ctx, game("g1", -100, "u42", "u43"), nil))(t)
		const shared = "-100:1:1795000000"
		ok(t, s.KeepGame(ctx, shared, []int64{42, 43}, []byte("shared game")))
		ok(t, s.SetReview(ctx, shared, 42, []byte("42's review")))
		ok(t, s.SetReview(ctx, shared, 43, []byte("43's review")))
		held := get(s.Claim(ctx, store.Timers, base, time.Minute, 10))(t) // 42's table is being served

		ok(t, s.ForgetUser(ctx, 42))
		ok(t, s.ForgetUser(ctx, 42)) // again: harmless
		if err := s.ForgetUser(ctx, 0); err == nil {
			t.Error("ForgetUser(0) accepted")
		}

		for _, k := range []string{store.UserTableKey(42), store.StartedKey(42), store.TipsOffKey(42)} {
			if _, err := s.Pointer(ctx, k); err != store.ErrNotFound {
				t.Errorf("pointer %s after ForgetUser: %v", k, err)
			}
		}
		if _, err := s.Load(ctx, "42"); err != store.ErrNotFound {
			t.Errorf("private table after ForgetUser: %v", err)
		}
		if m, d := get(s.Messages(ctx, "42"))(t), get(s.Dirty(ctx, "42"))(t); len(m)+len(d) != 0 {
			t.Errorf("private table's messages %v, dirty %v left", m, d)
		}
		if o := get(s.Outbox(ctx, "42", 10))(t); len(o) != 1 || string(o[0].Data) != "hi" {
			t.Errorf("the private chat's outbox, on its way to the person: %v", o)
		}
		get(s.Commit(ctx, "42", store.Change{OnlyQueue: true, Outbox: [][]byte{[]byte("done")}, WakeAt: base}))(t)
		if o := get(s.Outbox(ctx, "42", 10))(t); len(o) != 2 || o[1].ID <= o[0].ID {
			t.Errorf("an entry queued after ForgetUser: %v, want a new id after the kept one", o)
		}
		if get(s.Applied(ctx, "42", 7))(t) {
			t.Error("private table's update ids left")
		}
		if in := get(s.Inbox(ctx, "42", 10))(t); len(in) != 0 {
			t.Errorf("private inbox left: %v", in)
		}
		for _, c := range held {
			if c.Name == "42" && get(s.Renew(ctx, c, time.Minute))(t) {
				t.Error("the forgotten table is still held in Timers")
			}
		}
		for _, q := range allQueues {
			for _, c := range get(s.Claim(ctx, q, base.Add(time.Hour), time.Minute, 10))(t) {
				if c.Name == "42" && q != store.Deliveries {
					t.Errorf("42 still in %s", q)
				}
			}
		}
		for _, d := range get(s.DeadLetters(ctx, 10))(t) {
			if d.Chat == "42" {
				t.Errorf("dead letter of 42 left: %+v", d)
			}
		}
		if h := get(s.History(ctx, 42, 10))(t); len(h) != 0 {
			t.Errorf("private chat's results left: %v", h)
		}
		if chats := get(s.PlayerChats(ctx, "u42"))(t); len(chats) != 0 {
			t.Errorf("u42 still indexed in %v", chats)
		}
		if _, found := get2(s.Stats(ctx, -100, "trickchef", "u42"))(t); found {
			t.Error("u42's stats in the group left")
		}
		// The kept games stay (the runtime renames 42's seat in them, or
		// drops one nobody else played), without 42's reviews.
		for ref, want := range map[string]string{"42:1:1795000000": "practice game", shared: "shared game"} {
			if got := get(s.KeptGame(ctx, ref))(t); string(got) != want {
				t.Errorf("kept game %s after ForgetUser = %q, want %q", ref, got, want)
			}
			if _, err := s.Review(ctx, ref, 42); err != store.ErrNotFound {
				t.Errorf("42's review of %s after ForgetUser: %v", ref, err)
			}
		}
		if r := get(s.Review(ctx, shared, 43))(t); string(r) != "43's review" {
			t.Errorf("43's review of the shared game = %q", r)
		}
		if refs := get(s.KeptGames(ctx, 42, 10))(t); len(refs) != 0 {
			t.Errorf("42's kept games after ForgetUser: %v", refs)
		}
		h := get(s.History(ctx, -100, 10))(t)
		if len(h) != 1 || h[0].Seats[0].Player != "" || h[0].Seats[0].Name != "" || h[0].Seats[1].Player != "u43" {
			t.Errorf("group history after forgetting u42: %+v", h)
		}

		// The other person keeps everything.
		for _, k := range []string{store.UserTableKey(43), store.StartedKey(43), store.TipsOffKey(43)} {
			get(s.Pointer(ctx, k))(t)
		}
		if rec := get(s.Load(ctx, "43"))(t); string(rec.Data) != "practice" {
			t.Errorf("43's table = %q", rec.Data)
		}
		if in := get(s.Inbox(ctx, "43", 10))(t); len(in) != 1 {
			t.Errorf("43's inbox = %v", in)
		}
		if chats := get(s.PlayerChats(ctx, "u43"))(t); !reflect.DeepEqual(chats, []int64{-100, 43}) {
			t.Errorf("u43's chats = %v", chats)
		}
		if n := get(s.DeadLetterCount(ctx))(t); n != 1 {
			t.Errorf("DeadLetterCount = %d, want 43's one", n)
		}
		if h := get(s.History(ctx, 43, 10))(t); len(h) != 1 {
			t.Errorf("43's practice results = %v", h)
		}
		if refs := get(s.KeptGames(ctx, 43, 10))(t); !slices.Equal(refs, []string{shared, "43:1:1795000000"}) {
			t.Errorf("43's kept games = %v, want the shared game and their practice game", refs)
		}
		if r := get(s.Review(ctx, "43:1:1795000000", 43))(t); string(r) != "my review" {
			t.Errorf("43's review of their practice game = %q", r)
		}
	})
}

// TestExpiry: with short periods, what no activity touched is gone after
// its period; what activity touched again, or a timer still ahead, stays.
func TestExpiry(t *testing.T) {
	// The period leaves each step over a second of slack (renewals must land
	// before 1.0 periods, checks before 1.6): at one second a loaded CI
	// machine sometimes renewed too late.
	const period = 3 * time.Second
	short := store.Retention{Tables: period, Inboxes: period, Pointers: period, Results: period, DeadLetters: period}
	forgetStores(t, store.Config{Retention: short}, func(t *testing.T, s forgetStore, sweep func()) {
		ctx := t.Context()
		start := time.Now()
		get(s.Commit(ctx, "idle", store.Change{Data: []byte("x"), UpdateID: 1, Outbox: [][]byte{[]byte("o")}, Dirty: []string{"table"}}))(t)
		ok(t, s.SetMessage(ctx, "idle", "table", "m"))
		ok(t, s.SetMessage(ctx, "only-message", "table", "m"))
		v := get(s.Commit(ctx, "active", store.Change{Data: []byte("1")}))(t)
		get(s.Commit(ctx, "timer", store.Change{Data: []byte("t"), TimerAt: time.Now().Add(3 * period)}))(t)
		ok(t, s.Ingest(ctx, "-1", []store.InboxEntry{{ID: 1, Data: []byte("u")}}, base))
		ok(t, s.Ingest(ctx, "-2", []store.InboxEntry{{ID: 2, Data: []byte("u")}}, base))
		ok(t, s.DeadLetter(ctx, "-3", store.InboxEntry{ID: 3, Data: []byte("u")}, "r"))
		ok(t, s.SetPointer(ctx, "set", "x"))
		ok(t, s.SetPointer(ctx, "read", "x"))
		get(s.RecordResult(ctx, game("r1", -100, "u1", "rpro"), nil))(t)
		get(s.RecordResult(ctx, game("r2", -200, "u2", "rpro"), nil))(t)

		// Activity at 0.6 periods renews what it touches.
		time.Sleep(time.Until(start.Add(period * 6 / 10)))
		get(s.Commit(ctx, "active", store.Change{Version: v, Data: []byte("2")}))(t)
		ok(t, s.Ingest(ctx, "-2", []store.InboxEntry{{ID: 4, Data: []byte("u")}}, base))
		get(s.Pointer(ctx, "read"))(t)
		get(s.RecordResult(ctx, game("r3", -200, "u2", "rpro"), nil))(t)

		time.Sleep(time.Until(start.Add(period * 13 / 10)))
		sweep()
		if _, err := s.Load(ctx, "idle"); err != store.ErrNotFound {
			t.Errorf("an idle table after its period: %v", err)
		}
		if o, m := get(s.Outbox(ctx, "idle", 10))(t), get(s.Messages(ctx, "idle"))(t); len(o)+len(m) != 0 || get(s.Applied(ctx, "idle", 1))(t) {
			t.Errorf("an idle table's outbox %v, messages %v or update ids left", o, m)
		}
		if m := get(s.Messages(ctx, "only-message"))(t); len(m) != 0 {
			t.Errorf("message records of a table never committed left: %v", m)
		}
		for _, table := range []string{"active", "timer"} {
			get(s.Load(ctx, table))(t)
		}
		if in := get(s.Inbox(ctx, "-1", 10))(t); len(in) != 0 {
			t.Errorf("an idle inbox after its period: %v", in)
		}
		if in := get(s.Inbox(ctx, "-2", 10))(t); len(in) != 2 {
			t.Errorf("an inbox fed again: %v", in)
		}
		if n := get(s.DeadLetterCount(ctx))(t); n != 0 {
			t.Errorf("%d dead letters after their period", n)
		}
		if _, err := s.Pointer(ctx, "set"); err != store.ErrNotFound {
			t.Errorf("a pointer neither set nor read again: %v", err)
		}
		get(s.Pointer(ctx, "read"))(t)
		if h := get(s.History(ctx, -100, 10))(t); len(h) != 0 {
			t.Errorf("an idle group's results after their period: %v", h)
		}
		if h := get(s.History(ctx, -200, 10))(t); len(h) != 2 {
			t.Errorf("a group that played again: %v", h)
		}
		if _, found := get2(s.Stats(ctx, -200, "trickchef", "u2"))(t); !found {
			t.Error("the stats of a group that played again are gone")
		}
		if chats := get(s.PlayerChats(ctx, "u1"))(t); len(chats) != 0 {
			t.Errorf("an idle person's index: %v", chats)
		}
		if chats := get(s.PlayerChats(ctx, "u2"))(t); !slices.Equal(chats, []int64{-200}) {
			t.Errorf("an active person's index: %v", chats)
		}
	})
}

func get2[A, B any](a A, b B, err error) func(t *testing.T) (A, B) {
	return func(t *testing.T) (A, B) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return a, b
	}
}
