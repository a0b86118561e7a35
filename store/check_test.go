package store_test

import (
	"testing"

	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestCheckServer runs CheckServer against real servers with each setting
// the bot's start decides on.
func TestCheckServer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		args        []string
		policy      string
		persistence string
		config      bool
	}{
		{"nothing", nil, "noeviction", "none", true},
		{"aof", []string{"--appendonly", "yes"}, "noeviction", "aof", true},
		{"rdb", []string{"--save", "60 1 300 10"}, "noeviction", "rdb 60 1 300 10", true},
		{"evicting", []string{"--maxmemory-policy", "allkeys-lru", "--appendonly", "yes"}, "allkeys-lru", "aof", true},
		// Hosted Redis refuses CONFIG: the policy still comes from INFO.
		{"hosted", []string{"--rename-command", "CONFIG", "", "--maxmemory-policy", "volatile-ttl"}, "volatile-ttl", "unknown", false},
		{"hosted-aof", []string{"--rename-command", "CONFIG", "", "--appendonly", "yes"}, "noeviction", "aof", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := redistest.Start(t, c.args...)
			got := get(store.NewRedis(srv.Client(t), "x:", store.Config{}).CheckServer(t.Context()))(t)
			want := store.ServerCheck{Policy: c.policy, Persistence: c.persistence, ConfigAllowed: c.config}
			if got != want {
				t.Fatalf("CheckServer = %+v, want %+v", got, want)
			}
			if got.Evicts() != (c.policy != "noeviction") || got.PersistsNothing() != (c.persistence == "none") {
				t.Fatalf("Evicts %v, PersistsNothing %v for %+v", got.Evicts(), got.PersistsNothing(), got)
			}
		})
	}
	// In a Cluster every master counts: one that evicts, or persists
	// nothing, is the answer.
	t.Run("cluster", func(t *testing.T) {
		t.Parallel()
		cl := redistest.StartCluster3(t, "--appendonly", "yes")
		c := cl.Nodes[1].Client(t)
		ok(t, c.ConfigSet(t.Context(), "maxmemory-policy", "allkeys-random").Err())
		ok(t, c.ConfigSet(t.Context(), "appendonly", "no").Err())
		got := get(store.NewRedis(cl.Client(t), "x:", store.Config{}).CheckServer(t.Context()))(t)
		if want := (store.ServerCheck{Policy: "allkeys-random", Persistence: "none", ConfigAllowed: true}); got != want {
			t.Fatalf("CheckServer = %+v, want %+v", got, want)
		}
	})
}
