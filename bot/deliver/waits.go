package deliver

import (
	"sync"
	"time"
)

// waits remembers, in this process, until when the store refused a call's
// limit, so that a call which comes back before then is refused here
// without a round trip to the store. Every table's service retries its
// waiting views after each change, and under load most of them are still
// waiting: asking the store each time cost more than the moves themselves.
//
// A refusal's wait is a lower bound the store keeps: a window frees up only
// as time passes, and a Block only pushes it later, so a call refused here
// would have been refused there too. In the token's line a call's turn can
// come earlier when callers ahead of it leave; waiting here for the time it
// was given costs at most that, never a wrong admission. A call that grows
// more urgent (an earlier deadline) asks the store again.
type waits struct {
	mu    sync.Mutex
	until map[string]wait
	swept time.Time
}

type wait struct {
	until    time.Time
	deadline time.Time // of the refused call; zero for a chat's limit
}

// sweepEvery bounds how long expired entries stay in the map.
const sweepEvery = 10 * time.Second

func newWaits() *waits { return &waits{until: map[string]wait{}} }

// refused reports until when a call under key (with deadline, zero for a
// chat's limit) is known to be refused.
func (w *waits) refused(key string, deadline, now time.Time) (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e, ok := w.until[key]
	if !ok || !now.Before(e.until) || deadline.Before(e.deadline) {
		return time.Time{}, false
	}
	return e.until, true
}

// note records that key refuses calls (with deadline) until then.
func (w *waits) note(key string, deadline, until, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if now.Sub(w.swept) >= sweepEvery {
		for k, e := range w.until {
			if !now.Before(e.until) {
				delete(w.until, k)
			}
		}
		w.swept = now
	}
	if e, ok := w.until[key]; ok && e.until.After(until) && !deadline.Before(e.deadline) {
		return // a later refusal known for as urgent a call stands
	}
	w.until[key] = wait{until: until, deadline: deadline}
}
