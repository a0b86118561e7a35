// Package clock keeps a replica's clock on the store's. Replicas share
// deadlines (a turn's time, a robot's pause), rate-limit windows and send
// leases through the store, each written by one replica and read by
// another: a replica whose clock runs a minute ahead would fire a timer a
// minute early or take a send lease another still holds. The store's
// queues and leases run on Redis's own TIME; everything else the bot
// times runs on this clock, which is the machine's corrected by its
// offset from the store's, measured at start and again every minute.
package clock

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/safe"
)

// Source is a clock every replica reads the same: the store's.
type Source interface {
	Time(ctx context.Context) (time.Time, error)
}

// resync is how often the offset is measured again.
const resync = time.Minute

// warnAbove is an offset worth telling the operator about.
const warnAbove = time.Second

// Synced is the machine's clock corrected to the store's.
type Synced struct {
	src Source
	raw func() time.Time
	log zerolog.Logger

	mu     sync.Mutex
	offset time.Duration
	synced time.Time // raw time of the last measurement
	busy   bool
}

// New measures the offset of raw from src once (a failure leaves it
// zero, to be measured again a minute later) and returns the clock.
func New(ctx context.Context, src Source, raw func() time.Time, log zerolog.Logger) *Synced {
	c := &Synced{src: src, raw: raw, log: log}
	c.measure(ctx)
	return c
}

// Now is the store's time, as near as this replica can tell.
func (c *Synced) Now() time.Time {
	now := c.raw()
	c.mu.Lock()
	offset := c.offset
	stale := !c.busy && now.Sub(c.synced) >= resync
	if stale {
		c.busy = true
	}
	c.mu.Unlock()
	if stale {
		safe.Go(c.log, nil, "clock: measuring the store's", func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			c.measure(ctx)
		})
	}
	return now.Add(offset)
}

// measure reads the store's clock and takes the middle of the round trip
// as the moment it was read.
func (c *Synced) measure(ctx context.Context) {
	before := c.raw()
	at, err := c.src.Time(ctx)
	after := c.raw()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.busy = false
	c.synced = after
	if err != nil {
		c.log.Warn().Err(err).Msg("clock: the store's time not read; keeping the last offset")
		return
	}
	offset := at.Sub(before.Add(after.Sub(before) / 2))
	if (offset > warnAbove || offset < -warnAbove) && (c.offset-offset > warnAbove || offset-c.offset > warnAbove || c.offset == 0) {
		c.log.Warn().Dur("offset", offset).Msg("clock: this machine's clock differs from the store's; the bot keeps to the store's")
	}
	c.offset = offset
}

// Sleep waits d or until ctx is done, whichever comes first: the pause of
// every loop that backs off, which must never hold up a shutdown.
func Sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
