package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/cmd/internal/measure"
	"github.com/trickchef/trickchef/store"
)

// result is one throughput measurement: one game at one table count.
type result struct {
	Game         string  `json:"game"`
	Tables       int     `json:"tables"`
	SetupSeconds float64 `json:"setup_s"`
	// Updates are the moves applied during the load; Refused the moves
	// the bot refused (none expected: each table has one sender); Games
	// the new games opened during the load, whose lobby updates are not
	// counted.
	Updates int64 `json:"updates"`
	Refused int64 `json:"refused"`
	Games   int64 `json:"games_opened"`
	// Waits are the times a sender found a table where only the system
	// may act (a deal, the next round); Hurried the system timers it
	// brought forward then (full pace only).
	Waits         int64   `json:"waits"`
	Hurried       int64   `json:"timers_hurried"`
	UpdatesPerSec float64 `json:"updates_per_s"`
	P50ms         float64 `json:"apply_p50_ms"`
	P99ms         float64 `json:"apply_p99_ms"`
	// BytesPerTable is Redis's used_memory growth over setup per table;
	// KeyBytesPerTable the exact size of the keys (MEMORY USAGE).
	BytesPerTable    int64 `json:"redis_bytes_per_table"`
	KeyBytesPerTable int64 `json:"key_bytes_per_table"`
}

// loadConfig is what every measurement shares.
type loadConfig struct {
	Duration time.Duration
	Clients  int
	People   int
	Pace     pace
	RedisURL string
}

// throughput opens a game at n tables, then presses random legal moves for
// cfg.Duration from cfg.Clients concurrent senders and counts the moves the
// bot applied. Each sender owns its own share of the tables, as the bot
// applies one chat's updates in order; a game that ends is replaced by a
// new one. It fails when setup leaves a table out of play or when the load
// applies nothing. At full pace a table waiting for the system's timer has
// it brought forward (see paceFull), so the moves a second are the bot's,
// not the game's pauses.
func throughput(ctx context.Context, g adapter.Game, n int, cfg loadConfig) (result, error) {
	prefix := keyPrefix()
	st, err := store.DialRedis(ctx, cfg.RedisURL, prefix, store.Config{})
	if err != nil {
		return result{}, err
	}
	defer st.Close()
	defer measure.DeletePrefix(cfg.RedisURL, prefix)
	d, err := newDriver(st, g, cfg.People, cfg.Pace, false)
	if err != nil {
		return result{}, err
	}
	defer d.stop()

	memBefore, err := st.UsedMemory(ctx)
	if err != nil {
		return result{}, err
	}
	setup := time.Now()
	if err := d.setup(ctx, n, cfg.Clients); err != nil {
		return result{}, fmt.Errorf("setup of %d %s tables: %w", n, g.ID(), err)
	}
	r := result{Game: g.ID(), Tables: n, SetupSeconds: time.Since(setup).Seconds()}
	time.Sleep(500 * time.Millisecond) // let the first deliveries settle
	memAfter, err := st.UsedMemory(ctx)
	if err != nil {
		return result{}, err
	}
	r.BytesPerTable = (memAfter - memBefore) / int64(n)
	if u, err := keyUsage(ctx, cfg.RedisURL, prefix); err == nil {
		r.KeyBytesPerTable = u.total() / int64(n)
	}

	var mu sync.Mutex
	var lat []time.Duration
	var firstErr error
	stop := time.Now().Add(cfg.Duration)
	var wg sync.WaitGroup
	for w := range min(cfg.Clients, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			var mine []time.Duration
			var applied, refused, opened, waits, hurried int64
			// Tables w, w+clients, w+2·clients, … are this sender's.
			tables := (n - w + cfg.Clients - 1) / cfg.Clients
			idle := 0 // tables in a row found waiting for the system
			var err error
			for err == nil && ctx.Err() == nil && time.Now().Before(stop) {
				i := w + cfg.Clients*rng.IntN(tables)
				var s step
				s, err = d.move(ctx, chatOf(i), rng)
				switch {
				case err != nil:
				case s.over:
					err = d.open(ctx, chatOf(i))
					opened++
				case s.applied:
					mine = append(mine, s.took)
					applied++
				case s.pressed:
					refused++
				case s.waiting:
					waits++
					if s.hurried {
						hurried++
					}
				}
				if !s.waiting {
					idle = 0
				} else if idle++; idle >= tables {
					// Its tables all wait for the bot's timers: reading
					// them again at once would only take the bot's CPU.
					time.Sleep(time.Millisecond)
					idle = 0
				}
			}
			mu.Lock()
			defer mu.Unlock()
			lat = append(lat, mine...)
			r.Updates += applied
			r.Refused += refused
			r.Games += opened
			r.Waits += waits
			r.Hurried += hurried
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}()
	}
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		return r, fmt.Errorf("%d %s tables: %w", n, g.ID(), firstErr)
	}
	if r.Updates == 0 {
		return r, fmt.Errorf("%d %s tables: no move applied in %v (%d refused): %w", n, g.ID(), cfg.Duration, r.Refused, errNothingApplied)
	}
	r.UpdatesPerSec = float64(r.Updates) / cfg.Duration.Seconds()
	slices.Sort(lat)
	r.P50ms, r.P99ms = measure.Quantile(lat, 0.5), measure.Quantile(lat, 0.99)
	return r, nil
}

// keyPrefix is a fresh prefix of a measurement's keys in Redis. Its
// length is part of every key's size, so it keeps the length it had when
// the numbers in docs/ were measured (the tool was cmd/loadtest then).
func keyPrefix() string {
	return "loadtest:" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"
}

// errNothingApplied is the load that measured nothing.
var errNothingApplied = errors.New("the load applied no update")
