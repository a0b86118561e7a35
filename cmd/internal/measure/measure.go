// Package measure holds what the scenarios of cmd/botbench share: their
// table-count lists, their defaults from the environment, removing the
// keys a measurement left in Redis, seating simulated people at tables
// through the fake Bot API, and quantiles of the latencies measured.
package measure

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// ParseCounts reads a comma-separated list of table counts, each at least 1.
func ParseCounts(list string) ([]int, error) {
	var out []int
	for _, c := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad table count %q", c)
		}
		out = append(out, n)
	}
	return out, nil
}

// EnvOr returns the environment variable k, or def when it is unset or empty.
func EnvOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// DialRaw opens a plain client for the URLs store.DialRedis accepts.
func DialRaw(url string) (redis.UniversalClient, error) {
	if addrs, ok := strings.CutPrefix(url, "redis-cluster://"); ok {
		return redis.NewClusterClient(&redis.ClusterOptions{Addrs: strings.Split(addrs, ",")}), nil
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	return redis.NewClient(opts), nil
}

// EachNode runs fn on every master of a cluster, or on the one server.
func EachNode(ctx context.Context, c redis.UniversalClient, fn func(context.Context, *redis.Client) error) error {
	switch c := c.(type) {
	case *redis.ClusterClient:
		return c.ForEachMaster(ctx, fn)
	case *redis.Client:
		return fn(ctx, c)
	}
	return fmt.Errorf("unsupported redis client %T", c)
}

// ScanKeys lists the keys of one server that start with prefix.
func ScanKeys(ctx context.Context, n *redis.Client, prefix string) ([]string, error) {
	var keys []string
	iter := n.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	return keys, iter.Err()
}

// DeletePrefix removes every key a measurement left in Redis (best effort:
// a measurement's result does not depend on it).
func DeletePrefix(url, prefix string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, err := DialRaw(url)
	if err != nil {
		return
	}
	defer c.Close()
	_ = EachNode(ctx, c, func(ctx context.Context, n *redis.Client) error {
		keys, err := ScanKeys(ctx, n, prefix)
		for len(keys) > 0 {
			batch := keys[:min(len(keys), 1000)]
			keys = keys[len(batch):]
			pipe := n.Pipeline()
			for _, k := range batch {
				pipe.Del(ctx, k) // one key a command: in a cluster their slots differ
			}
			if _, err := pipe.Exec(ctx); err != nil {
				return err
			}
		}
		return err
	})
}
