// Package userlimit keeps a token bucket per user in this process, so one
// person pressing or requesting faster than a person can is told to slow
// down while everyone else goes on. The chat's updates (bot's flood gate)
// and the web table's reads and acts use it.
package userlimit

import (
	"sync"
	"time"
)

// Limiter lets each user burst actions at once, then rate a second.
type Limiter struct {
	rate, burst float64

	mu      sync.Mutex
	buckets map[int64]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

// maxUsers bounds the users remembered; past it, or every sweepEvery,
// users whose bucket is full again (as good as new) are forgotten.
const (
	maxUsers   = 100_000
	sweepEvery = 10 * time.Second
)

// New returns a limiter of burst at once and rate a second per user.
func New(rate float64, burst int) *Limiter {
	return &Limiter{rate: rate, burst: float64(burst), buckets: map[int64]*bucket{}}
}

// Allow takes one token of user's bucket at now, and reports whether
// there was one.
func (l *Limiter) Allow(user int64, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b, ok := l.buckets[user]
	if !ok {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[user] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Users is how many users the limiter remembers.
func (l *Limiter) Users() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.swept) < sweepEvery && len(l.buckets) < maxUsers {
		return
	}
	l.swept = now
	full := time.Duration(float64(time.Second) * l.burst / l.rate)
	for u, b := range l.buckets {
		if now.Sub(b.at) >= full {
			delete(l.buckets, u)
		}
	}
	if len(l.buckets) >= maxUsers {
		clear(l.buckets) // a flood of new users: forgetting them errs on their side
	}
}
