package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// DialRedis connects to the Redis named by a URL and checks it answers.
// "redis://host:6379/0" (or rediss://) is one server; a comma-separated
// list of host:port after "redis-cluster://" is a Redis Cluster. Only this
// package imports go-redis, so the process wiring goes through here.
func DialRedis(ctx context.Context, rawURL, prefix string) (*Redis, error) {
	var c redis.UniversalClient
	if addrs, ok := strings.CutPrefix(rawURL, "redis-cluster://"); ok {
		c = redis.NewClusterClient(&redis.ClusterOptions{Addrs: strings.Split(addrs, ",")})
	} else {
		opts, err := redis.ParseURL(rawURL)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		c = redis.NewClient(opts)
	}
	r := NewRedis(c, prefix)
	if err := r.Ping(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("redis: %w", err)
	}
	return r, nil
}

// Close closes the connection pool.
func (r *Redis) Close() error { return r.c.Close() }
