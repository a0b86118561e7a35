package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// DialRedis connects to the Redis named by a URL and checks it answers, so
// that process wiring never imports go-redis itself.
// "redis://host:6379/0" (or rediss://) is one server; a comma-separated
// list of host:port after "redis-cluster://" is a Redis Cluster. The store
// owns the connection pool: Close it when done.
func DialRedis(ctx context.Context, rawURL, prefix string) (*Redis, error) {
	var c redis.UniversalClient
	if addrs, ok := strings.CutPrefix(rawURL, "redis-cluster://"); ok {
		c = redis.NewClusterClient(&redis.ClusterOptions{Addrs: strings.Split(addrs, ",")})
	} else {
		opts, err := redis.ParseURL(rawURL)
		if err != nil {
			return nil, fmt.Errorf("store: redis url: %w", err)
		}
		c = redis.NewClient(opts)
	}
	r := NewRedis(c, prefix)
	r.owned = true
	if err := r.Ping(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return r, nil
}

// Close closes the connection pool if DialRedis opened it. A client passed
// to NewRedis belongs to the caller and is left open.
func (r *Redis) Close() error {
	if !r.owned {
		return nil
	}
	return r.c.Close()
}
