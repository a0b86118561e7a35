package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// A queue in Redis is four keys in one Cluster slot (D is the queue's own
// key, P+"wake", P+"inbox" or P+"timers"; the others carry D whole as their
// hash tag, so they hash with it):
//
//	D              zset  member → due time (ms, the callers' clock); members not held
//	D:held{D}      zset  member → lease end (ms, the server's TIME)
//	D:token{D}     hash  member → token of the claim holding it
//	D:again{D}     zset  member → due time it was scheduled at while held
//	D:ver{D}       hash  member → table version of the last TimerAt set (Timers, Cluster only)
//
// A member is in D or in held, never both. D keeps the name the due sets
// had before leases moved to the server's clock, so a running deployment's
// due work carries over (its scores were due times or old lease ends, both
// fine as due times).

// queueKeys are a queue's keys in the order the scripts take them.
type queueKeys struct{ due, held, token, again, ver string }

func (r *Redis) queueKeys(q Queue) queueKeys {
	d := r.prefix + string(q)
	tag := "{" + d + "}"
	return queueKeys{due: d, held: d + ":held" + tag, token: d + ":token" + tag,
		again: d + ":again" + tag, ver: d + ":ver" + tag}
}

// all lists the keys in script order: due, held, token, again.
func (k queueKeys) all() []string { return []string{k.due, k.held, k.token, k.again} }

// queueLua holds the functions the queue scripts share. Each takes the
// queue's keys by name, so a script may work on two queues (the commit
// script on one server).
const queueLua = `
local function clockms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- qschedule makes m due no later than at; a held member keeps it for its release.
local function qschedule(due, held, again, m, at)
  if redis.call('ZSCORE', held, m) then
    redis.call('ZADD', again, 'LT', at, m)
  else
    redis.call('ZADD', due, 'LT', at, m)
  end
end
-- qset makes m due exactly at at ('' for never); a held member keeps it for its release.
local function qset(due, held, again, m, at)
  local k = due
  if redis.call('ZSCORE', held, m) then
    k = again
  end
  if at == '' then
    redis.call('ZREM', k, m)
  else
    redis.call('ZADD', k, at, m)
  end
end
-- qmark makes m due at at unless it is due already (or scheduled while held).
local function qmark(due, held, again, m, at)
  if redis.call('ZSCORE', held, m) then
    redis.call('ZADD', again, 'NX', at, m)
  else
    redis.call('ZADD', due, 'NX', at, m)
  end
end
`

// claimScript takes due members: first the members whose lease ran out
// come back due (at the claimant's now, or earlier when scheduled so), then
// up to limit members due at now move to held, leased until the server's
// TIME plus the lease.
//
// KEYS[1] due, KEYS[2] held, KEYS[3] token, KEYS[4] again
// ARGV[1] now (ms, the caller's clock), ARGV[2] lease (ms), ARGV[3] limit,
// ARGV[4] token base (each member's token is base.<index in hex>)
// Returns member, token, member, token, … earliest due first.
const claimScript = queueLua + `
local clock = clockms()
local now = tonumber(ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', clock, 'LIMIT', 0, 1000)
for _, m in ipairs(gone) do
  local at = now
  local a = redis.call('ZSCORE', KEYS[4], m)
  if a and tonumber(a) < at then
    at = tonumber(a)
  end
  redis.call('ZREM', KEYS[2], m)
  redis.call('ZREM', KEYS[4], m)
  redis.call('HDEL', KEYS[3], m)
  redis.call('ZADD', KEYS[1], 'LT', at, m)
end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
local untl = clock + tonumber(ARGV[2])
local out = {}
for i, m in ipairs(due) do
  local at = redis.call('ZSCORE', KEYS[1], m)
  redis.call('ZREM', KEYS[1], m)
  if redis.call('ZSCORE', KEYS[2], m) then
    -- Held and due at once (written by a process that predates the held
    -- set): keep the due time for the release, hand out nothing.
    redis.call('ZADD', KEYS[4], 'LT', at, m)
  else
    local tok = ARGV[4] .. '.' .. string.format('%x', i)
    redis.call('ZADD', KEYS[2], untl, m)
    redis.call('HSET', KEYS[3], m, tok)
    out[#out + 1] = m
    out[#out + 1] = tok
  end
end
return out
`

// renewScript extends a claim's lease from the server's TIME.
//
// KEYS[1] held, KEYS[2] token
// ARGV[1] member, ARGV[2] token, ARGV[3] lease (ms)
// Returns 1 when renewed, 0 when the claim is no longer held (another
// claim took the member, it was released, or its lease ran out).
const renewScript = queueLua + `
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then
  return 0
end
local clock = clockms()
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s or tonumber(s) <= clock then
  return 0
end
-- Removed and added again: a script whose first write deletes runs under
-- maxmemory too, so a holder keeps its lease while Redis is full.
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], clock + tonumber(ARGV[3]), ARGV[1])
return 1
`

// releaseScript ends a claim: the member is due again at the earlier of
// next and the time it was scheduled at while held, or leaves the queue
// when there is neither.
//
// KEYS[1] due, KEYS[2] held, KEYS[3] token, KEYS[4] again
// ARGV[1] member, ARGV[2] token, ARGV[3] next (ms), empty for none
// Returns 1 when released, 0 for a claim no longer held (nothing changed).
const releaseScript = `
local m = ARGV[1]
if redis.call('HGET', KEYS[3], m) ~= ARGV[2] then
  return 0
end
redis.call('HDEL', KEYS[3], m)
redis.call('ZREM', KEYS[2], m)
local at = redis.call('ZSCORE', KEYS[4], m)
redis.call('ZREM', KEYS[4], m)
if ARGV[3] ~= '' and (not at or tonumber(ARGV[3]) < tonumber(at)) then
  at = ARGV[3]
end
if at then
  redis.call('ZADD', KEYS[1], 'LT', at, m)
end
return 1
`

// scheduleScript makes a member due no later than a time, or (mark) at a
// time unless it is due already.
//
// KEYS[1] due, KEYS[2] held, KEYS[3] again
// ARGV[1] member, ARGV[2] at (ms), ARGV[3] 'mark' for qmark, else qschedule
// Returns 0.
const scheduleScript = queueLua + `
if ARGV[3] == 'mark' then
  qmark(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2])
else
  qschedule(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2])
end
return 0
`

// timerScript sets a table's member of Timers to a commit's TimerAt, in
// Cluster, where it cannot be part of the commit script: it runs after the
// commit, and a commit's setting applies only when no later version's
// setting came first, so two replicas' commits whose follow-ups cross
// leave the later one's timer.
//
// KEYS[1] due, KEYS[2] held, KEYS[3] again, KEYS[4] ver
// ARGV[1] table, ARGV[2] committed version, ARGV[3] timer (ms), empty for none
// Returns 1 when applied, 0 when a later version's setting stands.
const timerScript = queueLua + `
local m = ARGV[1]
local v = tonumber(redis.call('HGET', KEYS[4], m) or '0')
if v >= tonumber(ARGV[2]) then
  return 0
end
qset(KEYS[1], KEYS[2], KEYS[3], m, ARGV[3])
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[4], m)
else
  redis.call('HSET', KEYS[4], m, ARGV[2])
end
return 1
`

// unqueueScript takes a member out of a queue altogether, held or not (a
// deleted table); whoever holds it finds its claim gone.
//
// KEYS[1] due, KEYS[2] held, KEYS[3] token, KEYS[4] again, KEYS[5] ver
// ARGV[1] member
const unqueueScript = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('HDEL', KEYS[5], ARGV[1])
return 0
`

// Claim takes up to limit members of q due at now (the caller's clock),
// earliest first, each leased for lease on the server's clock: no other
// claim gets a member until its holder releases it or the lease runs out,
// whatever clocks the claimants have. A member whose lease ran out is due
// again at once.
func (r *Redis) Claim(ctx context.Context, q Queue, now time.Time, lease time.Duration, limit int) ([]Claim, error) {
	if err := claimArgs(q, lease, limit); err != nil {
		return nil, err
	}
	k := r.queueKeys(q)
	res, err := r.claim.Run(ctx, r.c, k.all(), toMillis(now), lease.Milliseconds(), limit, newToken()).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("store: claim %s: %w", q, err)
	}
	claims := make([]Claim, 0, len(res)/2)
	for i := 0; i+1 < len(res); i += 2 {
		claims = append(claims, Claim{Queue: q, Name: res[i], Token: res[i+1]})
	}
	return claims, nil
}

// Renew extends c's lease to lease from now on the server's clock. It
// returns false when c is no longer held: released, taken by another claim
// after its lease ran out, or run out already (then stop working on it).
func (r *Redis) Renew(ctx context.Context, c Claim, lease time.Duration) (bool, error) {
	if err := claimArgs(c.Queue, lease, 1); err != nil {
		return false, err
	}
	k := r.queueKeys(c.Queue)
	n, err := r.renew.Run(ctx, r.c, []string{k.held, k.token}, c.Name, c.Token, lease.Milliseconds()).Int()
	if err != nil {
		return false, fmt.Errorf("store: renew %s %s: %w", c.Queue, c.Name, err)
	}
	return n == 1, nil
}

// Release ends claim c: its member is due again at next, or earlier if it
// was scheduled earlier while held; with next zero it is due only if it
// was scheduled meanwhile, else it leaves the queue. A claim no longer held
// (its lease ran out and another claim took the member) changes nothing.
func (r *Redis) Release(ctx context.Context, c Claim, next time.Time) error {
	if err := c.Queue.check(); err != nil {
		return err
	}
	nextArg := ""
	if !next.IsZero() {
		nextArg = strconv.FormatInt(toMillis(next), 10)
	}
	if err := r.release.Run(ctx, r.c, r.queueKeys(c.Queue).all(), c.Name, c.Token, nextArg).Err(); err != nil {
		return fmt.Errorf("store: release %s %s: %w", c.Queue, c.Name, err)
	}
	return nil
}

// Schedule makes name due in q no later than at (the earlier of at and
// the time it is due already). A held member is not handed out before its
// release; the release keeps the earlier of at and its own next.
func (r *Redis) Schedule(ctx context.Context, q Queue, name string, at time.Time) error {
	return r.scheduleRun(ctx, q, name, at, "")
}

// mark makes name due in q at at unless it is due already: new updates in
// an inbox do not pull a chat's retry earlier.
func (r *Redis) mark(ctx context.Context, q Queue, name string, at time.Time) error {
	return r.scheduleRun(ctx, q, name, at, "mark")
}

func (r *Redis) scheduleRun(ctx context.Context, q Queue, name string, at time.Time, mode string) error {
	if err := q.check(); err != nil {
		return err
	}
	k := r.queueKeys(q)
	if err := r.schedule.Run(ctx, r.c, []string{k.due, k.held, k.again}, name, toMillis(at), mode).Err(); err != nil {
		return fmt.Errorf("store: schedule %s %s: %w", q, name, err)
	}
	return nil
}

// NextDue returns when the earliest member of q that is not held is due;
// ok is false when there is none. A member whose lease runs out is not
// counted until a Claim finds it.
func (r *Redis) NextDue(ctx context.Context, q Queue) (time.Time, bool, error) {
	if err := q.check(); err != nil {
		return time.Time{}, false, err
	}
	zs, err := r.c.ZRangeWithScores(ctx, r.queueKeys(q).due, 0, 0).Result()
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next due %s: %w", q, err)
	}
	if len(zs) == 0 {
		return time.Time{}, false, nil
	}
	return fromMillis(int64(zs[0].Score)), true, nil
}

// Pending counts the members of q, due or held (for metrics).
func (r *Redis) Pending(ctx context.Context, q Queue) (int64, error) {
	if err := q.check(); err != nil {
		return 0, err
	}
	k := r.queueKeys(q)
	pipe := r.c.Pipeline()
	due := pipe.ZCard(ctx, k.due)
	held := pipe.ZCard(ctx, k.held)
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, fmt.Errorf("store: pending %s: %w", q, err)
	}
	return due.Val() + held.Val(), nil
}

// Members lists up to n members of q: the due ones, earliest first, then
// the held ones (for metrics: which chats have updates waiting).
func (r *Redis) Members(ctx context.Context, q Queue, n int) ([]string, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	k := r.queueKeys(q)
	pipe := r.c.Pipeline()
	due := pipe.ZRange(ctx, k.due, 0, int64(n)-1)
	held := pipe.ZRange(ctx, k.held, 0, int64(n)-1)
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fmt.Errorf("store: members %s: %w", q, err)
	}
	out := append(due.Val(), held.Val()...)
	return out[:min(len(out), n)], nil
}

// unqueue takes name out of q altogether.
func (r *Redis) unqueue(ctx context.Context, q Queue, name string) error {
	k := r.queueKeys(q)
	if err := r.takeOut.Run(ctx, r.c, []string{k.due, k.held, k.token, k.again, k.ver}, name).Err(); err != nil {
		return fmt.Errorf("store: unqueue %s %s: %w", q, name, err)
	}
	return nil
}

// runScripts runs scripts whose keys may be in different Cluster slots in
// one pipeline (a round trip per node, in parallel); any that the server
// does not know (NOSCRIPT) is then run on its own, which loads it.
func (r *Redis) runScripts(ctx context.Context, calls []scriptCall) error {
	if len(calls) == 0 {
		return nil
	}
	pipe := r.c.Pipeline()
	cmds := make([]*redis.Cmd, len(calls))
	for i, c := range calls {
		cmds[i] = pipe.EvalSha(ctx, c.script.Hash(), c.keys, c.args...)
	}
	_, _ = pipe.Exec(ctx) // each command's error is read below
	for i, cmd := range cmds {
		err := cmd.Err()
		if err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
			err = calls[i].script.Run(ctx, r.c, calls[i].keys, calls[i].args...).Err()
		}
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
	}
	return nil
}

// runWaited runs scripts on one server in one pipeline that ends with WAIT
// (Config.WaitReplicas): one connection, so WAIT covers exactly these writes.
// A script the server does not know is loaded and the whole is sent again.
// It returns ErrNotReplicated when fewer replicas than asked had the
// writes in time; each script's reply is in its command.
func (r *Redis) runWaited(ctx context.Context, c *redis.Client, calls []scriptCall) ([]*redis.Cmd, error) {
	for attempt := 0; ; attempt++ {
		pipe := c.Pipeline()
		cmds := make([]*redis.Cmd, len(calls))
		for i, call := range calls {
			cmds[i] = pipe.EvalSha(ctx, call.script.Hash(), call.keys, call.args...)
		}
		wait := pipe.Do(ctx, "WAIT", r.set.waitReplicas, r.set.waitTimeout.Milliseconds())
		_, _ = pipe.Exec(ctx) // each command's error is read below
		missing := false
		for i, cmd := range cmds {
			if err := cmd.Err(); err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
				missing = true
				if err := calls[i].script.Load(ctx, c).Err(); err != nil {
					return cmds, err
				}
			}
		}
		if missing && attempt == 0 {
			continue
		}
		for _, cmd := range cmds {
			if err := cmd.Err(); err != nil && !errors.Is(err, redis.Nil) {
				return cmds, err
			}
		}
		n, err := wait.Int64()
		if err != nil {
			return cmds, err
		}
		if int(n) < r.set.waitReplicas {
			return cmds, fmt.Errorf("%w (%d of %d)", ErrNotReplicated, n, r.set.waitReplicas)
		}
		return cmds, nil
	}
}

// scriptCall is one script with its keys and arguments.
type scriptCall struct {
	script *redis.Script
	keys   []string
	args   []any
}
