package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

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
// The kept games ("game:{", "kept:{") came after the per-bot keys, but a
// bot run with a bare prefix writes them too, and they move alike.
var legacyFamilies = []string{"t:{", "ptr:{", "rate:{", "res:{", "resu:{", "in:{", "try:{", "game:{", "kept:{"}

// isQueueKey reports whether key is one of the queues' keys under prefix.
func isQueueKey(prefix, key string) bool {
	r := Redis{prefix: prefix}
	for _, q := range queues {
		k := r.queueKeys(q)
		if slices.Contains([]string{k.due, k.held, k.token, k.again, k.ver}, key) {
			return true
		}
	}
	return false
}

// isLegacyKey reports whether key is a key of the old layout under old.
func isLegacyKey(old, key string) bool {
	rest, ok := strings.CutPrefix(key, old)
	if !ok {
		return false
	}
	if isQueueKey(old, key) {
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
// share a Cluster slot; only the queues, whose keys are tagged with the
// prefix, are copied member by member (see moveQueue), and a member copied
// twice is at worst one early look by a worker. Once a full scan has run,
// done=1 makes later starts skip the scan.
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
	for _, q := range queues {
		n, err := r.moveQueue(ctx, old, q)
		if err != nil {
			return m, fmt.Errorf("store: migrate: %w", err)
		}
		m.Moved += n
	}
	move := redis.NewScript(moveKeyScript)
	scan := func(ctx context.Context, node redis.UniversalClient) error {
		iter := node.Scan(ctx, 0, old+"*", 1000).Iterator()
		for iter.Next(ctx) {
			key := iter.Val()
			if !isLegacyKey(old, key) || isQueueKey(old, key) {
				continue
			}
			newKey := r.prefix + strings.TrimPrefix(key, old)
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

// moveQueue carries a queue's members from the old prefix into r's, batch
// by batch: each due member is scheduled at its due time (the earlier one
// if r has it already), each held one at once (the process that held it
// is gone) or at the time it was scheduled at while held; then what was
// copied leaves the old keys. The old and new keys are in different
// Cluster slots, so this cannot be one RENAME. It returns how many of the
// old keys it emptied or deleted (replicas running at once may copy the same members,
// but only one of them removes each).
func (r *Redis) moveQueue(ctx context.Context, old string, q Queue) (int, error) {
	from := (&Redis{prefix: old}).queueKeys(q)
	moved := 0
	for _, held := range []bool{true, false} {
		set := from.due
		if held {
			set = from.held
		}
		removed := 0
		for {
			zs, err := r.c.ZRangeWithScores(ctx, set, 0, 999).Result()
			if err != nil {
				return moved, fmt.Errorf("%s: %w", set, err)
			}
			if len(zs) == 0 {
				break
			}
			members := make([]any, len(zs))
			var calls []scriptCall
			for i, z := range zs {
				name := z.Member.(string)
				members[i] = name
				at := fromMillis(int64(z.Score))
				if held {
					at = time.Now()
					if a, err := r.c.ZScore(ctx, from.again, name).Result(); err == nil && fromMillis(int64(a)).Before(at) {
						at = fromMillis(int64(a))
					}
				}
				calls = append(calls, r.scheduleCall(q, name, at))
			}
			if err := r.runScripts(ctx, calls); err != nil {
				return moved, fmt.Errorf("%s: %w", r.queueKeys(q).due, err)
			}
			n, err := r.c.ZRem(ctx, set, members...).Result()
			if err != nil {
				return moved, fmt.Errorf("%s: %w", set, err)
			}
			removed += int(n)
		}
		if removed > 0 {
			moved++
		}
	}
	// What is left beside the held set belonged to claims that are gone.
	for _, k := range []string{from.token, from.again, from.ver} {
		n, err := r.c.Del(ctx, k).Result()
		if err != nil {
			return moved, fmt.Errorf("%s: %w", k, err)
		}
		moved += int(n)
	}
	return moved, nil
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
