package store_test

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
)

var allQueues = []store.Queue{store.Deliveries, store.Inboxes, store.Timers, store.Reviews, store.Seasons}

// runQueueContract pins the queues: due times on the callers' clock,
// leases on the store's, whatever clocks the claimants have.
func runQueueContract(t *testing.T, newStore func(t *testing.T) tableStore) {
	t.Run("QueueSchedule", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		for _, q := range allQueues {
			if _, has := must2(t)(s.NextDue(ctx, q)); has {
				t.Fatalf("NextDue(%s) on an empty store reports a member", q)
			}
			if n := get(s.Pending(ctx, q))(t); n != 0 {
				t.Fatalf("Pending(%s) = %d on an empty store", q, n)
			}
		}
		d := store.Deliveries
		ok(t, s.Schedule(ctx, d, "a", base.Add(10*time.Second)))
		ok(t, s.Schedule(ctx, d, "a", base.Add(20*time.Second))) // later: ignored
		ok(t, s.Schedule(ctx, d, "b", base.Add(15*time.Second)))
		if at, has := must2(t)(s.NextDue(ctx, d)); !has || !at.Equal(base.Add(10*time.Second)) {
			t.Fatalf("NextDue = %v %v, want %v", at, has, base.Add(10*time.Second))
		}
		ok(t, s.Schedule(ctx, d, "b", base.Add(5*time.Second))) // earlier: wins
		// A commit's WakeAt follows the same rule.
		get(s.Commit(ctx, "a", store.Change{Data: []byte("x"), WakeAt: base.Add(time.Hour)}))(t)
		get(s.Commit(ctx, "c", store.Change{Data: []byte("x"), WakeAt: base.Add(7 * time.Second)}))(t)
		// The queues are apart.
		ok(t, s.Schedule(ctx, store.Timers, "t", base))
		ok(t, s.Schedule(ctx, store.Inboxes, "i", base))
		if n := get(s.Pending(ctx, d))(t); n != 3 {
			t.Fatalf("Pending = %d, want 3", n)
		}
		if c := get(s.Claim(ctx, d, base.Add(6*time.Second), time.Minute, 10))(t); !reflect.DeepEqual(names(c), []string{"b"}) {
			t.Fatalf("claimed %v at 6 s, want [b]", names(c))
		}
		claims := get(s.Claim(ctx, d, base.Add(time.Minute), time.Minute, 10))(t)
		if got := names(claims); !reflect.DeepEqual(got, []string{"c", "a"}) {
			t.Fatalf("claimed %v, want [c a] (earliest first; b is held)", got)
		}
		for _, c := range claims {
			if c.Queue != d || c.Token == "" {
				t.Fatalf("claim %+v: want queue %s and a token", c, d)
			}
			ok(t, s.Release(ctx, c, time.Time{}))
		}
		if n := get(s.Pending(ctx, d))(t); n != 1 {
			t.Fatalf("Pending after releasing c and a = %d, want 1 (b, held)", n)
		}
		for _, q := range []store.Queue{store.Timers, store.Inboxes} {
			if n := get(s.Pending(ctx, q))(t); n != 1 {
				t.Fatalf("Pending(%s) = %d, want 1", q, n)
			}
		}
		// Bad arguments change nothing.
		bad := store.Queue("nope")
		if err := s.Schedule(ctx, bad, "x", base); err == nil {
			t.Error("Schedule on an unknown queue accepted")
		}
		if _, err := s.Claim(ctx, bad, base, time.Minute, 1); err == nil {
			t.Error("Claim on an unknown queue accepted")
		}
		if _, _, err := s.NextDue(ctx, bad); err == nil {
			t.Error("NextDue on an unknown queue accepted")
		}
		if _, err := s.Pending(ctx, bad); err == nil {
			t.Error("Pending on an unknown queue accepted")
		}
		if err := s.Release(ctx, store.Claim{Queue: bad, Name: "x", Token: "y"}, base); err == nil {
			t.Error("Release on an unknown queue accepted")
		}
		for _, c := range []struct {
			lease time.Duration
			limit int
		}{{0, 1}, {time.Microsecond, 1}, {time.Minute, 0}} {
			if _, err := s.Claim(ctx, d, base, c.lease, c.limit); err == nil {
				t.Errorf("Claim with lease %v limit %d accepted", c.lease, c.limit)
			}
		}
	})

	// Two replicas whose clocks differ: the second's now is a minute, an
	// hour, a day ahead, and still gets nothing the first holds.
	t.Run("QueueLeaseOnStoreClock", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		for _, q := range allQueues {
			ok(t, s.Schedule(ctx, q, "m", base))
			first := get(s.Claim(ctx, q, base, time.Minute, 10))(t)
			if !reflect.DeepEqual(names(first), []string{"m"}) {
				t.Fatalf("%s: claimed %v, want [m]", q, names(first))
			}
			for _, ahead := range []time.Duration{time.Minute, time.Hour, 24 * time.Hour} {
				if c := get(s.Claim(ctx, q, base.Add(ahead), time.Minute, 10))(t); len(c) != 0 {
					t.Fatalf("%s: a claimant %v ahead took %v, held by another", q, ahead, names(c))
				}
			}
			if at, has := must2(t)(s.NextDue(ctx, q)); has {
				t.Fatalf("%s: NextDue = %v for a held member", q, at)
			}
			if n := get(s.Pending(ctx, q))(t); n != 1 {
				t.Fatalf("%s: Pending = %d, want 1 (held)", q, n)
			}
			ok(t, s.Release(ctx, first[0], time.Time{}))
			if n := get(s.Pending(ctx, q))(t); n != 0 {
				t.Fatalf("%s: Pending after release = %d, want 0", q, n)
			}
		}
	})

	t.Run("QueueLeaseRunsOut", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		q := store.Timers
		ok(t, s.Schedule(ctx, q, "m", base))
		first := get(s.Claim(ctx, q, base, 100*time.Millisecond, 1))(t)
		if len(first) != 1 {
			t.Fatalf("claimed %v", names(first))
		}
		time.Sleep(250 * time.Millisecond) // the store's clock moves on
		if renewed := get(s.Renew(ctx, first[0], time.Minute))(t); renewed {
			t.Fatal("a lease that ran out was renewed")
		}
		// A claimant whose clock is behind the first's still takes it: the
		// member is due again at once.
		second := get(s.Claim(ctx, q, base.Add(-time.Minute), time.Minute, 1))(t)
		if !reflect.DeepEqual(names(second), []string{"m"}) || second[0].Token == first[0].Token {
			t.Fatalf("after the lease ran out: %+v, want m with a new token (first %+v)", second, first)
		}
		// The first claimant comes back: its release and renewal must not
		// disturb the new holder.
		ok(t, s.Release(ctx, first[0], time.Time{}))
		ok(t, s.Release(ctx, first[0], base))
		if renewed := get(s.Renew(ctx, first[0], time.Minute))(t); renewed {
			t.Fatal("a stale claim was renewed")
		}
		if c := get(s.Claim(ctx, q, base.Add(time.Hour), time.Minute, 1))(t); len(c) != 0 {
			t.Fatalf("a stale release freed the member: %v", names(c))
		}
		if renewed := get(s.Renew(ctx, second[0], time.Minute))(t); !renewed {
			t.Fatal("the new holder's renewal refused after a stale release")
		}
		ok(t, s.Release(ctx, second[0], time.Time{}))
		if n := get(s.Pending(ctx, q))(t); n != 0 {
			t.Fatalf("Pending = %d after the holder released, want 0", n)
		}
	})

	t.Run("QueueRenew", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		q := store.Deliveries
		ok(t, s.Schedule(ctx, q, "m", base))
		c := get(s.Claim(ctx, q, base, time.Second, 1))(t)
		if len(c) != 1 {
			t.Fatalf("claimed %v", names(c))
		}
		if renewed := get(s.Renew(ctx, c[0], time.Minute))(t); !renewed {
			t.Fatal("the holder's renewal refused")
		}
		for _, other := range []store.Claim{
			{Queue: q, Name: "m", Token: c[0].Token + "x"},
			{Queue: store.Timers, Name: "m", Token: c[0].Token},
			{Queue: q, Name: "n", Token: c[0].Token},
		} {
			if renewed := get(s.Renew(ctx, other, time.Minute))(t); renewed {
				t.Fatalf("Renew(%+v) succeeded for a claim nobody holds", other)
			}
		}
		time.Sleep(1200 * time.Millisecond) // past the first lease
		if got := get(s.Claim(ctx, q, base.Add(time.Hour), time.Minute, 1))(t); len(got) != 0 {
			t.Fatalf("a renewed lease was taken: %v", names(got))
		}
		ok(t, s.Release(ctx, c[0], time.Time{}))
		if n := get(s.Pending(ctx, q))(t); n != 0 {
			t.Fatalf("Pending = %d after release, want 0", n)
		}
	})

	t.Run("QueueScheduledWhileHeld", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		q := store.Deliveries
		for _, m := range []string{"p", "q", "r", "s", "w"} {
			ok(t, s.Schedule(ctx, q, m, base))
		}
		byName := map[string]store.Claim{}
		for _, c := range get(s.Claim(ctx, q, base, time.Minute, 10))(t) {
			byName[c.Name] = c
		}
		if len(byName) != 5 {
			t.Fatalf("claimed %v", byName)
		}
		// While held: a commit wakes one, others are scheduled.
		get(s.Commit(ctx, "p", store.Change{Data: []byte("x"), WakeAt: base.Add(10 * time.Second)}))(t)
		ok(t, s.Schedule(ctx, q, "q", base.Add(30*time.Second)))
		ok(t, s.Schedule(ctx, q, "q", base.Add(20*time.Second)))
		ok(t, s.Schedule(ctx, q, "s", base.Add(40*time.Second)))
		ok(t, s.Schedule(ctx, q, "w", base.Add(time.Second)))
		if c := get(s.Claim(ctx, q, base.Add(time.Hour), time.Minute, 10))(t); len(c) != 0 {
			t.Fatalf("members scheduled while held were handed out: %v", names(c))
		}
		if at, has := must2(t)(s.NextDue(ctx, q)); has {
			t.Fatalf("NextDue = %v while every member is held", at)
		}
		// Release keeps the earlier of next and the time scheduled meanwhile.
		ok(t, s.Release(ctx, byName["p"], time.Time{}))             // due at 10 s
		ok(t, s.Release(ctx, byName["q"], base.Add(time.Hour)))     // due at 20 s
		ok(t, s.Release(ctx, byName["r"], base.Add(time.Hour)))     // due at 1 h
		ok(t, s.Release(ctx, byName["s"], base.Add(5*time.Second))) // due at 5 s
		ok(t, s.Release(ctx, byName["w"], base.Add(2*time.Second))) // due at 1 s
		got := get(s.Claim(ctx, q, base.Add(25*time.Second), time.Minute, 10))(t)
		if !reflect.DeepEqual(names(got), []string{"w", "s", "p", "q"}) {
			t.Fatalf("due after release = %v, want [w s p q]", names(got))
		}
		for _, c := range got {
			ok(t, s.Release(ctx, c, time.Time{}))
		}
		if at, has := must2(t)(s.NextDue(ctx, q)); !has || !at.Equal(base.Add(time.Hour)) {
			t.Fatalf("NextDue = %v %v, want only r at %v", at, has, base.Add(time.Hour))
		}
		if n := get(s.Pending(ctx, q))(t); n != 1 {
			t.Fatalf("Pending = %d, want 1 (r)", n)
		}
	})

	t.Run("QueueTimerAt", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		timer := func() (time.Time, bool) {
			t.Helper()
			return must2(t)(s.NextDue(ctx, store.Timers))
		}
		v := get(s.Commit(ctx, "g", store.Change{Data: []byte("1"), TimerAt: base.Add(time.Minute)}))(t)
		if at, has := timer(); !has || !at.Equal(base.Add(time.Minute)) {
			t.Fatalf("timer = %v %v, want %v", at, has, base.Add(time.Minute))
		}
		if _, has := must2(t)(s.NextDue(ctx, store.Deliveries)); has {
			t.Fatal("TimerAt scheduled a delivery")
		}
		// Exactly TimerAt, later too.
		v = get(s.Commit(ctx, "g", store.Change{Version: v, Data: []byte("2"), TimerAt: base.Add(2 * time.Minute)}))(t)
		if at, has := timer(); !has || !at.Equal(base.Add(2*time.Minute)) {
			t.Fatalf("timer = %v %v, want exactly the later %v", at, has, base.Add(2*time.Minute))
		}
		// A queue-only change leaves the timer alone.
		get(s.Commit(ctx, "g", store.Change{OnlyQueue: true, Outbox: [][]byte{[]byte("hi")}, TimerAt: base}))(t)
		if at, has := timer(); !has || !at.Equal(base.Add(2*time.Minute)) {
			t.Fatalf("timer after a queue-only change = %v %v", at, has)
		}
		// Zero takes it out.
		v = get(s.Commit(ctx, "g", store.Change{Version: v, Data: []byte("3")}))(t)
		if at, has := timer(); has {
			t.Fatalf("timer = %v after a commit without one", at)
		}
		// Set while the table is held in Timers: due when released, and the
		// commit's time wins over the claimant's zero next.
		v = get(s.Commit(ctx, "g", store.Change{Version: v, Data: []byte("4"), TimerAt: base}))(t)
		c := get(s.Claim(ctx, store.Timers, base, time.Minute, 1))(t)
		if !reflect.DeepEqual(names(c), []string{"g"}) {
			t.Fatalf("claimed %v, want [g]", names(c))
		}
		v = get(s.Commit(ctx, "g", store.Change{Version: v, Data: []byte("5"), TimerAt: base.Add(time.Hour)}))(t)
		v = get(s.Commit(ctx, "g", store.Change{Version: v, Data: []byte("6"), TimerAt: base.Add(3 * time.Minute)}))(t)
		if got := get(s.Claim(ctx, store.Timers, base.Add(24*time.Hour), time.Minute, 1))(t); len(got) != 0 {
			t.Fatalf("claimed %v while held", names(got))
		}
		ok(t, s.Release(ctx, c[0], time.Time{}))
		if at, has := timer(); !has || !at.Equal(base.Add(3*time.Minute)) {
			t.Fatalf("timer after release = %v %v, want the last commit's %v", at, has, base.Add(3*time.Minute))
		}
		// Taken out while held: not due after the release.
		c = get(s.Claim(ctx, store.Timers, base.Add(3*time.Minute), time.Minute, 1))(t)
		get(s.Commit(ctx, "g", store.Change{Version: v, Data: []byte("7")}))(t)
		ok(t, s.Release(ctx, c[0], time.Time{}))
		if at, has := timer(); has {
			t.Fatalf("timer = %v after it was taken out while held", at)
		}
	})

	t.Run("QueueDelete", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		get(s.Commit(ctx, "-5", store.Change{Data: []byte("x"), WakeAt: base, TimerAt: base}))(t)
		get(s.Commit(ctx, "keep", store.Change{Data: []byte("k"), WakeAt: base, TimerAt: base}))(t)
		ok(t, s.Ingest(ctx, "-5", []store.InboxEntry{{ID: 1, Data: []byte("u")}}, base))
		held := get(s.Claim(ctx, store.Timers, base, time.Minute, 1))(t)
		if len(held) != 1 {
			t.Fatalf("claimed %v", names(held))
		}
		ok(t, s.Delete(ctx, "-5"))
		ok(t, s.Delete(ctx, "keep")) // then made again: its queues start afresh
		get(s.Commit(ctx, "keep", store.Change{Data: []byte("k"), WakeAt: base.Add(time.Minute)}))(t)
		if renewed := get(s.Renew(ctx, held[0], time.Minute))(t); renewed {
			t.Fatal("a claim on a deleted table was renewed")
		}
		ok(t, s.Release(ctx, held[0], base)) // the holder finishes: nothing comes back
		if n := get(s.Pending(ctx, store.Timers))(t); n != 0 {
			t.Fatalf("Pending(Timers) = %d after Delete, want 0", n)
		}
		if c := get(s.Claim(ctx, store.Deliveries, base.Add(time.Hour), time.Minute, 10))(t); !reflect.DeepEqual(names(c), []string{"keep"}) {
			t.Fatalf("Deliveries after Delete = %v, want [keep]", names(c))
		}
		// The chat's waiting updates are not the table's.
		if c := get(s.Claim(ctx, store.Inboxes, base, time.Minute, 10))(t); !reflect.DeepEqual(names(c), []string{"-5"}) {
			t.Fatalf("Inboxes after Delete = %v, want [-5]", names(c))
		}
	})

	// Claimants with clocks a minute and an hour apart claim and release
	// one set of members at once: no member is ever held by two.
	t.Run("QueueTwoClocks", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		const members = 12
		for i := range members {
			ok(t, s.Schedule(ctx, store.Deliveries, fmt.Sprint("m", i), base))
		}
		var (
			mu      sync.Mutex
			holding = map[string]int{}
			served  int
		)
		offsets := []time.Duration{0, time.Minute, -time.Minute, time.Hour}
		var wg sync.WaitGroup
		errs := make(chan error, len(offsets))
		for w, off := range offsets {
			wg.Go(func() {
				for range 25 {
					cs, err := s.Claim(ctx, store.Deliveries, base.Add(off), time.Minute, 3)
					if err != nil {
						errs <- err
						return
					}
					mu.Lock()
					for _, c := range cs {
						if other, ok := holding[c.Name]; ok {
							errs <- fmt.Errorf("%s held by claimants %d and %d at once", c.Name, other, w)
						}
						holding[c.Name] = w
						served++
					}
					mu.Unlock()
					for _, c := range cs {
						mu.Lock()
						delete(holding, c.Name)
						mu.Unlock()
						// Due again at once, on the slowest clock.
						if err := s.Release(ctx, c, base.Add(-time.Minute)); err != nil {
							errs <- err
							return
						}
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if served == 0 {
			t.Fatal("nothing was claimed")
		}
		if n := get(s.Pending(ctx, store.Deliveries))(t); n != members {
			t.Fatalf("Pending = %d after all released, want %d", n, members)
		}
	})
}
