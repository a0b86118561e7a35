package redistest_test

import (
	"context"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store/redistest"
)

// TestStartSentinel checks the setup is real: the failover client writes
// to the master, the replica has the write, and a killed master is
// replaced by the replica through the same client.
func TestStartSentinel(t *testing.T) {
	t.Parallel()
	s := redistest.StartSentinel(t, 1)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	c := s.Client(t)
	if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Wait(ctx, 1, 5*time.Second).Result(); err != nil || n != 1 {
		t.Fatalf("WAIT = %d, %v; want the replica", n, err)
	}
	old, err := s.KillMaster(ctx)
	if err != nil {
		t.Fatal(err)
	}
	addr, err := s.WaitFailover(ctx, old.Addr)
	if err != nil {
		t.Fatal(err)
	}
	if addr != s.Servers[1].Addr {
		t.Fatalf("new master %s, want the replica %s", addr, s.Servers[1].Addr)
	}
	for {
		v, err := c.Get(ctx, "k").Result()
		if err == nil {
			if v != "v" {
				t.Fatalf("after failover k = %q", v)
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the client never reached the new master: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
