package store_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestSentinel runs the contract through a Sentinel URL, with every commit
// and ingest waiting for the replica (wait_replicas=1).
func TestSentinel(t *testing.T) {
	s := redistest.StartSentinel(t, 1)
	runContract(t, func(t *testing.T) tableStore {
		r, err := store.DialRedis(t.Context(), s.URL()+"?wait_replicas=1&wait_timeout=5s", t.Name()+":", store.Config{})
		ok(t, err)
		t.Cleanup(func() { r.Close() })
		return r
	})
}

// TestSentinelFailover commits from four writers through one Sentinel URL,
// kills the master (SIGKILL) midway, and checks that the sentinels promote
// a replica, the writers go on through the same client, and no commit that
// was acknowledged is lost: with wait_replicas=1 a commit is acknowledged
// only once a replica has it. It logs how long the failover took.
func TestSentinelFailover(t *testing.T) {
	s := redistest.StartSentinel(t, 2) // one replica left after the failover, for WAIT
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	r, err := store.DialRedis(ctx, s.URL()+"?wait_replicas=1&wait_timeout=1s", "tc:1:", store.Config{})
	ok(t, err)
	defer r.Close()

	const writers = 4
	var (
		acked    [writers]atomic.Int64 // the last update id acknowledged per table
		total    atomic.Int64
		failures atomic.Int64
		mu       sync.Mutex
		resumed  time.Time // the first commit acknowledged after the kill
	)
	var killedAt atomic.Pointer[time.Time]
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			table := fmt.Sprint("-10", w)
			var ver int64
			for id := int64(1); ; {
				select {
				case <-stop:
					return
				default:
				}
				started := time.Now()
				_, err := r.Commit(ctx, table, store.Change{Version: ver, Data: []byte(strconv.FormatInt(id, 10)), UpdateID: id})
				switch {
				case err == nil || errors.Is(err, store.ErrDuplicate):
					// Duplicate: an earlier try was written after all.
				case errors.Is(err, store.ErrConflict):
					rec, lerr := r.Load(ctx, table)
					if lerr == nil {
						ver = rec.Version
					}
					continue
				default:
					failures.Add(1)
					time.Sleep(20 * time.Millisecond)
					if rec, lerr := r.Load(ctx, table); lerr == nil {
						ver = rec.Version
					} else if errors.Is(lerr, store.ErrNotFound) {
						ver = 0
					}
					continue
				}
				acked[w].Store(id)
				total.Add(1)
				if k := killedAt.Load(); k != nil && started.After(*k) {
					mu.Lock()
					if resumed.IsZero() {
						resumed = time.Now()
					}
					mu.Unlock()
				}
				if rec, lerr := r.Load(ctx, table); lerr == nil {
					ver = rec.Version
				}
				id++
			}
		})
	}
	waitFor := func(n int64) {
		t.Helper()
		for total.Load() < n {
			if ctx.Err() != nil {
				close(stop)
				wg.Wait()
				t.Fatalf("only %d commits acknowledged, want %d (%d failures)", total.Load(), n, failures.Load())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor(200)
	old, err := s.KillMaster(ctx)
	ok(t, err)
	now := time.Now()
	killedAt.Store(&now)
	before := total.Load()
	promoted, err := s.WaitFailover(ctx, old.Addr)
	ok(t, err)
	promotedAt := time.Now()
	waitFor(before + 200)
	close(stop)
	wg.Wait()

	// Every acknowledged update is in the new master: the table holds the
	// last one, and each earlier id is remembered as applied.
	for w := range writers {
		table := fmt.Sprint("-10", w)
		last := acked[w].Load()
		rec := get(r.Load(ctx, table))(t)
		if got, _ := strconv.ParseInt(string(rec.Data), 10, 64); got < last {
			t.Errorf("%s holds update %d, but %d was acknowledged", table, got, last)
		}
		for id := int64(1); id <= last; id++ {
			if !get(r.Applied(ctx, table, id))(t) {
				t.Errorf("%s: acknowledged update %d lost in the failover", table, id)
				break
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("master %s killed; sentinels promoted %s after %v; commits resumed after %v; %d acknowledged commits, %d failed tries",
		old.Addr, promoted, promotedAt.Sub(now).Round(time.Millisecond), resumed.Sub(now).Round(time.Millisecond), total.Load(), failures.Load())
}
