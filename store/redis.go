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
//	P wake …        the Deliveries queue's keys (queue_redis.go)
//	P timers …      the Timers queue's keys
//	P ptr:{K}       string pointer value
//	P rate:{K}      zset   sliding-window log of allowed events (µs)
//	P rate:{K}:meta hash   seq = member counter, until = blocked until (µs)
//	P in:{C}        zset   a chat's updates waiting to be applied (inbox_redis.go)
//	P try:{K}       hash   the attempts at a piece of work (attempts_redis.go)
//	P inbox …       the Inboxes queue's keys
//	P reviews …     the Reviews queue's keys
//	P game:{R}      hash   a kept game and its reviews; P kept:{uU} a person's
//	                       index of them (games_redis.go)
//
// All keys of one table carry the hash tag {T}, so in Redis Cluster they live
// in one slot and Commit can touch them in one script. The queues live in
// other slots. On one server (or a Sentinel-managed master) the commit
// script writes the table's queues too, atomically with the rest; in a
// Cluster, Commit schedules the queues before the script and sets them
// again after it (see commitInSteps).
type Redis struct {
	c      redis.UniversalClient
	prefix string
	owned  bool // c was opened by DialRedis, so Close closes it
	set    settings

	commit     *redis.Script
	clean      *redis.Script
	claim      *redis.Script
	renew      *redis.Script
	release    *redis.Script
	schedule   *redis.Script
	timer      *redis.Script
	takeOut    *redis.Script
	unptr      *redis.Script
	deadLetter *redis.Script
	dropIndex  *redis.Script
	allow      *redis.Script
	turn       *redis.Script
	block      *redis.Script
	ingest     *redis.Script
	keepGame   *redis.Script
	keptIndex  *redis.Script
	setReview  *redis.Script
	attempt    *redis.Script
	requeue    *redis.Script
	dropDead   *redis.Script
	trimDead   *redis.Script
}

// NewRedis returns a store over c whose keys all start with prefix, so that
// several bots (or tests) can share one Redis.
//
// It adds a hook to c that makes a write refused for want of memory say so
// (ErrFull). A nil c gives a store good only for its key names, which the
// slot tests use.
func NewRedis(c redis.UniversalClient, prefix string, cfg Config) *Redis {
	if c != nil {
		c.AddHook(fullHook{})
	}
	return &Redis{
		c:          c,
		prefix:     prefix,
		set:        cfg.settings(),
		deadLetter: redis.NewScript(deadLetterScript),
		dropIndex:  redis.NewScript(unindexScript),
		commit:     redis.NewScript(commitScript),
		clean:      redis.NewScript(cleanScript),
		claim:      redis.NewScript(claimScript),
		renew:      redis.NewScript(renewScript),
		release:    redis.NewScript(releaseScript),
		schedule:   redis.NewScript(scheduleScript),
		timer:      redis.NewScript(timerScript),
		takeOut:    redis.NewScript(unqueueScript),
		unptr:      redis.NewScript(deletePointerScript),
		allow:      redis.NewScript(allowScript),
		turn:       redis.NewScript(turnScript),
		block:      redis.NewScript(blockScript),
		ingest:     redis.NewScript(ingestScript),
		keepGame:   redis.NewScript(keepGameScript),
		keptIndex:  redis.NewScript(keptIndexScript),
		setReview:  redis.NewScript(setReviewScript),
		attempt:    redis.NewScript(attemptScript),
		requeue:    redis.NewScript(requeueScript),
		dropDead:   redis.NewScript(dropDeadScript),
		trimDead:   redis.NewScript(trimDeadScript),
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

// commitScript applies one Change with compare-and-set on the version and,
// when given the queues' keys (one server, where a script may touch any
// key), schedules the table in Deliveries and sets it in Timers in the same
// atomic step.
//
// KEYS[1] rec, KEYS[2] upd, KEYS[3] dirty, KEYS[4] out, KEYS[5] outseq, KEYS[6] msg
// KEYS[7..9] Deliveries due, held, again; KEYS[10..12] Timers due, held,
// again (absent in Cluster: Commit sets the queues in steps of their own)
// ARGV[1] expected version (0 = create; -1 = only queue: no state, no CAS)
// ARGV[2] state bytes
// ARGV[3] update id (0 = none)
// ARGV[4] update retention in ms
// ARGV[5] number of dirty views n
// ARGV[6] number of forgotten views f
// ARGV[7] the channel that announces the commit (see WatchChanges), with
// the table id in ARGV[8]
// ARGV[9] wake-up (ms; empty: none), ARGV[10] timer (ms; '-' removes it;
// empty leaves it alone)
// ARGV[11] how long the table's keys are kept from now (ms; see Retention):
// set on all six when the record's own time left is short of it by more
// than 1/64 (a busy table pays one PTTL per commit, not six PEXPIREs), and
// on a key this commit wrote that has none yet
// ARGV[12 .. 11+n] dirty view names; ARGV[12+n .. 11+n+f] views whose message
// records are deleted; ARGV[12+n+f ..] outbox entries, in order
// Returns the new version, -1 on a version conflict, -2 on a duplicate update
// id (nothing written in either case).
const commitScript = queueLua + `
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
  local now = clockms()
  redis.call('ZADD', KEYS[2], now, ARGV[3])
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', string.format('(%d', now - tonumber(ARGV[4])))
end
local n = tonumber(ARGV[5])
local f = tonumber(ARGV[6])
for i = 12, 11 + n do
  redis.call('HSET', KEYS[3], ARGV[i], ver)
end
for i = 12 + n, 11 + n + f do
  redis.call('HDEL', KEYS[6], ARGV[i])
end
for i = 12 + n + f, #ARGV do
  local id = redis.call('INCR', KEYS[5])
  redis.call('ZADD', KEYS[4], id, string.format('%d:', id) .. ARGV[i])
end
if #KEYS >= 12 then
  if ARGV[9] ~= '' then
    qschedule(KEYS[7], KEYS[8], KEYS[9], ARGV[8], ARGV[9])
  end
  if ARGV[10] == '-' then
    qset(KEYS[10], KEYS[11], KEYS[12], ARGV[8], '')
  elseif ARGV[10] ~= '' then
    qset(KEYS[10], KEYS[11], KEYS[12], ARGV[8], ARGV[10])
  end
end
local ttl = tonumber(ARGV[11])
local written = {false, upd > 0, n > 0, #ARGV >= 12 + n + f, #ARGV >= 12 + n + f, false}
if redis.call('PTTL', KEYS[1]) < ttl - math.floor(ttl / 64) then
  for k = 1, 6 do
    redis.call('PEXPIRE', KEYS[k], ttl)
  end
else
  for k = 2, 5 do
    if written[k] then
      redis.call('PEXPIRE', KEYS[k], ttl, 'NX')
    end
  end
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
	wake, timer := "", ""
	if !c.WakeAt.IsZero() {
		wake = strconv.FormatInt(toMillis(c.WakeAt), 10)
	}
	if !c.OnlyQueue {
		timer = "-"
		if !c.TimerAt.IsZero() {
			timer = strconv.FormatInt(toMillis(c.TimerAt), 10)
		}
	}
	args := make([]any, 0, 11+len(c.Dirty)+len(c.Forget)+len(c.Outbox))
	args = append(args, c.Version, c.Data, c.UpdateID, UpdateRetention.Milliseconds(), len(c.Dirty), len(c.Forget),
		r.changesChannel(), table, wake, timer, r.set.retention.tableTTL(c.TimerAt, time.Now()).Milliseconds())
	for _, v := range c.Dirty {
		args = append(args, v)
	}
	for _, v := range c.Forget {
		args = append(args, v)
	}
	for _, o := range c.Outbox {
		args = append(args, o)
	}
	keys := r.tableKeys(table)
	var ver int64
	var err error
	if single, ok := r.c.(*redis.Client); ok {
		d, t := r.queueKeys(Deliveries), r.queueKeys(Timers)
		keys = append(keys, d.due, d.held, d.again, t.due, t.held, t.again)
		if r.set.waitReplicas > 0 {
			var cmds []*redis.Cmd
			cmds, err = r.runWaited(ctx, single, []scriptCall{{r.commit, keys, args}})
			if v, verr := cmds[0].Int64(); verr == nil && v < 0 {
				ver, err = v, nil // nothing written: no replica needs it
			} else if err == nil {
				ver, err = v, verr
			}
		} else {
			ver, err = r.commit.Run(ctx, r.c, keys, args...).Int64()
		}
		if err != nil {
			err = fmt.Errorf("store: commit %s: %w", table, err)
		}
	} else {
		args[8], args[9] = "", ""
		ver, err = r.commitInSteps(ctx, table, c, keys, args)
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

// commitInSteps commits in a Cluster, where the queues are in other slots
// than the table: a round trip that schedules the table in its queues, the
// commit script, and one that sets them again.
//
// The first step makes the table due no later than the change's WakeAt and
// TimerAt, so a change is never written without them: a process that dies
// after the commit leaves the queues early, never late, and a commit that
// then fails costs one empty look. The last step repeats the wake-up (a
// worker may have claimed the first one in between, served the old version
// and released the table until its old deadline) and sets the timer to
// exactly TimerAt, unless a later version's commit set it first. It is best
// effort: the change is committed either way. So in a Cluster a table's
// timer can be early, never late, and a Timers claimant must release with
// the deadline it reads from the table.
func (r *Redis) commitInSteps(ctx context.Context, table string, c Change, keys []string, args []any) (int64, error) {
	var before []scriptCall
	if !c.WakeAt.IsZero() {
		before = append(before, r.scheduleCall(Deliveries, table, c.WakeAt))
	}
	if !c.OnlyQueue && !c.TimerAt.IsZero() {
		before = append(before, r.scheduleCall(Timers, table, c.TimerAt))
	}
	if err := r.runScripts(ctx, before); err != nil {
		return 0, fmt.Errorf("store: commit %s: schedule: %w", table, err)
	}
	ver, err := r.commit.Run(ctx, r.c, keys, args...).Int64()
	if err != nil {
		return 0, fmt.Errorf("store: commit %s: %w", table, err)
	}
	if ver < 0 {
		return ver, nil
	}
	var after []scriptCall
	if !c.WakeAt.IsZero() {
		after = append(after, r.scheduleCall(Deliveries, table, c.WakeAt))
	}
	if !c.OnlyQueue {
		at := ""
		if !c.TimerAt.IsZero() {
			at = strconv.FormatInt(toMillis(c.TimerAt), 10)
		}
		k := r.queueKeys(Timers)
		after = append(after, scriptCall{r.timer, []string{k.due, k.held, k.again, k.ver}, []any{table, ver, at}})
	}
	_ = r.runScripts(ctx, after)
	return ver, nil
}

// scheduleCall is Schedule as a scriptCall.
func (r *Redis) scheduleCall(q Queue, name string, at time.Time) scriptCall {
	k := r.queueKeys(q)
	return scriptCall{r.schedule, []string{k.due, k.held, k.again}, []any{name, toMillis(at), ""}}
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

// Delete removes every key of the table and takes it out of the table
// queues (Deliveries, Timers), held or not.
func (r *Redis) Delete(ctx context.Context, table string) error {
	if err := r.c.Del(ctx, r.tableKeys(table)...).Err(); err != nil {
		return fmt.Errorf("store: delete %s: %w", table, err)
	}
	for _, q := range tableQueues {
		if err := r.unqueue(ctx, q, table); err != nil {
			return fmt.Errorf("store: delete %s: %w", table, err)
		}
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
	err := r.write(ctx, func(p redis.Pipeliner) {
		p.ZRemRangeByScore(ctx, r.outKey(table), "-inf", strconv.FormatInt(id, 10))
	})
	if err != nil {
		return fmt.Errorf("store: ack %s: %w", table, err)
	}
	return nil
}

// write sends a few commands in one pipeline, followed, under
// Config.WaitReplicas on one server, by WAIT: a record of what Telegram was
// told (a message posted, an announcement sent) then survives a failover,
// and the bot does not post it a second time.
func (r *Redis) write(ctx context.Context, cmds func(redis.Pipeliner)) error {
	pipe := r.c.Pipeline()
	cmds(pipe)
	var wait *redis.Cmd
	if _, single := r.c.(*redis.Client); single && r.set.waitReplicas > 0 {
		wait = pipe.Do(ctx, "WAIT", r.set.waitReplicas, r.set.waitTimeout.Milliseconds())
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return err
	}
	if wait != nil {
		if n, _ := wait.Int64(); int(n) < r.set.waitReplicas {
			return fmt.Errorf("%w (%d of %d)", ErrNotReplicated, n, r.set.waitReplicas)
		}
	}
	return nil
}

// UsedMemory is the server's used_memory in bytes (INFO memory), for
// measuring what a table costs.
func (r *Redis) UsedMemory(ctx context.Context) (int64, error) {
	info, err := r.c.Info(ctx, "memory").Result()
	if err != nil {
		return 0, fmt.Errorf("store: info memory: %w", err)
	}
	v, ok := infoFields(info)["used_memory"]
	if !ok {
		return 0, fmt.Errorf("store: info memory: no used_memory")
	}
	return strconv.ParseInt(v, 10, 64)
}

// infoFields reads the name:value lines of an INFO reply.
func infoFields(info string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(info, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			out[k] = v
		}
	}
	return out
}

// SetMessage records what the message of a rendered view is (the bot's
// opaque record: message id, digest). It lives apart from the record so
// that it does not bump the version.
func (r *Redis) SetMessage(ctx context.Context, table, view, record string) error {
	err := r.write(ctx, func(p redis.Pipeliner) {
		p.HSet(ctx, r.msgKey(table), view, record)
		p.PExpire(ctx, r.msgKey(table), r.set.retention.Tables)
	})
	if err != nil {
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

// SetPointer sets a small index entry, e.g. "user:42" → table id, kept
// for Retention.Pointers after it was last set or read.
func (r *Redis) SetPointer(ctx context.Context, key, value string) error {
	if err := r.c.Set(ctx, r.pointerKey(key), value, r.set.retention.Pointers).Err(); err != nil {
		return fmt.Errorf("store: set pointer %s: %w", key, err)
	}
	return nil
}

// Pointer returns the value of an index entry, or ErrNotFound; reading it
// keeps it for another Retention.Pointers.
func (r *Redis) Pointer(ctx context.Context, key string) (string, error) {
	v, err := r.c.GetEx(ctx, r.pointerKey(key), r.set.retention.Pointers).Result()
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

// Time is Redis's clock, the one the queues and leases run on (every
// replica reads the same), for the bot to keep its own on (bot/internal/clock).
func (r *Redis) Time(ctx context.Context) (time.Time, error) {
	t, err := r.c.Time(ctx).Result()
	if err != nil {
		return time.Time{}, fmt.Errorf("store: time: %w", err)
	}
	return t, nil
}
