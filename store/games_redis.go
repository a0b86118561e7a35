package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// Kept games in Redis (P is the prefix, R a game ref, U a user id):
//
//	P game:{R}    hash  g = the game's bytes, r:<U> = U's review; expires
//	                    GameRetention after the keep (never refreshed)
//	P kept:{uU}   zset  R → keep time (server ms, strictly increasing per
//	                    person); at most KeptPerPerson, expires GameRetention
//	                    after the person's last keep
//
// A game and its reviews are one key, so a review cannot outlive its game
// and deleting the game takes them all. Each key is its own slot; every
// command or script below touches one key.

func (r *Redis) gameKey(ref string) string { return r.prefix + "game:{" + ref + "}" }
func (r *Redis) keptKey(user int64) string { return r.prefix + "kept:{" + UserPlayer(user) + "}" }
func reviewField(user int64) string        { return "r:" + strconv.FormatInt(user, 10) }

// keepGameScript keeps a game unless it is kept already (first write wins:
// a retried job changes nothing, its reviews stay).
//
// KEYS[1] game
// ARGV[1] game bytes, ARGV[2] retention (ms)
// Returns 1 when kept now, 0 when it was kept already.
const keepGameScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'g', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`

// keptIndexScript indexes a game under a person: scored by the server's
// TIME, but after every game indexed before (so the order is the order of
// the keeps even within one millisecond); a ref indexed already keeps its
// place. Entries older than the retention and all but the newest limit
// are dropped, and the key lives for the retention from now.
//
// KEYS[1] kept
// ARGV[1] ref, ARGV[2] retention (ms), ARGV[3] limit
// Returns 1.
const keptIndexScript = queueLua + `
local now = clockms()
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  local at = now
  local top = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  if #top == 2 and tonumber(top[2]) >= at then
    at = tonumber(top[2]) + 1
  end
  redis.call('ZADD', KEYS[1], at, ARGV[1])
end
local ttl = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('(%d', now - ttl))
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[3]) - 1)
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
`

// setReviewScript sets a person's review of a game that is still kept; a
// game that is gone is not made anew.
//
// KEYS[1] game
// ARGV[1] review field, ARGV[2] review bytes
// Returns 1 when set, 0 when the game is not kept.
const setReviewScript = `
if redis.call('HEXISTS', KEYS[1], 'g') == 0 then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`

// KeepGame keeps a finished game's bytes under ref for GameRetention, and
// indexes ref under each person of people (user ids > 0) so KeptGames
// lists it and forgetting a person finds it. Keeping a ref that is kept already
// changes nothing (a retried job: first write wins, its reviews stay).
//
// The indexes are written first: a keep that fails halfway leaves at worst
// index entries of a game that is not there (KeptGames skips them), never
// a game that forgetting a person cannot find; the retry completes it.
func (r *Redis) KeepGame(ctx context.Context, ref string, people []int64, data []byte) error {
	if err := keepArgs(ref, people); err != nil {
		return err
	}
	ttl := GameRetention.Milliseconds()
	var calls []scriptCall
	for _, u := range people {
		calls = append(calls, scriptCall{r.keptIndex, []string{r.keptKey(u)}, []any{ref, ttl, KeptPerPerson}})
	}
	if err := r.runScripts(ctx, calls); err != nil {
		return fmt.Errorf("store: keep game %s: index: %w", ref, err)
	}
	if err := r.keepGame.Run(ctx, r.c, []string{r.gameKey(ref)}, data, ttl).Err(); err != nil {
		return fmt.Errorf("store: keep game %s: %w", ref, err)
	}
	return nil
}

// keepArgs checks KeepGame's arguments.
func keepArgs(ref string, people []int64) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	for _, u := range people {
		if err := checkPerson("keep game "+ref, u); err != nil {
			return err
		}
	}
	return nil
}

// KeptGame is the game kept under ref; ErrNotFound once expired or
// forgotten.
func (r *Redis) KeptGame(ctx context.Context, ref string) ([]byte, error) {
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	return r.gameField(ctx, ref, "g")
}

// gameField reads one field of a kept game's hash.
func (r *Redis) gameField(ctx context.Context, ref, field string) ([]byte, error) {
	v, err := r.c.HGet(ctx, r.gameKey(ref), field).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: kept game %s: %w", ref, err)
	}
	return v, nil
}

// KeptGames lists the refs kept for user, newest first, at most n (only
// games still kept). Entries whose game is gone are pruned on the way.
func (r *Redis) KeptGames(ctx context.Context, user int64, n int) ([]string, error) {
	if err := checkPerson("kept games", user); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	refs, err := r.c.ZRevRange(ctx, r.keptKey(user), 0, -1).Result()
	if err != nil {
		return nil, fmt.Errorf("store: kept games of %d: %w", user, err)
	}
	if len(refs) == 0 {
		return nil, nil
	}
	pipe := r.c.Pipeline()
	exists := make([]*redis.IntCmd, len(refs))
	for i, ref := range refs {
		exists[i] = pipe.Exists(ctx, r.gameKey(ref))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fmt.Errorf("store: kept games of %d: %w", user, err)
	}
	var out []string
	var gone []any
	for i, ref := range refs {
		if exists[i].Val() == 0 {
			gone = append(gone, ref)
		} else if len(out) < n {
			out = append(out, ref)
		}
	}
	if len(gone) > 0 {
		// Best effort: the next listing prunes what this one could not.
		_ = r.c.ZRem(ctx, r.keptKey(user), gone...).Err()
	}
	return out, nil
}

// SetReview keeps user's review of the kept game ref (replacing theirs);
// ErrNotFound when the game is not kept (it expired or was forgotten): a
// review never outlives its game.
func (r *Redis) SetReview(ctx context.Context, ref string, user int64, data []byte) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	if err := checkPerson("review of "+ref, user); err != nil {
		return err
	}
	n, err := r.setReview.Run(ctx, r.c, []string{r.gameKey(ref)}, reviewField(user), data).Int()
	if err != nil {
		return fmt.Errorf("store: set review %s %d: %w", ref, user, err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// Review is user's review of ref; ErrNotFound when there is none.
func (r *Redis) Review(ctx context.Context, ref string, user int64) ([]byte, error) {
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	if err := checkPerson("review of "+ref, user); err != nil {
		return nil, err
	}
	return r.gameField(ctx, ref, reviewField(user))
}

// forgetKeptGames takes the person out of every game in their index: their
// review of it and their request for one waiting in Reviews go; then the
// index. The games stay for the others who played them (see forget.go).
// A call that fails halfway leaves the index, so the next call finds the
// rest.
func (r *Redis) forgetKeptGames(ctx context.Context, user int64) error {
	refs, err := r.c.ZRange(ctx, r.keptKey(user), 0, -1).Result()
	if err != nil {
		return err
	}
	if len(refs) > 0 {
		pipe := r.c.Pipeline()
		for _, ref := range refs {
			pipe.HDel(ctx, r.gameKey(ref), reviewField(user))
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return err
		}
	}
	for _, ref := range refs {
		if err := r.unqueue(ctx, Reviews, ReviewRequest(ref, user)); err != nil {
			return err
		}
	}
	return r.c.Del(ctx, r.keptKey(user)).Err()
}

// rewriteKeptScript replaces a kept game's copy, if the game is still
// kept (a game that expired is not made anew, and its key keeps its time
// to live), and deletes the reviews named.
//
// KEYS[1] game
// ARGV[1] game bytes, then review fields
// Returns 1 when rewritten, 0 when the game is not kept.
const rewriteKeptScript = `
if redis.call('HEXISTS', KEYS[1], 'g') == 0 then
  return 0
end
for i = 2, #ARGV do
  redis.call('HDEL', KEYS[1], ARGV[i])
end
redis.call('HSET', KEYS[1], 'g', ARGV[1])
return 1
`

// RewriteKeptGame replaces the copy of the kept game ref with data and
// deletes the reviews of the people in drop; the other reviews and the
// game's expiry stay. ErrNotFound when the game is not kept. It is how a
// person forgotten leaves the others' games: the copy renames their seat
// (the store cannot read a game, the runtime can), and their review goes
// with any other that names them.
func (r *Redis) RewriteKeptGame(ctx context.Context, ref string, data []byte, drop []int64) error {
	if err := rewriteArgs(ref, drop); err != nil {
		return err
	}
	args := []any{data}
	for _, u := range drop {
		args = append(args, reviewField(u))
	}
	// Forgetting is rare: the script is loaded when first run, not kept.
	n, err := redis.NewScript(rewriteKeptScript).Run(ctx, r.c, []string{r.gameKey(ref)}, args...).Int()
	if err != nil {
		return fmt.Errorf("store: rewrite kept game %s: %w", ref, err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// rewriteArgs checks RewriteKeptGame's arguments.
func rewriteArgs(ref string, drop []int64) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	for _, u := range drop {
		if err := checkPerson("rewrite kept game "+ref, u); err != nil {
			return err
		}
	}
	return nil
}

// DropKeptGame deletes a kept game with all its reviews (one a person
// forgotten played alone, or whose copy cannot be read to rename them);
// the people's indexes skip it from then on. Dropping a game that is not
// kept changes nothing.
func (r *Redis) DropKeptGame(ctx context.Context, ref string) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	if err := r.c.Del(ctx, r.gameKey(ref)).Err(); err != nil {
		return fmt.Errorf("store: drop kept game %s: %w", ref, err)
	}
	return nil
}
