package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

// BotPrefix is the key prefix of one bot's data under a base prefix
// ("tc:" and bot 123 give "tc:123:"). Bots sharing a Redis each keep their
// own tables, applied update ids, token budget, timers and results, so a
// staging and a production bot (or a second token) never see each other's
// keys. The id holds no braces, so every hash tag after it is unchanged.
func BotPrefix(base string, botID int64) string {
	return base + strconv.FormatInt(botID, 10) + ":"
}

// Migration reports what MigrateFrom did.
type Migration struct {
	// Owner is the prefix the old keys were given to: r's own, or another
	// bot's that claimed them first (then nothing was moved).
	Owner string
	// Done reports that an earlier run had already finished, so nothing
	// was scanned.
	Done bool
	// Moved counts the keys this call renamed into r's prefix.
	Moved int
	// Kept counts old keys left in place because the new key existed
	// already (data written by the new layout wins).
	Kept int
}

// legacyFamilies are the beginnings of every key the store wrote under a
// bare prefix before keys were kept per bot (see the layout on Redis and in
// results_redis.go). Keys of the new layout start with the bot's id, a
// digit, so they never match.
var legacyFamilies = []string{"t:{", "ptr:{", "rate:{", "res:{", "resu:{"}

// legacyWake is the one old key without a hash tag.
const legacyWake = "wake"

// isLegacyKey reports whether key is a key of the old layout under old.
func isLegacyKey(old, key string) bool {
	rest, ok := strings.CutPrefix(key, old)
	if !ok {
		return false
	}
	if rest == legacyWake {
		return true
	}
	for _, f := range legacyFamilies {
		if strings.HasPrefix(rest, f) {
			return true
		}
	}
	return false
}

// legacyMarkerKey holds the claim on the old keys: owner = the prefix they
// were given to, done = "1" once every old key was moved.
func legacyMarkerKey(old string) string { return old + "legacy" }

// moveKeyScript renames one key unless the target exists.
//
// KEYS[1] old key, KEYS[2] new key (same hash tag, so the same slot)
// Returns 1 when renamed, 0 when the old key is gone (another replica
// moved it), -1 when the new key exists (the old one is left alone).
const moveKeyScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  return -1
end
redis.call('RENAME', KEYS[1], KEYS[2])
return 1
`

// MigrateFrom carries the keys a bot wrote under the bare prefix old
// (before keys were kept per bot, e.g. "tc:") into r's prefix
// (BotPrefix(old, id)), once, so an upgraded bot continues its games and
// keeps its results.
//
// The old keys hold no bot id, so they go to the first bot that migrates:
// HSETNX on old+"legacy" records its prefix, and every other bot finds the
// claim taken and moves nothing. An operator who runs several bots on one
// Redis can name the owner beforehand (HSET tc:legacy owner tc:<id>:).
// Every step is idempotent, so several replicas of one bot may run it at
// once, and a run that stopped halfway is finished by the next: each key
// is renamed by a script that renames only when the old key still exists
// and the new one does not. Keys keep their hash tag, so old and new key
// share a Cluster slot; only the untagged wake set is copied (ZADD LT, then
// ZREM of what was copied), and a wake-up copied twice is at worst one
// early look by the worker. Once a full scan has run, done=1 makes later
// starts skip the scan.
//
// Run it before the bot serves, after the old version has stopped: keys an
// old process writes after the scan stay under the old prefix.
func (r *Redis) MigrateFrom(ctx context.Context, old string) (Migration, error) {
	if old == "" || old == r.prefix || !strings.HasPrefix(r.prefix, old) {
		return Migration{}, fmt.Errorf("store: migrate from %q into %q: the new prefix must extend the old one", old, r.prefix)
	}
	marker := legacyMarkerKey(old)
	if err := r.c.HSetNX(ctx, marker, "owner", r.prefix).Err(); err != nil {
		return Migration{}, fmt.Errorf("store: migrate: claim: %w", err)
	}
	vals, err := r.c.HMGet(ctx, marker, "owner", "done").Result()
	if err != nil {
		return Migration{}, fmt.Errorf("store: migrate: claim: %w", err)
	}
	owner, _ := vals[0].(string)
	done, _ := vals[1].(string)
	m := Migration{Owner: owner, Done: done == "1"}
	if owner != r.prefix || m.Done {
		return m, nil
	}
	move := redis.NewScript(moveKeyScript)
	scan := func(ctx context.Context, node redis.UniversalClient) error {
		iter := node.Scan(ctx, 0, old+"*", 1000).Iterator()
		for iter.Next(ctx) {
			key := iter.Val()
			if !isLegacyKey(old, key) {
				continue
			}
			newKey := r.prefix + strings.TrimPrefix(key, old)
			if key == old+legacyWake {
				n, err := r.moveWake(ctx, key, newKey)
				if err != nil {
					return err
				}
				if n > 0 {
					m.Moved++
				}
				continue
			}
			res, err := move.Run(ctx, r.c, []string{key, newKey}).Int()
			if err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
			switch res {
			case 1:
				m.Moved++
			case -1:
				m.Kept++
			}
		}
		return iter.Err()
	}
	if cc, ok := r.c.(*redis.ClusterClient); ok {
		err = scanMasters(ctx, cc, scan)
	} else {
		err = scan(ctx, r.c)
	}
	if err != nil {
		return m, fmt.Errorf("store: migrate: %w", err)
	}
	if err := r.c.HSet(ctx, marker, "done", "1").Err(); err != nil {
		return m, fmt.Errorf("store: migrate: mark done: %w", err)
	}
	return m, nil
}

// moveWake copies the old wake set into the new one, batch by batch, each
// member at its earlier time (ZADD LT), then removes what it copied from
// the old set. The two keys are in different Cluster slots, so this cannot
// be one RENAME. It returns how many members it removed from the old set
// (replicas running at once may copy the same members, but only one of
// them removes each).
func (r *Redis) moveWake(ctx context.Context, from, to string) (int, error) {
	moved := 0
	for {
		zs, err := r.c.ZRangeWithScores(ctx, from, 0, 999).Result()
		if err != nil {
			return moved, fmt.Errorf("%s: %w", from, err)
		}
		if len(zs) == 0 {
			return moved, nil
		}
		if err := r.c.ZAddLT(ctx, to, zs...).Err(); err != nil {
			return moved, fmt.Errorf("%s: %w", to, err)
		}
		members := make([]any, len(zs))
		for i, z := range zs {
			members[i] = z.Member
		}
		n, err := r.c.ZRem(ctx, from, members...).Result()
		if err != nil {
			return moved, fmt.Errorf("%s: %w", from, err)
		}
		moved += int(n)
	}
}

// scanMasters runs scan on every master of a cluster, one after another
// (ForEachMaster calls in parallel, and scan counts into one report).
func scanMasters(ctx context.Context, cc *redis.ClusterClient, scan func(context.Context, redis.UniversalClient) error) error {
	var (
		mu      sync.Mutex
		masters []*redis.Client
	)
	err := cc.ForEachMaster(ctx, func(_ context.Context, n *redis.Client) error {
		mu.Lock()
		defer mu.Unlock()
		masters = append(masters, n)
		return nil
	})
	if err != nil {
		return err
	}
	for _, n := range masters {
		if err := scan(ctx, n); err != nil {
			return err
		}
	}
	return nil
}
