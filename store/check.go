package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

// ServerCheck is what CheckServer learned of the Redis the store runs on.
// The store needs a Redis that evicts nothing (an evicted table is a game
// lost mid-move) and that persists (a restarted Redis without AOF or RDB
// comes back empty).
type ServerCheck struct {
	// Policy is maxmemory-policy, read from INFO (which hosted Redis
	// allows). In a Cluster it is the first master's that evicts, if any.
	Policy string
	// Persistence is "aof", "rdb <save schedule>", "none", or "unknown"
	// when CONFIG is refused and AOF is off (the save schedule is read with
	// CONFIG GET). In a Cluster it is the weakest master's.
	Persistence string
	// ConfigAllowed is false when the server refuses CONFIG, as hosted
	// Redis services do; the persistence may then be unknown.
	ConfigAllowed bool
}

// Evicts reports whether the server may drop keys under maxmemory.
func (c ServerCheck) Evicts() bool { return c.Policy != "noeviction" }

// PersistsNothing reports whether the server is known to keep nothing on
// disk: a restart loses every table.
func (c ServerCheck) PersistsNothing() bool { return c.Persistence == "none" }

// CheckServer reads the server's eviction policy and persistence (every
// master's, in a Cluster). It fails only when Redis cannot be asked; what
// to refuse is the caller's choice.
func (r *Redis) CheckServer(ctx context.Context) (ServerCheck, error) {
	cc, ok := r.c.(*redis.ClusterClient)
	if !ok {
		return checkNode(ctx, r.c)
	}
	var (
		mu     sync.Mutex
		checks []ServerCheck
	)
	err := cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
		c, err := checkNode(ctx, n)
		mu.Lock()
		defer mu.Unlock()
		checks = append(checks, c)
		return err
	})
	if err != nil {
		return ServerCheck{}, err
	}
	out := ServerCheck{Policy: "noeviction", Persistence: "aof", ConfigAllowed: true}
	weakness := map[string]int{"none": 3, "unknown": 2, "rdb": 1, "aof": 0}
	for _, c := range checks {
		if c.Evicts() && !out.Evicts() {
			out.Policy = c.Policy
		}
		kind, _, _ := strings.Cut(c.Persistence, " ")
		cur, _, _ := strings.Cut(out.Persistence, " ")
		if weakness[kind] > weakness[cur] {
			out.Persistence = c.Persistence
		}
		out.ConfigAllowed = out.ConfigAllowed && c.ConfigAllowed
	}
	return out, nil
}

// checkNode checks one server.
func checkNode(ctx context.Context, c redis.UniversalClient) (ServerCheck, error) {
	info, err := c.Info(ctx, "memory", "persistence").Result()
	if err != nil {
		return ServerCheck{}, fmt.Errorf("store: check server: %w", err)
	}
	fields := infoFields(info)
	out := ServerCheck{Policy: fields["maxmemory_policy"], ConfigAllowed: true}
	if out.Policy == "" {
		return ServerCheck{}, fmt.Errorf("store: check server: INFO has no maxmemory_policy")
	}
	save, err := c.ConfigGet(ctx, "save").Result()
	var rerr redis.Error
	switch {
	case errors.As(err, &rerr):
		out.ConfigAllowed = false // renamed away, or denied by an ACL
	case err != nil:
		return ServerCheck{}, fmt.Errorf("store: check server: %w", err)
	}
	switch {
	case fields["aof_enabled"] == "1":
		out.Persistence = "aof"
	case !out.ConfigAllowed:
		out.Persistence = "unknown"
	case strings.TrimSpace(save["save"]) != "":
		out.Persistence = "rdb " + strings.TrimSpace(save["save"])
	default:
		out.Persistence = "none"
	}
	return out, nil
}
