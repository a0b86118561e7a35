package lease

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/store"
)

// openStore is a real store of the test's own.
func openStore(t *testing.T) *store.Bolt {
	t.Helper()
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "s.db"), store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// unrenewable is a queue whose store stops answering renewals, as a store
// that went away while a member was served.
type unrenewable struct{ Queue }

func (unrenewable) Renew(ctx context.Context, c store.Claim, lease time.Duration) (bool, error) {
	return false, errors.New("dial tcp: connection refused")
}

// TestAFailingRenewalStopsTheServing: a lease whose renewal keeps failing
// cancels the serving it guards before the lease runs out (another replica
// may claim the member then), not only a lease found lost.
func TestAFailingRenewalStopsTheServing(t *testing.T) {
	st := openStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if err := st.Schedule(ctx, store.Timers, "-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan time.Duration, 1)
	const leaseFor = 300 * time.Millisecond
	l := &Loop{Name: "test", Queue: unrenewable{Bind(st, store.Timers)}, Lease: leaseFor, Workers: 1, Idle: 50 * time.Millisecond,
		MaxServe: time.Hour, Now: time.Now, Log: zerolog.New(zerolog.NewTestWriter(t)),
		Serve: func(ctx context.Context, name string) time.Time {
			start := time.Now()
			select {
			case <-ctx.Done():
				stopped <- time.Since(start)
			case <-time.After(time.Minute):
			}
			return time.Time{}
		}}
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	select {
	case took := <-stopped:
		t.Logf("serving stopped %v after it began (lease %v)", took, leaseFor)
	case <-time.After(30 * time.Second):
		t.Fatal("the serving went on though its lease could not be renewed")
	}
}

// TestPanicInsideTheRecovery: a serving that panics, whose Panicked panics
// too, costs neither the process nor the loop: both are recovered and
// counted, and the member's next serving works.
func TestPanicInsideTheRecovery(t *testing.T) {
	st := openStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if err := st.Schedule(ctx, store.Timers, "-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	var servings, panics atomic.Int32
	served := make(chan struct{})
	l := &Loop{Name: "test", Queue: Bind(st, store.Timers), Lease: time.Second, Workers: 1, Idle: 50 * time.Millisecond,
		Now: time.Now, Log: zerolog.New(zerolog.NewTestWriter(t)), Panics: func() { panics.Add(1) },
		Serve: func(ctx context.Context, name string) time.Time {
			if servings.Add(1) == 1 {
				panic("a game's bug")
			}
			close(served)
			return time.Time{}
		},
		Panicked: func(name string, v any) time.Time { panic("and a bug in its recovery") }}
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	select {
	case <-served:
	case <-time.After(30 * time.Second):
		t.Fatal("the member was not served again after the panics")
	}
	if n := panics.Load(); n != 2 {
		t.Errorf("counted %d panics, want 2 (the serving's and its recovery's)", n)
	}
}
