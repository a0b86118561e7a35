package ingest

import (
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot/internal/userlimit"
)

// floodGate keeps one user's presses and commands from costing everyone
// else: each user has a bucket of Limits.PressBurst that refills at
// Limits.PressesPerSecond, and what comes with the bucket empty is refused
// before it reaches the store. A person pressing fast (a real-time game, a
// page turned twice) stays well inside it. It lives in the process: a
// replica limits what it fetches.
//
// An update is judged once: a batch fetched again (its store write failed)
// or pushed again (Telegram retries a webhook) gets the verdict it got the
// first time, charging nobody twice and answering no refusal twice.
type floodGate struct {
	users *userlimit.Limiter

	mu       sync.Mutex
	verdicts map[int64]bool // update id → allowed
	order    []int64        // the ids judged, oldest first (a ring)
	next     int
}

// judged is how many updates' verdicts are remembered: far more than a
// batch (100) or the updates in flight between two fetches.
const judged = 4096

func newFloodGate(rate float64, burst int) *floodGate {
	return &floodGate{users: userlimit.New(rate, burst), verdicts: map[int64]bool{}, order: make([]int64, 0, judged)}
}

// allow takes one of user's tokens for update id, or gives the verdict id
// got before (again reports a verdict given before); user 0 (no sender)
// always passes.
func (f *floodGate) allow(id, user int64, now time.Time) (ok, again bool) {
	if user == 0 {
		return true, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if v, seen := f.verdicts[id]; seen {
		return v, true
	}
	ok = f.users.Allow(user, now)
	if len(f.order) < judged {
		f.order = append(f.order, id)
	} else {
		delete(f.verdicts, f.order[f.next])
		f.order[f.next] = id
		f.next = (f.next + 1) % judged
	}
	f.verdicts[id] = ok
	return ok, false
}
