package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is the production store shared by many bot replicas.
//
// Key layout (P is the prefix given to NewRedis, T a table id). The bot
// runs with P = BotPrefix("tc:", its id), so that bots sharing a Redis
// share no key, global ones included (see MigrateFrom for the layout
// before that):
//
//	P t:{T}:rec     hash   d = state bytes, v = version
//	P t:{T}:upd     zset   applied update ids scored by apply time (ms), trimmed after UpdateRetention
//	P t:{T}:dirty   hash   view → version it was marked dirty at
//	P t:{T}:out     zset   outbox: member "<id>:<data>", score id
//	P t:{T}:outseq  string last outbox id
//	P t:{T}:msg     hash   view → message record (opaque to the store: the bot keeps
//	                       the Telegram message id and a digest of what it shows)
//	P wake          zset   table → wake-up time (ms); one global key
//	P ptr:{K}       string pointer value
//	P rate:{K}      zset   sliding-window log of allowed events (µs)
//	P rate:{K}:meta hash   seq = member counter, until = blocked until (µs)
//	P in:{C}        zset   a chat's updates waiting to be applied (inbox_redis.go)
//	P inbox         zset   chat → when its inbox is due (ms)
//
// All keys of one table carry the hash tag {T}, so in Redis Cluster they live
// in one slot and Commit can touch them in one script. The wake set lives in
// another slot, which is why Commit applies WakeAt with a ZADD of its own
// before the script and again after it (one pipeline on a single server,
// three round trips in a cluster): a wake-up for a commit that then fails
// costs the worker one empty look.
type Redis struct {
	c      redis.UniversalClient
	prefix string
	owned  bool // c was opened by DialRedis, so Close closes it

	commit  *redis.Script
	clean   *redis.Script
	claim   *redis.Script
	release *redis.Script
	unptr   *redis.Script
	allow   *redis.Script
	turn    *redis.Script
	block   *redis.Script
	ingest  *redis.Script
}

// NewRedis returns a store over c whose keys all start with prefix, so that
// several bots (or tests) can share one Redis.
func NewRedis(c redis.UniversalClient, prefix string) *Redis {
	return &Redis{
		c:       c,
		prefix:  prefix,
		commit:  redis.NewScript(commitScript),
		clean:   redis.NewScript(cleanScript),
		claim:   redis.NewScript(claimScript),
		release: redis.NewScript(releaseScript),
		unptr:   redis.NewScript(deletePointerScript),
		allow:   redis.NewScript(allowScript),
		turn:    redis.NewScript(turnScript),
		block:   redis.NewScript(blockScript),
		ingest:  redis.NewScript(ingestScript),
	}
}

func (r *Redis) tableKey(table, suffix string) string {
	return r.prefix + "t:{" + table + "}:" + suffix
}
func (r *Redis) recKey(table string) string    { return r.tableKey(table, "rec") }
func (r *Redis) updKey(table string) string    { return r.tableKey(table, "upd") }
func (r *Redis) dirtyKey(table string) string  { return r.tableKey(table, "dirty") }
func (r *Redis) outKey(table string) string    { return r.tableKey(table, "out") }
func (r *Redis) outseqKey(table string) string { return r.tableKey(table, "outseq") }
func (r *Redis) msgKey(table string) string    { return r.tableKey(table, "msg") }

// tableKeys lists every key of a table; all share one slot.
func (r *Redis) tableKeys(table string) []string {
	return []string{r.recKey(table), r.updKey(table), r.dirtyKey(table),
		r.outKey(table), r.outseqKey(table), r.msgKey(table)}
}

func (r *Redis) wakeKey() string              { return r.prefix + "wake" }
func (r *Redis) pointerKey(key string) string { return r.prefix + "ptr:{" + key + "}" }
func (r *Redis) rateKey(key string) string    { return r.prefix + "rate:{" + key + "}" }
func (r *Redis) rateMetaKey(key string) string {
	return r.prefix + "rate:{" + key + "}:meta"
}

// rateTurnKeys are the callers waiting for a key's turns: their deadlines
// and when they are forgotten unless they come back.
func (r *Redis) rateTurnKeys(key string) (deadlines, expiry string) {
	return r.prefix + "rate:{" + key + "}:turns", r.prefix + "rate:{" + key + "}:expiry"
}

// Load returns the table's state, or ErrNotFound.
func (r *Redis) Load(ctx context.Context, table string) (Record, error) {
	return r.record(table, r.c.HMGet(ctx, r.recKey(table), "d", "v"))
}

// record reads a table's state from the reply of HMGET rec d v.
func (r *Redis) record(table string, cmd *redis.SliceCmd) (Record, error) {
	vals, err := cmd.Result()
	if err != nil {
		return Record{}, fmt.Errorf("store: load %s: %w", table, err)
	}
	d, _ := vals[0].(string)
	v, ok := vals[1].(string)
	if !ok {
		return Record{}, ErrNotFound
	}
	ver, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return Record{}, fmt.Errorf("store: load %s: bad version %q", table, v)
	}
	return Record{Data: []byte(d), Version: ver}, nil
}

// LoadFor is Load and Applied in one round trip: the table's state,
// whether updateID was already applied to it (false for 0), and, when view
// is not empty, that view's message record as Messages has it ("" for
// none) — what a press needs to know of the message it came from. A table
// that does not exist gives ErrNotFound and applied false.
func (r *Redis) LoadFor(ctx context.Context, table string, updateID int64, view string) (Record, bool, string, error) {
	if updateID <= 0 && view == "" {
		rec, err := r.Load(ctx, table)
		return rec, false, "", err
	}
	pipe := r.c.Pipeline()
	var seen *redis.FloatCmd
	if updateID > 0 {
		seen = pipe.ZScore(ctx, r.updKey(table), strconv.FormatInt(updateID, 10))
	}
	load := pipe.HMGet(ctx, r.recKey(table), "d", "v")
	var msg *redis.StringCmd
	if view != "" {
		msg = pipe.HGet(ctx, r.msgKey(table), view)
	}
	_, _ = pipe.Exec(ctx) // each command's error is read below
	applied := false
	if seen != nil {
		switch err := seen.Err(); {
		case err == nil:
			applied = true
		case !errors.Is(err, redis.Nil):
			return Record{}, false, "", fmt.Errorf("store: applied %s: %w", table, err)
		}
	}
	message := ""
	if msg != nil {
		switch err := msg.Err(); {
		case err == nil:
			message = msg.Val()
		case !errors.Is(err, redis.Nil):
			return Record{}, false, "", fmt.Errorf("store: message %s %s: %w", table, view, err)
		}
	}
	rec, err := r.record(table, load)
	if err != nil {
		return Record{}, false, "", err
	}
	return rec, applied, message, nil
}

// commitScript applies one Change with compare-and-set on the version.
//
// KEYS[1] rec, KEYS[2] upd, KEYS[3] dirty, KEYS[4] out, KEYS[5] outseq, KEYS[6] msg
// ARGV[1] expected version (0 = create; -1 = only queue: no state, no CAS)
// ARGV[2] state bytes
// ARGV[3] update id (0 = none)
// ARGV[4] update retention in ms
// ARGV[5] number of dirty views n
// ARGV[6] number of forgotten views f
// ARGV[7] the channel that announces the commit (see WatchChanges), with
// the table id in ARGV[8]
// ARGV[9 .. 8+n] dirty view names; ARGV[9+n .. 8+n+f] views whose message
// records are deleted; ARGV[9+n+f ..] outbox entries, in order
// Returns the new version, -1 on a version conflict, -2 on a duplicate update
// id (nothing written in either case).
const commitScript = `
local upd = tonumber(ARGV[3])
if upd > 0 and redis.call('ZSCORE', KEYS[2], ARGV[3]) then
  return -2
end
local cur = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
local ver = cur
if tonumber(ARGV[1]) >= 0 then
  if cur ~= tonumber(ARGV[1]) then
    return -1
  end
  ver = cur + 1
  redis.call('HSET', KEYS[1], 'd', ARGV[2], 'v', ver)
end
if upd > 0 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('ZADD', KEYS[2], now, ARGV[3])
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', string.format('(%d', now - tonumber(ARGV[4])))
end
local n = tonumber(ARGV[5])
local f = tonumber(ARGV[6])
for i = 9, 8 + n do
  redis.call('HSET', KEYS[3], ARGV[i], ver)
end
for i = 9 + n, 8 + n + f do
  redis.call('HDEL', KEYS[6], ARGV[i])
end
for i = 9 + n + f, #ARGV do
  local id = redis.call('INCR', KEYS[5])
  redis.call('ZADD', KEYS[4], id, string.format('%d:', id) .. ARGV[i])
end
if ver ~= cur then
  redis.call('PUBLISH', ARGV[7], string.format('%d:', ver) .. ARGV[8])
end
return ver
`

// Commit writes c atomically and returns the new version. It fails with
// ErrConflict when the table's version is not c.Version and with ErrDuplicate
// when c.UpdateID was already applied; nothing is written then.
func (r *Redis) Commit(ctx context.Context, table string, c Change) (int64, error) {
	if err := checkTable(table); err != nil {
		return 0, err
	}
	if c.OnlyQueue {
		c.Version, c.Data, c.Dirty, c.Forget = -1, nil, nil, nil
	}
	args := make([]any, 0, 8+len(c.Dirty)+len(c.Forget)+len(c.Outbox))
	args = append(args, c.Version, c.Data, c.UpdateID, UpdateRetention.Milliseconds(), len(c.Dirty), len(c.Forget),
		r.changesChannel(), table)
	for _, v := range c.Dirty {
		args = append(args, v)
	}
	for _, v := range c.Forget {
		args = append(args, v)
	}
	for _, o := range c.Outbox {
		args = append(args, o)
	}
	keys := []string{r.recKey(table), r.updKey(table), r.dirtyKey(table), r.outKey(table), r.outseqKey(table), r.msgKey(table)}
	var ver int64
	var err error
	if single, ok := r.c.(*redis.Client); ok && !c.WakeAt.IsZero() {
		ver, err = r.commitPipelined(ctx, single, table, c.WakeAt, keys, args)
	} else {
		ver, err = r.commitInSteps(ctx, table, c.WakeAt, keys, args)
	}
	if err != nil {
		return 0, err
	}
	switch ver {
	case -1:
		return 0, ErrConflict
	case -2:
		return 0, ErrDuplicate
	}
	return ver, nil
}

// commitInSteps wakes the table, runs the commit script and wakes it again,
// each a round trip of its own: in Redis Cluster the wake set is on another
// node, and only a wait for each reply keeps the three in order there.
//
// The first wake-up comes before the change, so a change is never written
// without one (a process that dies in between leaves at worst an empty
// look). The second comes after it: a worker may have claimed the first
// wake-up in between, served the old version and released the table until
// its old deadline. It is best effort: the change is committed either way,
// and the first wake-up stands unless a worker took it in that short gap.
func (r *Redis) commitInSteps(ctx context.Context, table string, wakeAt time.Time, keys []string, args []any) (int64, error) {
	if !wakeAt.IsZero() {
		if err := r.Wake(ctx, table, wakeAt); err != nil {
			return 0, err
		}
	}
	ver, err := r.commit.Run(ctx, r.c, keys, args...).Int64()
	if err != nil {
		return 0, fmt.Errorf("store: commit %s: %w", table, err)
	}
	if !wakeAt.IsZero() && ver > 0 {
		_ = r.Wake(ctx, table, wakeAt)
	}
	return ver, nil
}

// commitPipelined sends commitInSteps's three commands in one round trip.
// One server runs a connection's commands in the order they were sent, so
// the order that matters (wake, change, wake) holds without waiting for
// each reply. A wake-up whose commit then fails costs the worker one empty
// look, as in commitInSteps. A server that lost the script (restarted,
// SCRIPT FLUSH) refuses it with NOSCRIPT before anything is written; the
// steps then load it.
func (r *Redis) commitPipelined(ctx context.Context, c *redis.Client, table string, wakeAt time.Time, keys []string, args []any) (int64, error) {
	wake := redis.ZAddArgs{LT: true, Members: []redis.Z{{Score: float64(toMillis(wakeAt)), Member: table}}}
	pipe := c.Pipeline()
	first := pipe.ZAddArgs(ctx, r.wakeKey(), wake)
	commit := pipe.EvalSha(ctx, r.commit.Hash(), keys, args...)
	pipe.ZAddArgs(ctx, r.wakeKey(), wake)
	_, _ = pipe.Exec(ctx) // each command's error is read below
	if err := first.Err(); err != nil {
		return 0, fmt.Errorf("store: wake %s: %w", table, err)
	}
	ver, err := commit.Int64()
	if err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
		return r.commitInSteps(ctx, table, wakeAt, keys, args)
	}
	if err != nil {
		return 0, fmt.Errorf("store: commit %s: %w", table, err)
	}
	return ver, nil
}

// Applied reports whether update id was recorded with a change of the table
// (within UpdateRetention), so a redelivered update can be recognised before
// it is evaluated against a newer state.
func (r *Redis) Applied(ctx context.Context, table string, updateID int64) (bool, error) {
	err := r.c.ZScore(ctx, r.updKey(table), strconv.FormatInt(updateID, 10)).Err()
	switch {
	case errors.Is(err, redis.Nil):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("store: applied %s: %w", table, err)
	}
	return true, nil
}

// Delete removes every key of the table, including its wake-up.
func (r *Redis) Delete(ctx context.Context, table string) error {
	if err := r.c.Del(ctx, r.tableKeys(table)...).Err(); err != nil {
		return fmt.Errorf("store: delete %s: %w", table, err)
	}
	if err := r.c.ZRem(ctx, r.wakeKey(), table).Err(); err != nil {
		return fmt.Errorf("store: delete %s: %w", table, err)
	}
	return nil
}

// Views returns the table's message records and dirty marks (as Messages
// and Dirty) in one round trip: the delivery worker needs both each time it
// serves a table.
func (r *Redis) Views(ctx context.Context, table string) (map[string]string, map[string]int64, error) {
	pipe := r.c.Pipeline()
	msgs := pipe.HGetAll(ctx, r.msgKey(table))
	dirty := pipe.HGetAll(ctx, r.dirtyKey(table))
	_, _ = pipe.Exec(ctx) // each command's error is read below
	records, err := msgs.Result()
	if err != nil {
		return nil, nil, fmt.Errorf("store: messages %s: %w", table, err)
	}
	marks, err := dirtyMarks(table, dirty)
	return records, marks, err
}

// Dirty returns the table's dirty views with the version each was marked at.
func (r *Redis) Dirty(ctx context.Context, table string) (map[string]int64, error) {
	return dirtyMarks(table, r.c.HGetAll(ctx, r.dirtyKey(table)))
}

// dirtyMarks reads the reply of HGETALL dirty.
func dirtyMarks(table string, cmd *redis.MapStringStringCmd) (map[string]int64, error) {
	m, err := cmd.Result()
	if err != nil {
		return nil, fmt.Errorf("store: dirty %s: %w", table, err)
	}
	out := make(map[string]int64, len(m))
	for view, v := range m {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("store: dirty %s %s: bad version %q", table, view, v)
		}
		out[view] = n
	}
	return out, nil
}

// cleanScript removes a dirty mark unless it is newer than the rendered
// version.
//
// KEYS[1] dirty
// ARGV[1] view, ARGV[2] rendered version
// Returns 1 if the mark was removed, 0 otherwise.
const cleanScript = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v and tonumber(v) <= tonumber(ARGV[2]) then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
`

// Clean removes the view's dirty mark if it was set at or before version, so
// a change committed while the view was rendering keeps it dirty.
func (r *Redis) Clean(ctx context.Context, table, view string, version int64) error {
	if err := r.clean.Run(ctx, r.c, []string{r.dirtyKey(table)}, view, version).Err(); err != nil {
		return fmt.Errorf("store: clean %s %s: %w", table, view, err)
	}
	return nil
}

// Outbox returns up to n queued announcements, oldest first.
func (r *Redis) Outbox(ctx context.Context, table string, n int) ([]Envelope, error) {
	if n <= 0 {
		return nil, nil
	}
	members, err := r.c.ZRange(ctx, r.outKey(table), 0, int64(n-1)).Result()
	if err != nil {
		return nil, fmt.Errorf("store: outbox %s: %w", table, err)
	}
	out := make([]Envelope, 0, len(members))
	for _, m := range members {
		idText, data, ok := bytes.Cut([]byte(m), []byte{':'})
		id, err := strconv.ParseInt(string(idText), 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("store: outbox %s: bad entry", table)
		}
		out = append(out, Envelope{ID: id, Data: data})
	}
	return out, nil
}

// Ack drops the announcements with ID ≤ id.
func (r *Redis) Ack(ctx context.Context, table string, id int64) error {
	if err := r.c.ZRemRangeByScore(ctx, r.outKey(table), "-inf", strconv.FormatInt(id, 10)).Err(); err != nil {
		return fmt.Errorf("store: ack %s: %w", table, err)
	}
	return nil
}

// Wake makes the table due no later than at.
func (r *Redis) Wake(ctx context.Context, table string, at time.Time) error {
	err := r.c.ZAddArgs(ctx, r.wakeKey(), redis.ZAddArgs{
		LT:      true, // only ever earlier; still adds an absent table
		Members: []redis.Z{{Score: float64(toMillis(at)), Member: table}},
	}).Err()
	if err != nil {
		return fmt.Errorf("store: wake %s: %w", table, err)
	}
	return nil
}

// claimScript takes due tables by pushing their wake-up to the lease end.
//
// KEYS[1] wake
// ARGV[1] now (ms), ARGV[2] lease end (ms), ARGV[3] limit
// Returns the claimed table ids, earliest wake-up first.
const claimScript = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, t in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], t)
end
return due
`

// ClaimDue claims up to limit tables whose wake-up is ≤ now. Each claimed
// table's wake-up moves to now+lease, so no other replica takes it before
// then, and it is taken again after that if the claimant died.
func (r *Redis) ClaimDue(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Claim, error) {
	return r.claimFrom(ctx, r.wakeKey(), now, lease, limit)
}

// claimFrom claims up to limit names of a due set (the tables' wake set,
// the chats' inbox set) due at now, moving them to now+lease.
func (r *Redis) claimFrom(ctx context.Context, set string, now time.Time, lease time.Duration, limit int) ([]Claim, error) {
	if lease <= 0 || limit <= 0 {
		return nil, fmt.Errorf("store: claim: lease and limit must be positive")
	}
	until := toMillis(now.Add(lease))
	names, err := r.claim.Run(ctx, r.c, []string{set}, toMillis(now), until, limit).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("store: claim: %w", err)
	}
	claims := make([]Claim, len(names))
	for i, n := range names {
		claims[i] = Claim{Table: n, Lease: fromMillis(until)}
	}
	return claims, nil
}

// releaseScript ends a claim unless the table was woken earlier meanwhile.
//
// KEYS[1] wake
// ARGV[1] table, ARGV[2] lease end (ms), ARGV[3] next wake-up (ms) or "" to remove
// Returns 1 if the wake-up was changed, 0 if it was left alone.
const releaseScript = `
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s or tonumber(s) ~= tonumber(ARGV[2]) then
  return 0
end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
`

// Release ends claim c: the table's wake-up becomes next (or is removed when
// next is zero), unless a Wake or Commit moved it since the claim — then that
// earlier wake-up wins.
func (r *Redis) Release(ctx context.Context, c Claim, next time.Time) error {
	nextArg := ""
	if !next.IsZero() {
		nextArg = strconv.FormatInt(toMillis(next), 10)
	}
	err := r.release.Run(ctx, r.c, []string{r.wakeKey()}, c.Table, toMillis(c.Lease), nextArg).Err()
	if err != nil {
		return fmt.Errorf("store: release %s: %w", c.Table, err)
	}
	return nil
}

// NextWake returns the earliest wake-up of all tables, so a worker can sleep
// until then; ok is false when no table waits.
func (r *Redis) NextWake(ctx context.Context) (time.Time, bool, error) {
	zs, err := r.c.ZRangeWithScores(ctx, r.wakeKey(), 0, 0).Result()
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next wake: %w", err)
	}
	if len(zs) == 0 {
		return time.Time{}, false, nil
	}
	return fromMillis(int64(zs[0].Score)), true, nil
}

// UsedMemory is the server's used_memory in bytes (INFO memory), for
// measuring what a table costs.
func (r *Redis) UsedMemory(ctx context.Context) (int64, error) {
	info, err := r.c.Info(ctx, "memory").Result()
	if err != nil {
		return 0, fmt.Errorf("store: info memory: %w", err)
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, fmt.Errorf("store: info memory: no used_memory")
}

// Scheduled counts the tables in the wake set (pending work or a timer).
func (r *Redis) Scheduled(ctx context.Context) (int64, error) {
	n, err := r.c.ZCard(ctx, r.wakeKey()).Result()
	if err != nil {
		return 0, fmt.Errorf("store: scheduled: %w", err)
	}
	return n, nil
}

// SetMessage records what the message of a rendered view is (the bot's
// opaque record: message id, digest). It lives apart from the record so
// that it does not bump the version.
func (r *Redis) SetMessage(ctx context.Context, table, view, record string) error {
	if err := r.c.HSet(ctx, r.msgKey(table), view, record).Err(); err != nil {
		return fmt.Errorf("store: set message %s %s: %w", table, view, err)
	}
	return nil
}

// Messages returns view → message record for the table.
func (r *Redis) Messages(ctx context.Context, table string) (map[string]string, error) {
	m, err := r.c.HGetAll(ctx, r.msgKey(table)).Result()
	if err != nil {
		return nil, fmt.Errorf("store: messages %s: %w", table, err)
	}
	return m, nil
}

// DeleteMessages forgets the message records of views (absent ones are fine).
func (r *Redis) DeleteMessages(ctx context.Context, table string, views ...string) error {
	if len(views) == 0 {
		return nil
	}
	if err := r.c.HDel(ctx, r.msgKey(table), views...).Err(); err != nil {
		return fmt.Errorf("store: delete messages %s: %w", table, err)
	}
	return nil
}

// SetPointer sets a small index entry, e.g. "user:42" → table id.
func (r *Redis) SetPointer(ctx context.Context, key, value string) error {
	if err := r.c.Set(ctx, r.pointerKey(key), value, 0).Err(); err != nil {
		return fmt.Errorf("store: set pointer %s: %w", key, err)
	}
	return nil
}

// Pointer returns the value of an index entry, or ErrNotFound.
func (r *Redis) Pointer(ctx context.Context, key string) (string, error) {
	v, err := r.c.Get(ctx, r.pointerKey(key)).Result()
	if errors.Is(err, redis.Nil) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("store: pointer %s: %w", key, err)
	}
	return v, nil
}

// deletePointerScript deletes a key only if it still holds the value.
//
// KEYS[1] pointer
// ARGV[1] expected value
// Returns 1 if deleted, 0 otherwise.
const deletePointerScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`

// DeletePointer removes an index entry only if it still holds value, so a
// stale cleanup cannot remove a pointer someone has since moved.
func (r *Redis) DeletePointer(ctx context.Context, key, value string) error {
	if err := r.unptr.Run(ctx, r.c, []string{r.pointerKey(key)}, value).Err(); err != nil {
		return fmt.Errorf("store: delete pointer %s: %w", key, err)
	}
	return nil
}

// recordLua records one event in a sliding-window log (KEYS[1] log, KEYS[2]
// meta) and returns the "allowed" reply; both rate scripts end with it.
const recordLua = `
local function record(now, window)
  local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
  redis.call('ZADD', KEYS[1], now, seq)
  local ttl = math.ceil(window / 1000) + 1
  redis.call('PEXPIRE', KEYS[1], ttl)
  if redis.call('PTTL', KEYS[2]) < ttl then
    redis.call('PEXPIRE', KEYS[2], ttl)
  end
  return {1, 0}
end
`

// allowScript is a sliding-window log: at most limit events in any window.
//
// KEYS[1] log (zset of event times), KEYS[2] meta (hash: seq, until)
// ARGV[1] now (µs), ARGV[2] window (µs), ARGV[3] limit, ARGV[4] 1 to only
// look (record nothing)
// Returns {1, 0} when allowed (one event recorded), {0, retry after µs} otherwise.
const allowScript = recordLua + `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local blocked = tonumber(redis.call('HGET', KEYS[2], 'until') or '0')
if now < blocked then
  return {0, blocked - now}
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n >= limit then
  local e = redis.call('ZRANGE', KEYS[1], n - limit, n - limit, 'WITHSCORES')
  local retry = tonumber(e[2]) + window - now
  if retry < 1 then retry = 1 end
  return {0, retry}
end
if ARGV[4] == '1' then
  return {1, 0}
end
return record(now, window)
`

// Allow reports whether one more event under key fits in limit per window
// and, if so, records it. Shared by all replicas. When refused, retryAfter
// says when the next event could fit.
func (r *Redis) Allow(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, time.Duration, error) {
	return r.runAllow(ctx, key, limit, per, now, false)
}

// Fits reports whether Allow would allow an event now, recording nothing.
func (r *Redis) Fits(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, time.Duration, error) {
	return r.runAllow(ctx, key, limit, per, now, true)
}

func (r *Redis) runAllow(ctx context.Context, key string, limit int, per time.Duration, now time.Time, peek bool) (bool, time.Duration, error) {
	if limit <= 0 || per <= 0 {
		return false, 0, fmt.Errorf("store: allow %s: limit and window must be positive", key)
	}
	look := 0
	if peek {
		look = 1
	}
	res, err := r.allow.Run(ctx, r.c, []string{r.rateKey(key), r.rateMetaKey(key)},
		now.UnixMicro(), per.Microseconds(), limit, look).Int64Slice()
	return allowReply(key, res, err)
}

func allowReply(key string, res []int64, err error) (bool, time.Duration, error) {
	if err != nil {
		return false, 0, fmt.Errorf("store: allow %s: %w", key, err)
	}
	if len(res) != 2 {
		return false, 0, fmt.Errorf("store: allow %s: unexpected reply %v", key, res)
	}
	return res[0] == 1, time.Duration(res[1]) * time.Microsecond, nil
}

// turnScript is allowScript with callers taking turns by deadline: a
// caller is allowed only when the window has room for it and for every
// waiting caller with an earlier deadline. A refused caller waits with the
// earliest deadline it came with, as long as it comes back by its retry
// time plus the grace; one that does not is forgotten.
//
// KEYS[1] log, KEYS[2] meta (as allowScript), KEYS[3] deadlines (zset of
// caller → deadline µs), KEYS[4] expiry (zset of caller → forget at µs)
// ARGV[1] now (µs), ARGV[2] window (µs), ARGV[3] limit, ARGV[4] caller,
// ARGV[5] deadline (µs), ARGV[6] grace (µs)
// Returns {1, 0} when allowed, {0, retry after µs} otherwise.
const turnScript = recordLua + `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local caller = ARGV[4]
local grace = tonumber(ARGV[6])
local gone = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now, 'LIMIT', 0, 500)
if #gone > 0 then
  redis.call('ZREM', KEYS[3], unpack(gone))
  redis.call('ZREM', KEYS[4], unpack(gone))
end
local ahead
if caller == '' then
  ahead = redis.call('ZCARD', KEYS[3])
else
  redis.call('ZADD', KEYS[3], 'LT', ARGV[5], caller)
  ahead = redis.call('ZRANK', KEYS[3], caller)
end
local retry
local blocked = tonumber(redis.call('HGET', KEYS[2], 'until') or '0')
if now < blocked then
  retry = blocked - now
else
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
  local n = redis.call('ZCARD', KEYS[1])
  if ahead < limit - n then
    if caller ~= '' then
      redis.call('ZREM', KEYS[3], caller)
      redis.call('ZREM', KEYS[4], caller)
    end
    return record(now, window)
  end
  -- The callers ahead take the room there is, a window's worth at a
  -- time; this one goes when the event whose place it takes has left.
  local k = ahead - (limit - n)
  local rounds = math.floor(k / limit)
  local i = k % limit
  if i < n then
    local e = redis.call('ZRANGE', KEYS[1], i, i, 'WITHSCORES')
    retry = tonumber(e[2]) + window - now + rounds * window
  else
    retry = (rounds + 1) * window
  end
  if retry < 1 then retry = 1 end
end
if caller ~= '' then
  redis.call('ZADD', KEYS[4], now + retry + grace, caller)
  local ttl = math.ceil((retry + grace + window) / 1000) + 1
  for _, k in ipairs({KEYS[3], KEYS[4]}) do
    if redis.call('PTTL', k) < ttl then
      redis.call('PEXPIRE', k, ttl)
    end
  end
end
return {0, retry}
`

// TurnGrace is how long past its retry time a refused caller of AllowInTurn
// keeps its place. A place held by a caller that went away holds back
// everyone behind it, so it is short.
const TurnGrace = 500 * time.Millisecond

// AllowInTurn is Allow with the callers taking turns, earliest deadline
// first: the event of caller (an id the caller keeps while it retries) is
// allowed when the window has room for it and for every caller with an
// earlier deadline still waiting. A waiting caller keeps the earliest
// deadline it came with (a call may grow more urgent, never less); one
// that does not come back by its retry time plus TurnGrace loses its
// place. An empty caller waits behind everyone and keeps no place.
func (r *Redis) AllowInTurn(ctx context.Context, key, caller string, deadline time.Time, limit int, per time.Duration, now time.Time) (bool, time.Duration, error) {
	if limit <= 0 || per <= 0 {
		return false, 0, fmt.Errorf("store: allow %s: limit and window must be positive", key)
	}
	deadlines, expiry := r.rateTurnKeys(key)
	res, err := r.turn.Run(ctx, r.c, []string{r.rateKey(key), r.rateMetaKey(key), deadlines, expiry},
		now.UnixMicro(), per.Microseconds(), limit, caller, deadline.UnixMicro(), TurnGrace.Microseconds()).Int64Slice()
	return allowReply(key, res, err)
}

// Withdraw gives up caller's place in key's line (AllowInTurn), for a call
// that is no longer ready to go; nothing if it has none.
func (r *Redis) Withdraw(ctx context.Context, key, caller string) error {
	deadlines, expiry := r.rateTurnKeys(key)
	pipe := r.c.TxPipeline()
	pipe.ZRem(ctx, deadlines, caller)
	pipe.ZRem(ctx, expiry, caller)
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("store: withdraw %s: %w", key, err)
	}
	return nil
}

// blockScript refuses every event under a key until a time.
//
// KEYS[1] meta (hash: seq, until)
// ARGV[1] until (µs), ARGV[2] now (µs), used only for the key's TTL
// Returns 1.
const blockScript = `
local untl = tonumber(ARGV[1])
local old = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if untl > old then
  redis.call('HSET', KEYS[1], 'until', untl)
end
local ttl = math.ceil((untl - tonumber(ARGV[2])) / 1000) + 1
if ttl > 0 and redis.call('PTTL', KEYS[1]) < ttl then
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return 1
`

// Block makes Allow refuse key until the given time, as Telegram's 429
// retry_after demands. An earlier block never shortens a later one.
func (r *Redis) Block(ctx context.Context, key string, until time.Time) error {
	err := r.block.Run(ctx, r.c, []string{r.rateMetaKey(key)},
		until.UnixMicro(), time.Now().UnixMicro()).Err()
	if err != nil {
		return fmt.Errorf("store: block %s: %w", key, err)
	}
	return nil
}

// Ping checks that Redis answers.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.c.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}
