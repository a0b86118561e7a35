package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
	bolt "go.etcd.io/bbolt"
)

// Pointers reads every pointer whose key starts with prefix, by key,
// without keeping any of them longer (a read by Pointer would). It is for
// the few pointers of a rare kind, such as the broken tables' records set
// aside (BrokenKey), which forgetting a person looks through: in Redis it
// scans the whole keyspace (every master of a Cluster), a few thousand
// keys a round trip.
func (r *Redis) Pointers(ctx context.Context, prefix string) (map[string]string, error) {
	head := r.pointerKey(prefix)
	head = head[:len(head)-1] // the key without its closing brace
	var keys []string
	scan := func(ctx context.Context, node redis.UniversalClient) error {
		iter := node.Scan(ctx, 0, globEscape(head)+"*", 1000).Iterator()
		for iter.Next(ctx) {
			if k := iter.Val(); strings.HasSuffix(k, "}") {
				keys = append(keys, k)
			}
		}
		return iter.Err()
	}
	var err error
	if cc, ok := r.c.(*redis.ClusterClient); ok {
		err = scanMasters(ctx, cc, scan)
	} else {
		err = scan(ctx, r.c)
	}
	if err != nil {
		return nil, fmt.Errorf("store: pointers %s: %w", prefix, err)
	}
	out := map[string]string{}
	if len(keys) == 0 {
		return out, nil
	}
	pipe := r.c.Pipeline()
	vals := make([]*redis.StringCmd, len(keys))
	for i, k := range keys {
		vals[i] = pipe.Get(ctx, k)
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("store: pointers %s: %w", prefix, err)
	}
	for i, k := range keys {
		if v, err := vals[i].Result(); err == nil { // gone since the scan: skipped
			out[strings.TrimSuffix(strings.TrimPrefix(k, r.prefix+"ptr:{"), "}")] = v
		}
	}
	return out, nil
}

// globEscape escapes the characters SCAN's MATCH pattern treats as special.
func globEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[]\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Pointers reads every pointer whose key starts with prefix, by key (see
// (*Redis).Pointers).
func (b *Bolt) Pointers(ctx context.Context, prefix string) (map[string]string, error) {
	out := map[string]string{}
	err := b.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketPtr)).Cursor()
		for k, v := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, v = c.Next() {
			out[string(k)] = string(v)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: pointers %s: %w", prefix, err)
	}
	return out, nil
}
