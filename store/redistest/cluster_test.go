package redistest_test

import (
	"strings"
	"testing"

	"github.com/trickchef/trickchef/store/redistest"
)

// TestStartCluster3 checks the three-node cluster is real: keys land on
// different nodes, the client follows redirections, and a multi-key
// command across slots is refused as in production.
func TestStartCluster3(t *testing.T) {
	t.Parallel()
	cl := redistest.StartCluster3(t)
	if len(cl.Addrs) != 3 {
		t.Fatalf("%d nodes", len(cl.Addrs))
	}
	c := cl.Client(t)
	ctx := t.Context()
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		if err := c.Set(ctx, k, k, 0).Err(); err != nil {
			t.Fatal(err)
		}
		if v, err := c.Get(ctx, k).Result(); err != nil || v != k {
			t.Fatalf("get %s: %q %v", k, v, err)
		}
	}
	per, err := cl.KeysPerNode(ctx)
	if err != nil {
		t.Fatal(err)
	}
	used := 0
	for _, n := range per {
		if n > 0 {
			used++
		}
	}
	if used < 2 {
		t.Errorf("keys per node %v: want them spread over the nodes", per)
	}
	err = c.MSet(ctx, "a", "1", "b", "2").Err()
	if err == nil || !strings.Contains(err.Error(), "CROSSSLOT") {
		t.Errorf("MSET across slots: %v, want CROSSSLOT", err)
	}
	if !strings.HasPrefix(cl.URL(), "redis-cluster://127.0.0.1:") {
		t.Errorf("URL %q", cl.URL())
	}
}
