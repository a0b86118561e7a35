package store

import (
	"context"
	"fmt"
	"time"
)

// Attempt keys (P the prefix, K the caller's key):
//
//	P try:{K}  hash  i = the item counted, n = its attempts; PEXPIRE ttl at each attempt
func (r *Redis) attemptKey(key string) string { return r.prefix + "try:{" + key + "}" }

// attemptScript counts one more attempt at an item.
//
// KEYS[1] try:{K}
// ARGV[1] item, ARGV[2] ttl (ms)
// Returns the attempt's number.
const attemptScript = `
local n = 1
if redis.call('HGET', KEYS[1], 'i') == ARGV[1] then
  n = redis.call('HINCRBY', KEYS[1], 'n', 1)
else
  redis.call('HSET', KEYS[1], 'i', ARGV[1], 'n', 1)
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n
`

// Attempt counts one more attempt at item under key and returns its
// number: 1 when key counted another item, or nothing, or its count
// expired (ttl after the last attempt). See attempts.go.
func (r *Redis) Attempt(ctx context.Context, key, item string, ttl time.Duration) (int, error) {
	n, err := r.attempt.Run(ctx, r.c, []string{r.attemptKey(key)}, item, max(ttl, attemptTTL).Milliseconds()).Int()
	if err != nil {
		return 0, fmt.Errorf("store: attempt %s: %w", key, err)
	}
	return n, nil
}

// ForgetAttempts drops key's count.
func (r *Redis) ForgetAttempts(ctx context.Context, key string) error {
	if err := r.c.Del(ctx, r.attemptKey(key)).Err(); err != nil {
		return fmt.Errorf("store: forget attempts %s: %w", key, err)
	}
	return nil
}
