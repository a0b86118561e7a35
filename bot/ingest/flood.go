package ingest

import (
	"time"

	"github.com/trickchef/trickchef/bot/internal/userlimit"
)

// floodGate keeps one user's presses and commands from costing everyone
// else: each user has a bucket of Limits.PressBurst that refills at
// Limits.PressesPerSecond, and what comes with the bucket empty is refused
// before it reaches the store. A person pressing fast (a real-time game, a
// page turned twice) stays well inside it. It lives in the process: a
// replica limits what it fetches.
type floodGate struct{ users *userlimit.Limiter }

func newFloodGate(rate float64, burst int) *floodGate {
	return &floodGate{users: userlimit.New(rate, burst)}
}

// allow takes one of user's tokens; user 0 (no sender) always passes.
func (f *floodGate) allow(user int64, now time.Time) bool {
	return user == 0 || f.users.Allow(user, now)
}
