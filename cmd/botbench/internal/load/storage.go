package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/cmd/internal/measure"
	"github.com/trickchef/trickchef/store"
)

// checkpoint is what Redis holds per table after a number of games.
type checkpoint struct {
	Games int `json:"games"`
	// UsedBytes is used_memory's growth since before setup, per table.
	UsedBytes int64 `json:"used_memory_per_table"`
	// Kinds are the exact key sizes (MEMORY USAGE) per table, by kind of
	// key ("table:rec", "pointer:user", …).
	Kinds map[string]int64 `json:"key_bytes_per_table"`
	// State is what must not depend on the games played; Logs are the
	// bounded logs, Transient the rate-limit windows (see classify).
	State     int64 `json:"state_bytes_per_table"`
	Logs      int64 `json:"log_bytes_per_table"`
	Transient int64 `json:"transient_bytes_per_table"`
	// UpdateIDs is the mean length of a table's applied-update log.
	UpdateIDs float64 `json:"update_ids_per_table"`
	Moves     int64   `json:"moves"` // moves applied at all tables so far
}

// storageReport is one long-running storage check.
type storageReport struct {
	Game        string       `json:"game"`
	Tables      int          `json:"tables"`
	Games       int          `json:"games_per_table"`
	Seconds     float64      `json:"seconds"`
	Checkpoints []checkpoint `json:"checkpoints"`
	// Growth is the state's growth from the first checkpoint to the last.
	Growth float64 `json:"state_growth"`
	Flat   bool    `json:"flat"`
}

// maxGrowth is how much a table's state may grow from its first game to
// its last before the check fails: the bytes that must not depend on how
// many games a table played.
const maxGrowth = 0.20

// Classes of key kinds.
const (
	classState     = "state"     // must not depend on how many games a table played
	classLog       = "log"       // grows with traffic up to a bound of its own
	classTransient = "transient" // expires within seconds
)

// classify tells what a kind of key is; for a bounded log, also its bound.
// Only state is checked; logs and transient keys are reported.
func classify(kind string) (class, bound string) {
	switch kind {
	case "table:upd":
		return classLog, "applied update ids, each kept 24 h"
	case "results:ids":
		return classLog, "result ids, each kept 30 days"
	case "results:hist":
		return classLog, "history, the last 100 games of a group"
	case "rate":
		return classTransient, "rate-limit windows, gone a window after the last call"
	}
	return classState, ""
}

// checkpointsFor lists the games after which Redis is measured: 1, 5, 10,
// then every 10, and the last.
func checkpointsFor(games int) []int {
	var out []int
	for _, g := range []int{1, 5} {
		if g < games {
			out = append(out, g)
		}
	}
	for g := 10; g < games; g += 10 {
		out = append(out, g)
	}
	return append(out, games)
}

// storage has n tables play games games each, one after another, every game
// to its end with random legal moves (all tables at once), and measures
// Redis per table after the checkpoints. Telegram answers at once and the bot's own rate limits
// are lifted, so every change is delivered before Redis is measured: what
// is left is what a table costs at rest.
func storage(ctx context.Context, g adapter.Game, n, games int, cfg loadConfig, progress io.Writer) (storageReport, error) {
	prefix := keyPrefix()
	st, err := store.DialRedis(ctx, cfg.RedisURL, prefix, store.Config{})
	if err != nil {
		return storageReport{}, err
	}
	defer st.Close()
	defer measure.DeletePrefix(cfg.RedisURL, prefix)
	d, err := newDriver(st, g, cfg.People, cfg.Pace, true)
	if err != nil {
		return storageReport{}, err
	}
	defer d.stop()

	rep := storageReport{Game: g.ID(), Tables: n, Games: games}
	start := time.Now()
	memBefore, err := st.UsedMemory(ctx)
	if err != nil {
		return rep, err
	}
	var moves atomic.Int64
	marks := checkpointsFor(games)
	for game := 1; game <= games; game++ {
		// Every table plays at once: at the game's own pace a real-time
		// game spends most of its time waiting for the bot's clocks, and
		// only the bytes count here.
		err := forTables(ctx, n, n, func(ctx context.Context, i int) error {
			if err := d.open(ctx, chatOf(i)); err != nil {
				return fmt.Errorf("game %d: %w", game, err)
			}
			m, err := d.playToEnd(ctx, chatOf(i), rand.New(rand.NewPCG(uint64(i), uint64(game))))
			moves.Add(m)
			if err != nil {
				return fmt.Errorf("game %d: %w", game, err)
			}
			return nil
		})
		if err != nil {
			return rep, fmt.Errorf("%d %s tables: %w", n, g.ID(), err)
		}
		if len(marks) == 0 || marks[0] != game {
			continue
		}
		marks = marks[1:]
		if err := quiet(ctx, st, 5*time.Minute); err != nil {
			return rep, err
		}
		time.Sleep(1200 * time.Millisecond) // the global rate-limit window (1 s) empties
		c := checkpoint{Games: game, Moves: moves.Load()}
		mem, err := st.UsedMemory(ctx)
		if err != nil {
			return rep, err
		}
		c.UsedBytes = (mem - memBefore) / int64(n)
		u, err := keyUsage(ctx, cfg.RedisURL, prefix)
		if err != nil {
			return rep, err
		}
		c.Kinds = map[string]int64{}
		for k, b := range u.bytes {
			c.Kinds[k] = b / int64(n)
			switch class, _ := classify(k); class {
			case classLog:
				c.Logs += b
			case classTransient:
				c.Transient += b
			default:
				c.State += b
			}
		}
		c.State /= int64(n)
		c.Logs /= int64(n)
		c.Transient /= int64(n)
		c.UpdateIDs = float64(u.updateIDs) / float64(n)
		rep.Checkpoints = append(rep.Checkpoints, c)
		if progress != nil {
			printCheckpoint(progress, c)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	first, last := rep.Checkpoints[0], rep.Checkpoints[len(rep.Checkpoints)-1]
	rep.Growth = float64(last.State-first.State) / float64(first.State)
	rep.Flat = rep.Growth <= maxGrowth
	return rep, nil
}

// playToEnd plays random legal moves at a table until its game is over and
// returns how many were applied. A table that stops making progress is an
// error, so a stuck game cannot pass for a finished one.
func (d *driver) playToEnd(ctx context.Context, chat int64, rng *rand.Rand) (int64, error) {
	const stall = 30 * time.Second
	var moves int64
	last := time.Now()
	for {
		s, err := d.move(ctx, chat, rng)
		if err != nil {
			return moves, err
		}
		switch {
		case s.over:
			return moves, nil
		case s.applied:
			moves++
			last = time.Now()
			continue
		}
		if time.Since(last) > stall {
			return moves, fmt.Errorf("table %d made no progress for %v (last answer %q)", chat, stall, s.answer)
		}
		if !s.pressed {
			time.Sleep(5 * time.Millisecond) // waiting for the system's timer
		}
	}
}

// quiet waits until no table has work left for the delivery worker.
func quiet(ctx context.Context, st *store.Redis, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		n, err := st.Pending(ctx, store.Deliveries)
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d tables still had deliveries pending after %v", n, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// usage is the exact size of a prefix's keys in Redis, by kind.
type usage struct {
	bytes     map[string]int64
	updateIDs int64 // entries of every applied-update log
}

func (u usage) total() int64 {
	var t int64
	for _, b := range u.bytes {
		t += b
	}
	return t
}

// keyKind names the kind of a key from the store's key layout:
// "t:{T}:rec" is "table:rec", "ptr:{user:42}" is "pointer:user",
// "res:{C}:st:trickchef" is "results:st", …
func keyKind(key string) string {
	_, after, braced := strings.Cut(key, "}")
	head, inner, _ := strings.Cut(key, "{")
	head = strings.TrimSuffix(head, ":")
	inner, _, _ = strings.Cut(inner, "}")
	suffix := strings.TrimPrefix(after, ":")
	suffix, _, _ = strings.Cut(suffix, ":")
	switch {
	case !braced:
		return key
	case head == "t":
		return "table:" + suffix
	case head == "res":
		return "results:" + suffix
	case head == "resu":
		return "results:player"
	case head == "ptr":
		kind, _, _ := strings.Cut(inner, ":")
		return "pointer:" + kind
	case head == "rate":
		return "rate"
	}
	return head
}

// keyUsage sums MEMORY USAGE (every element counted) of every key under
// prefix, by kind.
func keyUsage(ctx context.Context, url, prefix string) (usage, error) {
	u := usage{bytes: map[string]int64{}}
	c, err := measure.DialRaw(url)
	if err != nil {
		return u, err
	}
	defer c.Close()
	err = measure.EachNode(ctx, c, func(ctx context.Context, n *redis.Client) error {
		keys, err := measure.ScanKeys(ctx, n, prefix)
		if err != nil {
			return err
		}
		for len(keys) > 0 {
			batch := keys[:min(len(keys), 500)]
			keys = keys[len(batch):]
			pipe := n.Pipeline()
			sizes := make([]*redis.IntCmd, len(batch))
			lens := map[int]*redis.IntCmd{}
			for i, k := range batch {
				sizes[i] = pipe.MemoryUsage(ctx, k, 0)
				if keyKind(strings.TrimPrefix(k, prefix)) == "table:upd" {
					lens[i] = pipe.ZCard(ctx, k)
				}
			}
			if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
				return err
			}
			for i, k := range batch {
				b, err := sizes[i].Result()
				if err != nil {
					continue // expired between SCAN and MEMORY USAGE
				}
				u.bytes[keyKind(strings.TrimPrefix(k, prefix))] += b
				if l, ok := lens[i]; ok {
					u.updateIDs += l.Val()
				}
			}
		}
		return nil
	})
	return u, err
}

// printCheckpoint writes one checkpoint as a line: the totals, then every
// kind of key, largest first.
func printCheckpoint(w io.Writer, c checkpoint) {
	kinds := make([]string, 0, len(c.Kinds))
	for k := range c.Kinds {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if c.Kinds[kinds[i]] != c.Kinds[kinds[j]] {
			return c.Kinds[kinds[i]] > c.Kinds[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k, c.Kinds[k]))
	}
	fmt.Fprintf(w, "  after game %3d: %7d bytes/table in Redis (used_memory); keys: state %d + bounded logs %d (%.0f update ids) + transient %d [%s]\n",
		c.Games, c.UsedBytes, c.State, c.Logs, c.UpdateIDs, c.Transient, strings.Join(parts, ", "))
}
