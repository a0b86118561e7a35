package telegramtest

import (
	"math"
	"sync"
	"time"
)

// Clock tells the time. Inject a FakeClock with WithClock to test rate limits and query timeouts fast.
type Clock interface {
	Now() time.Time
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// FakeClock is a manual Clock that only moves when told.
type FakeClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewFakeClock returns a clock stopped at t.
func NewFakeClock(t time.Time) *FakeClock { return &FakeClock{now: t} }

// Now returns the current fake time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Rate is at most N calls in any rolling window of length Per. A zero N means unlimited.
type Rate struct {
	N   int
	Per time.Duration
}

// Limits are the rate limits the server enforces on sendMessage, editMessageText,
// editMessageReplyMarkup and deleteMessage (answerCallbackQuery and getUpdates are free).
// A refused call is not counted; a call that passes the limiter counts even if it then fails validation.
type Limits struct {
	Group   Rate // per group or supergroup chat
	Private Rate // per private chat
	Global  Rate // over all chats
}

// DefaultLimits mirrors Telegram's FAQ: 20 messages per minute per group, 30 per second overall,
// and about one per second per private chat, for which we allow a burst of 3 within any 3 seconds.
func DefaultLimits() Limits {
	return Limits{
		Group:   Rate{N: 20, Per: time.Minute},
		Private: Rate{N: 3, Per: 3 * time.Second},
		Global:  Rate{N: 30, Per: time.Second},
	}
}

// window remembers the times of counted calls for one rolling-window limit.
type window struct {
	times []time.Time
}

// wait returns how long until one more call fits under r at now (0: it fits now).
func (w *window) wait(r Rate, now time.Time) time.Duration {
	if r.N <= 0 {
		return 0
	}
	cut := 0
	for cut < len(w.times) && now.Sub(w.times[cut]) >= r.Per {
		cut++
	}
	w.times = w.times[cut:]
	if len(w.times) < r.N {
		return 0
	}
	return w.times[len(w.times)-r.N].Add(r.Per).Sub(now)
}

func (w *window) add(r Rate, now time.Time) {
	if r.N > 0 {
		w.times = append(w.times, now)
	}
}

// limitLocked checks and counts one rate-limited call to chat; it returns a 429 when over a limit.
func (s *Server) limitLocked(c *chatState) *APIError {
	now := s.clock.Now()
	r := s.limits.Group
	if c.chat.Type == "private" {
		r = s.limits.Private
	}
	w := s.perChat[c.chat.ID]
	if w == nil {
		w = &window{}
		s.perChat[c.chat.ID] = w
	}
	d := max(s.global.wait(s.limits.Global, now), w.wait(r, now))
	if d > 0 {
		return TooManyRequests(max(1, int(math.Ceil(d.Seconds()))))
	}
	s.global.add(s.limits.Global, now)
	w.add(r, now)
	return nil
}
