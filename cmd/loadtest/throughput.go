package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot"
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
	Updates       int64   `json:"updates"`
	Refused       int64   `json:"refused"`
	Games         int64   `json:"games_opened"`
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
	RedisURL string
}

// throughput opens a game at n tables, then presses random legal moves for
// cfg.Duration from cfg.Clients concurrent senders and counts the moves the
// bot applied. Each sender owns its own share of the tables, as the bot
// applies one chat's updates in order; a game that ends is replaced by a
// new one. It fails when setup leaves a table out of play or when the load
// applies nothing.
func throughput(ctx context.Context, g bot.Game, n int, cfg loadConfig) (result, error) {
	prefix := "loadtest:" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"
	st, err := store.DialRedis(ctx, cfg.RedisURL, prefix)
	if err != nil {
		return result{}, err
	}
	defer st.Close()
	defer measure.DeletePrefix(cfg.RedisURL, prefix)
	d, err := newDriver(st, g, cfg.People, false)
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
			var applied, refused, opened int64
			var err error
			for err == nil && ctx.Err() == nil && time.Now().Before(stop) {
				// Tables w, w+clients, w+2·clients, … are this sender's.
				i := w + cfg.Clients*rng.IntN((n-w+cfg.Clients-1)/cfg.Clients)
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
				}
			}
			mu.Lock()
			defer mu.Unlock()
			lat = append(lat, mine...)
			r.Updates += applied
			r.Refused += refused
			r.Games += opened
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
	r.P50ms, r.P99ms = ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100])
	return r, nil
}

// errNothingApplied is the load that measured nothing.
var errNothingApplied = errors.New("the load applied no update")

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
