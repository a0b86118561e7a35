package bot

import (
	"sync"
	"time"
)

// floodGate keeps one user's presses and commands from costing everyone
// else: each user has a bucket of burst that refills at rate a second
// (Limits.PressesPerSecond, PressBurst), and what comes with the bucket
// empty is refused before it reaches the store. A person pressing fast (a
// real-time game, a page turned twice) stays well inside it. It lives in
// the process: a replica limits what it fetches.
type floodGate struct {
	rate, burst float64

	mu    sync.Mutex
	users map[int64]*bucket
	swept time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

// floodUsers bounds the users remembered; past it, idle ones go first.
const floodUsers = 100_000

func newFloodGate(rate float64, burst int) *floodGate {
	return &floodGate{rate: rate, burst: float64(burst), users: map[int64]*bucket{}}
}

// allow takes one token of user's bucket; user 0 (no sender) always passes.
func (f *floodGate) allow(user int64, now time.Time) bool {
	if user == 0 {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sweep(now)
	b, ok := f.users[user]
	if !ok {
		b = &bucket{tokens: f.burst, at: now}
		f.users[user] = b
	}
	b.tokens = min(f.burst, b.tokens+now.Sub(b.at).Seconds()*f.rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// sweep forgets users whose bucket is full again (they are as new), every
// few seconds or when too many are remembered, so memory stays bounded.
func (f *floodGate) sweep(now time.Time) {
	full := time.Duration(float64(time.Second) * f.burst / f.rate)
	if now.Sub(f.swept) < 10*time.Second && len(f.users) < floodUsers {
		return
	}
	f.swept = now
	for u, b := range f.users {
		if now.Sub(b.at) >= full {
			delete(f.users, u)
		}
	}
	if len(f.users) >= floodUsers {
		clear(f.users) // a flood of new users: forgetting them errs on their side
	}
}
