package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Results in Redis. Key layout (P is the prefix, C a chat id in decimal,
// G a game id, U a player id):
//
//	P res:{C}:ver    string version of the group's results; every write bumps it
//	P res:{C}:ids    zset   recorded result ids → recorded at (server ms); entries
//	                        older than ResultRetention are trimmed on each write and
//	                        the key expires ResultRetention after the last one
//	P res:{C}:moved  string the chat the group migrated to (expires after ResultRetention)
//	P res:{C}:games  set    game ids played in the group
//	P res:{C}:st:G   hash   player → stats (encodeStats)
//	P res:{C}:top:G  zset   ranked player → −(mu − 3σ); ZRANGE is best first, ties by player id
//	P res:{C}:hist   list   encoded results, newest first, at most HistoryLimit
//	P resu:{U}       set    chats a person has results in (people only)
//
// A group's keys share the hash tag {C} (the same slot as the group's table
// keys t:{C}:…), so each write is one script in one slot. The writes are
// optimistic: Go reads what it needs and computes the new values (the rate
// function runs in Go), then a script stores them only if ver is still what
// was read, and the whole thing is retried otherwise (at most resultRetries
// times). The script checks the result id before the version, inside the
// same atomic step that adds it, which is what makes recording exactly-once
// among any number of replicas. A person's chat index lives in their own
// slot, so it is written after the group, idempotently (SADD), also when a
// result turns out to be a duplicate — a writer that died between the two
// steps is completed by the retry.

func (r *Redis) resKey(chat int64, suffix string) string {
	return r.prefix + "res:{" + strconv.FormatInt(chat, 10) + "}:" + suffix
}
func (r *Redis) resVerKey(chat int64) string   { return r.resKey(chat, "ver") }
func (r *Redis) resIDsKey(chat int64) string   { return r.resKey(chat, "ids") }
func (r *Redis) resMovedKey(chat int64) string { return r.resKey(chat, "moved") }
func (r *Redis) resGamesKey(chat int64) string { return r.resKey(chat, "games") }
func (r *Redis) resHistKey(chat int64) string  { return r.resKey(chat, "hist") }
func (r *Redis) resStatsKey(chat int64, game string) string {
	return r.resKey(chat, "st:"+game)
}
func (r *Redis) resTopKey(chat int64, game string) string {
	return r.resKey(chat, "top:"+game)
}
func (r *Redis) resChatsKey(player string) string { return r.prefix + "resu:{" + player + "}" }

// resGroupKeys lists every key of a group's results for the given games.
func (r *Redis) resGroupKeys(chat int64, games []string) []string {
	keys := []string{r.resVerKey(chat), r.resIDsKey(chat), r.resMovedKey(chat),
		r.resGamesKey(chat), r.resHistKey(chat)}
	for _, g := range games {
		keys = append(keys, r.resStatsKey(chat, g), r.resTopKey(chat, g))
	}
	return keys
}

// recordScript stores one result computed in Go, if nothing changed since.
//
// KEYS[1] ver, KEYS[2] ids, KEYS[3] moved, KEYS[4] st:G, KEYS[5] top:G,
// KEYS[6] hist, KEYS[7] games, KEYS[8 ..] st and top of the group's other
// games (their keys are kept as long as the group's)
// ARGV[1] expected version, ARGV[2] result id, ARGV[3] id retention (ms),
// ARGV[4] game id, ARGV[5] encoded result, ARGV[6] history limit,
// ARGV[7] the group's retention (ms),
// ARGV[8 ..] per seat three values: player, encoded stats, leaderboard score
// (empty = not ranked)
// Returns 1 when recorded, 0 when the id was recorded before, -1 on a version
// conflict, -2 when the group has moved (nothing written in those cases).
const recordScript = `
if redis.call('EXISTS', KEYS[3]) == 1 then
  return -2
end
if redis.call('ZSCORE', KEYS[2], ARGV[2]) then
  return 0
end
if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[1]) then
  return -1
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local keep = tonumber(ARGV[3])
redis.call('ZADD', KEYS[2], now, ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', string.format('(%d', now - keep))
redis.call('PEXPIRE', KEYS[2], keep)
for i = 8, #ARGV, 3 do
  redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1])
  if ARGV[i + 2] ~= '' then
    redis.call('ZADD', KEYS[5], ARGV[i + 2], ARGV[i])
  end
end
redis.call('LPUSH', KEYS[6], ARGV[5])
redis.call('LTRIM', KEYS[6], 0, tonumber(ARGV[6]) - 1)
redis.call('SADD', KEYS[7], ARGV[4])
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
for k = 4, #KEYS do
  redis.call('PEXPIRE', KEYS[k], ARGV[7])
end
return 1
`

// topScript reads a leaderboard with the players' stats in one round trip.
//
// KEYS[1] top:G, KEYS[2] st:G
// ARGV[1] how many
// Returns {player, stats, player, stats, …}, best first.
const topScript = `
local ps = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local out = {}
for _, p in ipairs(ps) do
  local s = redis.call('HGET', KEYS[2], p)
  if s then
    out[#out + 1] = p
    out[#out + 1] = s
  end
end
return out
`

// forgetScript removes one player from a group, if nothing changed since
// Go read the history.
//
// KEYS[1] ver, KEYS[2] hist, KEYS[3 ..] st:G and top:G of every game, in pairs
// ARGV[1] expected version, ARGV[2] player, ARGV[3 ..] pairs of history index
// and the entry scrubbed of the player
// Returns 1 when done, -1 on a version conflict (nothing written).
const forgetScript = `
if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[1]) then
  return -1
end
for k = 3, #KEYS, 2 do
  redis.call('HDEL', KEYS[k], ARGV[2])
  redis.call('ZREM', KEYS[k + 1], ARGV[2])
end
for i = 3, #ARGV, 2 do
  redis.call('LSET', KEYS[2], tonumber(ARGV[i]), ARGV[i + 1])
end
redis.call('INCR', KEYS[1])
return 1
`

// mergeScript merges a moved group's results (computed in Go) into the
// group it moved to, once.
//
// KEYS[1] ver, KEYS[2] ids, KEYS[3] moved, KEYS[4] hist, KEYS[5] games,
// KEYS[6 ..] st:G and top:G of every merged game, in pairs
// ARGV[1] expected version, ARGV[2] merge marker, ARGV[3] id retention (ms),
// ARGV[4] n, then n pairs of result id and its recorded-at time (ms),
// then h, then the h entries of the merged history, newest first,
// then per game pair in KEYS: game id, m, then m triples of player,
// encoded stats and leaderboard score ("" = not ranked)
// Returns 1 when merged, 0 when the marker shows it was merged before, -1 on
// a version conflict, -2 when this group has moved too (nothing written in
// those cases).
const mergeScript = `
if redis.call('EXISTS', KEYS[3]) == 1 then
  return -2
end
if redis.call('ZSCORE', KEYS[2], ARGV[2]) then
  return 0
end
if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[1]) then
  return -1
end
local keep = tonumber(ARGV[3])
local i = 4
local n = tonumber(ARGV[i])
i = i + 1
for _ = 1, n do
  redis.call('ZADD', KEYS[2], ARGV[i + 1], ARGV[i])
  i = i + 2
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[2], now, ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', string.format('(%d', now - keep))
redis.call('PEXPIRE', KEYS[2], keep)
local h = tonumber(ARGV[i])
i = i + 1
redis.call('DEL', KEYS[4])
for _ = 1, h do
  redis.call('RPUSH', KEYS[4], ARGV[i])
  i = i + 1
end
local k = 6
while i <= #ARGV do
  redis.call('SADD', KEYS[5], ARGV[i])
  local m = tonumber(ARGV[i + 1])
  i = i + 2
  for _ = 1, m do
    redis.call('HSET', KEYS[k], ARGV[i], ARGV[i + 1])
    if ARGV[i + 2] ~= '' then
      redis.call('ZADD', KEYS[k + 1], ARGV[i + 2], ARGV[i])
    end
    i = i + 3
  end
  k = k + 2
end
redis.call('INCR', KEYS[1])
return 1
`

// resBackoff waits a little before retrying a conflicting write, longer
// after more conflicts, randomised so colliding writers spread out.
func resBackoff(ctx context.Context, conflicts int) error {
	if conflicts == 0 {
		return nil
	}
	d := rand.N(min(time.Duration(conflicts)*200*time.Microsecond, 5*time.Millisecond))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// resExecReads runs a pipeline of reads; a missing key (redis.Nil) is not an
// error here, each command reports it.
func resExecReads(ctx context.Context, pipe redis.Pipeliner) error {
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return err
	}
	return nil
}

// resOptInt64 is a GET of an integer: 0 when the key is missing.
func resOptInt64(cmd *redis.StringCmd) (int64, error) {
	n, err := cmd.Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return n, err
}

// rankArg is a player's leaderboard score as a script argument.
func rankArg(p PlayerStats) string {
	if !p.ranked() {
		return ""
	}
	return strconv.FormatFloat(p.rankScore(), 'g', -1, 64)
}

// RecordResult records a finished game exactly once per (group, result id):
// it adds the result to the group's history and updates its seats' stats,
// ratings (from rate, which may be nil to keep them) and the game's
// leaderboard, all atomically, then indexes the group under each person. It
// returns false, changing nothing, when the id was recorded already. A
// result for a group that has moved (MoveChat) is recorded in the new group.
func (r *Redis) RecordResult(ctx context.Context, res Result, rate RateFunc) (bool, error) {
	if err := res.check(); err != nil {
		return false, err
	}
	res.Seats = slices.Clone(res.Seats)
	players := res.players()
	script := redis.NewScript(recordScript)
	hops, conflicts := 0, 0
	for {
		if conflicts >= resultRetries {
			return false, fmt.Errorf("store: record result %s: %w", res.ID, ErrResultConflict)
		}
		if err := resBackoff(ctx, conflicts); err != nil {
			return false, err
		}
		chat := res.Chat
		pipe := r.c.Pipeline()
		verCmd := pipe.Get(ctx, r.resVerKey(chat))
		gamesCmd := pipe.SMembers(ctx, r.resGamesKey(chat))
		movedCmd := pipe.Get(ctx, r.resMovedKey(chat))
		dupCmd := pipe.ZScore(ctx, r.resIDsKey(chat), res.ID)
		stCmd := pipe.HMGet(ctx, r.resStatsKey(chat, res.Game), players...)
		if err := resExecReads(ctx, pipe); err != nil {
			return false, fmt.Errorf("store: record result %s: %w", res.ID, err)
		}
		moved, err := resOptInt64(movedCmd)
		if err != nil {
			return false, fmt.Errorf("store: record result %s: %w", res.ID, err)
		}
		if moved != 0 {
			if hops++; hops > movedHops {
				return false, fmt.Errorf("store: record result %s: group %d moved too often", res.ID, chat)
			}
			res.Chat = moved
			continue
		}
		if err := dupCmd.Err(); err == nil {
			return false, r.indexChat(ctx, chat, players)
		} else if !errors.Is(err, redis.Nil) {
			return false, fmt.Errorf("store: record result %s: %w", res.ID, err)
		}
		ver, err := resOptInt64(verCmd)
		if err != nil {
			return false, fmt.Errorf("store: record result %s: %w", res.ID, err)
		}
		vals, err := stCmd.Result()
		if err != nil {
			return false, fmt.Errorf("store: record result %s: %w", res.ID, err)
		}
		cur := make([]PlayerStats, len(players))
		for i, v := range vals {
			if s, ok := v.(string); ok {
				if cur[i], err = decodeStats(players[i], []byte(s)); err != nil {
					return false, err
				}
			}
			cur[i].Player, cur[i].Name = players[i], res.Seats[i].Name
		}
		next, err := applyResult(&res, cur, rate)
		if err != nil {
			return false, err
		}
		args := make([]any, 0, 7+3*len(next))
		args = append(args, ver, res.ID, ResultRetention.Milliseconds(), res.Game, encodeResult(&res), HistoryLimit,
			r.set.retention.Results.Milliseconds())
		for _, p := range next {
			args = append(args, p.Player, encodeStats(p), rankArg(p))
		}
		keys := []string{r.resVerKey(chat), r.resIDsKey(chat), r.resMovedKey(chat),
			r.resStatsKey(chat, res.Game), r.resTopKey(chat, res.Game), r.resHistKey(chat), r.resGamesKey(chat)}
		for _, g := range gamesCmd.Val() {
			if g != res.Game {
				keys = append(keys, r.resStatsKey(chat, g), r.resTopKey(chat, g))
			}
		}
		n, err := script.Run(ctx, r.c, keys, args...).Int64()
		if err != nil {
			return false, fmt.Errorf("store: record result %s: %w", res.ID, err)
		}
		switch n {
		case 1:
			return true, r.indexChat(ctx, chat, players)
		case 0:
			return false, r.indexChat(ctx, chat, players)
		case -1:
			conflicts++
		}
		// -2: moved meanwhile; the next round follows it.
	}
}

// indexChat adds chat to the chat index of each person among players.
func (r *Redis) indexChat(ctx context.Context, chat int64, players []string) error {
	hs := humans(players)
	if len(hs) == 0 {
		return nil
	}
	pipe := r.c.Pipeline()
	for _, p := range hs {
		pipe.SAdd(ctx, r.resChatsKey(p), chat)
		pipe.PExpire(ctx, r.resChatsKey(p), r.set.retention.Results)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("store: index chat %d: %w", chat, err)
	}
	return nil
}

// Top returns the game's leaderboard in the group, best first (highest
// mu − 3σ; equal ones by player id), at most n players, each with at least
// RankedGames games.
func (r *Redis) Top(ctx context.Context, chat int64, game string, n int) ([]PlayerStats, error) {
	if err := checkGame(game); err != nil || n <= 0 {
		return nil, err
	}
	vals, err := redis.NewScript(topScript).Run(ctx, r.c,
		[]string{r.resTopKey(chat, game), r.resStatsKey(chat, game)}, n).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("store: top %d %s: %w", chat, game, err)
	}
	out := make([]PlayerStats, 0, len(vals)/2)
	for i := 0; i+1 < len(vals); i += 2 {
		p, err := decodeStats(vals[i], []byte(vals[i+1]))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Stats returns a player's stats for one game in the group; ok is false when
// they have none.
func (r *Redis) Stats(ctx context.Context, chat int64, game, player string) (PlayerStats, bool, error) {
	if err := checkGame(game); err != nil {
		return PlayerStats{}, false, err
	}
	v, err := r.c.HGet(ctx, r.resStatsKey(chat, game), player).Bytes()
	if errors.Is(err, redis.Nil) {
		return PlayerStats{}, false, nil
	}
	if err != nil {
		return PlayerStats{}, false, fmt.Errorf("store: stats %d %s %s: %w", chat, game, player, err)
	}
	p, err := decodeStats(player, v)
	return p, err == nil, err
}

// PlayerGames returns a player's stats for every game they played in the
// group, by game id.
func (r *Redis) PlayerGames(ctx context.Context, chat int64, player string) (map[string]PlayerStats, error) {
	games, err := r.c.SMembers(ctx, r.resGamesKey(chat)).Result()
	if err != nil {
		return nil, fmt.Errorf("store: player games %d %s: %w", chat, player, err)
	}
	out := make(map[string]PlayerStats)
	if len(games) == 0 {
		return out, nil
	}
	pipe := r.c.Pipeline()
	cmds := make([]*redis.StringCmd, len(games))
	for i, g := range games {
		cmds[i] = pipe.HGet(ctx, r.resStatsKey(chat, g), player)
	}
	if err := resExecReads(ctx, pipe); err != nil {
		return nil, fmt.Errorf("store: player games %d %s: %w", chat, player, err)
	}
	for i, cmd := range cmds {
		v, err := cmd.Bytes()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("store: player games %d %s: %w", chat, player, err)
		}
		p, err := decodeStats(player, v)
		if err != nil {
			return nil, err
		}
		out[games[i]] = p
	}
	return out, nil
}

// PlayerChats returns the groups a person has results in, in ascending order.
func (r *Redis) PlayerChats(ctx context.Context, player string) ([]int64, error) {
	vals, err := r.c.SMembers(ctx, r.resChatsKey(player)).Result()
	if err != nil {
		return nil, fmt.Errorf("store: player chats %s: %w", player, err)
	}
	return parseChats(vals)
}

func parseChats(vals []string) ([]int64, error) {
	out := make([]int64, 0, len(vals))
	for _, v := range vals {
		c, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("store: bad chat %q in index", v)
		}
		out = append(out, c)
	}
	slices.Sort(out)
	return out, nil
}

// History returns up to n of the group's latest results, newest first.
func (r *Redis) History(ctx context.Context, chat int64, n int) ([]Result, error) {
	if n <= 0 {
		return nil, nil
	}
	vals, err := r.c.LRange(ctx, r.resHistKey(chat), 0, int64(n-1)).Result()
	if err != nil {
		return nil, fmt.Errorf("store: history %d: %w", chat, err)
	}
	return decodeResults(vals)
}

// seasonPage is how many history entries SeasonResults reads a round
// trip.
const seasonPage = 256

// SeasonResults returns the group's results that ended in [from, to),
// oldest first (by end time, then id): a season's games. It reads the
// history newest first, a page at a time, until it is past from by
// SeasonSlack; what the history dropped (HistoryLimit) is not there.
func (r *Redis) SeasonResults(ctx context.Context, chat int64, from, to time.Time) ([]Result, error) {
	if !from.Before(to) {
		return nil, nil
	}
	stop := from.Add(-SeasonSlack)
	var hist []Result
	for start := int64(0); ; start += seasonPage {
		vals, err := r.c.LRange(ctx, r.resHistKey(chat), start, start+seasonPage-1).Result()
		if err != nil {
			return nil, fmt.Errorf("store: season results %d: %w", chat, err)
		}
		page, err := decodeResults(vals)
		if err != nil {
			return nil, err
		}
		hist = append(hist, page...)
		if len(vals) < seasonPage || len(page) > 0 && page[len(page)-1].Ended.Before(stop) {
			break
		}
	}
	return seasonWindow(hist, from, to), nil
}

func decodeResults(vals []string) ([]Result, error) {
	out := make([]Result, len(vals))
	for i, v := range vals {
		var err error
		if out[i], err = decodeResult([]byte(v)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Forget deletes a person's stats and ratings in every group they played in
// (removing them from the leaderboards), blanks their player id and name in
// the stored history, and then drops their chat index. Repeating it is
// harmless. A result recorded for them afterwards counts anew.
func (r *Redis) Forget(ctx context.Context, player string) error {
	if err := checkPlayer(player); err != nil {
		return err
	}
	vals, err := r.c.SMembers(ctx, r.resChatsKey(player)).Result()
	if err != nil {
		return fmt.Errorf("store: forget %s: %w", player, err)
	}
	queue, err := parseChats(vals)
	if err != nil {
		return err
	}
	done := make(map[int64]bool)
	for len(queue) > 0 {
		chat := queue[0]
		queue = queue[1:]
		if done[chat] {
			continue
		}
		done[chat] = true
		moved, err := r.forgetIn(ctx, chat, player)
		if err != nil {
			return err
		}
		if moved != 0 {
			queue = append(queue, moved)
		}
	}
	// Only the chats read above: one indexed meanwhile by a new result stays.
	if len(vals) > 0 {
		members := make([]any, len(vals))
		for i, v := range vals {
			members[i] = v
		}
		if err := r.c.SRem(ctx, r.resChatsKey(player), members...).Err(); err != nil {
			return fmt.Errorf("store: forget %s: %w", player, err)
		}
	}
	return nil
}

// forgetIn removes a player from one group and returns the chat the group
// moved to, if it did (its data may not have been merged there yet).
func (r *Redis) forgetIn(ctx context.Context, chat int64, player string) (int64, error) {
	script := redis.NewScript(forgetScript)
	for conflicts := 0; conflicts < resultRetries; conflicts++ {
		if err := resBackoff(ctx, conflicts); err != nil {
			return 0, err
		}
		pipe := r.c.Pipeline()
		verCmd := pipe.Get(ctx, r.resVerKey(chat))
		movedCmd := pipe.Get(ctx, r.resMovedKey(chat))
		gamesCmd := pipe.SMembers(ctx, r.resGamesKey(chat))
		histCmd := pipe.LRange(ctx, r.resHistKey(chat), 0, -1)
		if err := resExecReads(ctx, pipe); err != nil {
			return 0, fmt.Errorf("store: forget %s in %d: %w", player, chat, err)
		}
		ver, err := resOptInt64(verCmd)
		if err != nil {
			return 0, fmt.Errorf("store: forget %s in %d: %w", player, chat, err)
		}
		moved, err := resOptInt64(movedCmd)
		if err != nil {
			return 0, fmt.Errorf("store: forget %s in %d: %w", player, chat, err)
		}
		if ver == 0 { // no results ever written here
			return moved, nil
		}
		games, hist := gamesCmd.Val(), histCmd.Val()
		keys := []string{r.resVerKey(chat), r.resHistKey(chat)}
		for _, g := range games {
			keys = append(keys, r.resStatsKey(chat, g), r.resTopKey(chat, g))
		}
		args := []any{ver, player}
		for i, v := range hist {
			res, err := decodeResult([]byte(v))
			if err != nil {
				return 0, err
			}
			if scrub(&res, player) {
				args = append(args, i, encodeResult(&res))
			}
		}
		n, err := script.Run(ctx, r.c, keys, args...).Int64()
		if err != nil {
			return 0, fmt.Errorf("store: forget %s in %d: %w", player, chat, err)
		}
		if n == 1 {
			return moved, nil
		}
	}
	return 0, fmt.Errorf("store: forget %s in %d: %w", player, chat, ErrResultConflict)
}

// resSnapshot is everything a group's results hold, for MoveChat.
type resSnapshot struct {
	ids   []redis.Z
	games []string
	stats map[string][]PlayerStats // by game
	hist  []Result                 // newest first
}

func (s *resSnapshot) empty() bool {
	return len(s.ids) == 0 && len(s.games) == 0 && len(s.hist) == 0
}

// resReadGroup reads a group's results. Only for a group whose writes are
// stopped (moved): the reads are not one atomic step.
func (r *Redis) resReadGroup(ctx context.Context, chat int64) (*resSnapshot, error) {
	pipe := r.c.Pipeline()
	idsCmd := pipe.ZRangeWithScores(ctx, r.resIDsKey(chat), 0, -1)
	gamesCmd := pipe.SMembers(ctx, r.resGamesKey(chat))
	histCmd := pipe.LRange(ctx, r.resHistKey(chat), 0, -1)
	if err := resExecReads(ctx, pipe); err != nil {
		return nil, err
	}
	hist, err := decodeResults(histCmd.Val())
	if err != nil {
		return nil, err
	}
	s := &resSnapshot{ids: idsCmd.Val(), games: gamesCmd.Val(), hist: hist, stats: make(map[string][]PlayerStats)}
	slices.Sort(s.games)
	if len(s.games) == 0 {
		return s, nil
	}
	pipe = r.c.Pipeline()
	cmds := make([]*redis.MapStringStringCmd, len(s.games))
	for i, g := range s.games {
		cmds[i] = pipe.HGetAll(ctx, r.resStatsKey(chat, g))
	}
	if err := resExecReads(ctx, pipe); err != nil {
		return nil, err
	}
	for i, g := range s.games {
		for player, v := range cmds[i].Val() {
			p, err := decodeStats(player, []byte(v))
			if err != nil {
				return nil, err
			}
			s.stats[g] = append(s.stats[g], p)
		}
		slices.SortFunc(s.stats[g], func(a, b PlayerStats) int { return strings.Compare(a.Player, b.Player) })
	}
	return s, nil
}

// MoveChat moves a group's results to the chat id it migrated to (a group
// upgraded to a supergroup), merging them with any the new chat has already.
// Results recorded for the old id afterwards (for ResultRetention) go to the
// new one. Repeating it, or resuming it after a crash, is harmless.
//
// The steps, each idempotent: mark the old group moved (from then on its
// writes fail and redirect), read it, merge it into the new group in one
// script guarded by a per-source marker, re-point the people's chat indexes,
// delete the old group's data.
func (r *Redis) MoveChat(ctx context.Context, from, to int64) error {
	if err := checkResultChat(from); err != nil {
		return err
	}
	if err := checkResultChat(to); err != nil {
		return err
	}
	if from == to {
		return fmt.Errorf("store: move chat %d to itself", from)
	}
	if err := r.c.Set(ctx, r.resMovedKey(from), to, ResultRetention).Err(); err != nil {
		return fmt.Errorf("store: move chat %d: %w", from, err)
	}
	snap, err := r.resReadGroup(ctx, from)
	if err != nil {
		return fmt.Errorf("store: move chat %d: %w", from, err)
	}
	if snap.empty() {
		return nil
	}
	target, err := r.resMerge(ctx, from, to, snap)
	if err != nil {
		return err
	}
	var people []string
	for _, ps := range snap.stats {
		for _, p := range ps {
			if isHuman(p.Player) && !slices.Contains(people, p.Player) {
				people = append(people, p.Player)
			}
		}
	}
	if len(people) > 0 {
		pipe := r.c.Pipeline()
		for _, p := range people {
			pipe.SAdd(ctx, r.resChatsKey(p), target)
			pipe.SRem(ctx, r.resChatsKey(p), from)
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return fmt.Errorf("store: move chat %d: %w", from, err)
		}
	}
	// The version bump makes a Forget that read the old data retry (and
	// find nothing) instead of writing into deleted keys.
	keys := r.resGroupKeys(from, snap.games)
	_, err = r.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, slices.DeleteFunc(keys, func(k string) bool {
			return k == r.resVerKey(from) || k == r.resMovedKey(from)
		})...)
		p.Incr(ctx, r.resVerKey(from))
		p.PExpire(ctx, r.resVerKey(from), ResultRetention)
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: move chat %d: %w", from, err)
	}
	return nil
}

// resMerge folds a snapshot of group from into group to (or wherever to moved
// on to) and returns the chat it landed in.
func (r *Redis) resMerge(ctx context.Context, from, to int64, snap *resSnapshot) (int64, error) {
	script := redis.NewScript(mergeScript)
	marker := moveMarker(from)
	hops, conflicts := 0, 0
	for conflicts < resultRetries {
		if err := resBackoff(ctx, conflicts); err != nil {
			return 0, err
		}
		pipe := r.c.Pipeline()
		verCmd := pipe.Get(ctx, r.resVerKey(to))
		movedCmd := pipe.Get(ctx, r.resMovedKey(to))
		markCmd := pipe.ZScore(ctx, r.resIDsKey(to), marker)
		histCmd := pipe.LRange(ctx, r.resHistKey(to), 0, -1)
		stCmds := make([]*redis.SliceCmd, len(snap.games))
		for i, g := range snap.games {
			players := make([]string, len(snap.stats[g]))
			for j, p := range snap.stats[g] {
				players[j] = p.Player
			}
			if len(players) > 0 {
				stCmds[i] = pipe.HMGet(ctx, r.resStatsKey(to, g), players...)
			}
		}
		if err := resExecReads(ctx, pipe); err != nil {
			return 0, fmt.Errorf("store: move chat %d: %w", from, err)
		}
		moved, err := resOptInt64(movedCmd)
		if err != nil {
			return 0, fmt.Errorf("store: move chat %d: %w", from, err)
		}
		if moved != 0 {
			if hops++; hops > movedHops || moved == from {
				return 0, fmt.Errorf("store: move chat %d: target %d moved too often", from, to)
			}
			to = moved
			continue
		}
		if markCmd.Err() == nil {
			return to, nil
		}
		ver, err := resOptInt64(verCmd)
		if err != nil {
			return 0, fmt.Errorf("store: move chat %d: %w", from, err)
		}
		hist, err := decodeResults(histCmd.Val())
		if err != nil {
			return 0, err
		}
		keys := []string{r.resVerKey(to), r.resIDsKey(to), r.resMovedKey(to), r.resHistKey(to), r.resGamesKey(to)}
		args := []any{ver, marker, ResultRetention.Milliseconds(), len(snap.ids)}
		for _, z := range snap.ids {
			args = append(args, z.Member, strconv.FormatFloat(z.Score, 'f', -1, 64))
		}
		merged := mergeHistory(hist, snap.hist, to)
		args = append(args, len(merged))
		for i := range merged {
			args = append(args, encodeResult(&merged[i]))
		}
		for i, g := range snap.games {
			keys = append(keys, r.resStatsKey(to, g), r.resTopKey(to, g))
			args = append(args, g, len(snap.stats[g]))
			if stCmds[i] == nil {
				continue
			}
			for j, v := range stCmds[i].Val() {
				p := snap.stats[g][j]
				if s, ok := v.(string); ok {
					cur, err := decodeStats(p.Player, []byte(s))
					if err != nil {
						return 0, err
					}
					p = mergeStats(cur, p)
				}
				args = append(args, p.Player, encodeStats(p), rankArg(p))
			}
		}
		n, err := script.Run(ctx, r.c, keys, args...).Int64()
		if err != nil {
			return 0, fmt.Errorf("store: move chat %d: %w", from, err)
		}
		switch n {
		case 1, 0:
			return to, nil
		case -1:
			conflicts++
		}
	}
	return 0, fmt.Errorf("store: move chat %d: %w", from, ErrResultConflict)
}
