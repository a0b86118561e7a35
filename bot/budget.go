package bot

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/trickchef/trickchef/store"
)

// Telegram's budget per token (about 30 calls a second, edits and deletes
// included) is the scarcest resource of a busy bot. Every call a delivery
// worker makes is admitted against three limits kept in the store, so all
// replicas share them: the chat's spacing, and the token's calls per second.
// The token's budget is split by priority: a lower priority may only use
// part of it, so under load it waits first and the calls players feel —
// "it is your turn" — keep flowing. Answers to button presses are not rate
// limited by Telegram and never wait.

// priority orders the calls that compete for the token's budget.
type priority int

const (
	prioPrompt   priority = iota // a fresh "your turn" message
	prioTable                    // the group table, other views' edits
	prioAnnounce                 // announcements, which may wait a few seconds
	prioCleanup                  // deleting replaced messages
	numPriorities
)

func (p priority) String() string {
	return [...]string{"prompt", "table", "announce", "cleanup"}[p]
}

// share is the part of the token's calls per second a priority may use;
// what it leaves is headroom for the priorities above it.
func (p priority) share() float64 {
	return [...]float64{1, 0.9, 0.75, 0.5}[p]
}

// budget watches this replica's use of the token's budget: how loaded the
// token is (to stretch group edits under load), what waits, and when the
// token runs hot. It is advisory; the limits themselves are in the store.
type budget struct {
	mu      sync.Mutex
	rate    int               // calls a second allowed for the token
	window  [10]int           // calls admitted per 100 ms, a ring
	slot    int64             // the 100 ms slot window[slot%10] counts
	hotFrom time.Time         // since when use has been over 80%; zero if not
	warned  time.Time         // last "running hot" log line
	waiting map[string][4]int // per table: views left waiting, by priority
	onHot   func(use float64) // called at most once a minute while hot
	gauges  func(use float64, waiting [4]int, tables int)
}

func newBudget(rate int) *budget {
	return &budget{rate: rate, waiting: map[string][4]int{}}
}

// advance moves the ring to now, forgetting slots older than a second.
func (u *budget) advance(now time.Time) {
	slot := now.UnixMilli() / 100
	if slot-u.slot >= int64(len(u.window)) {
		u.window = [10]int{}
	} else {
		for s := u.slot + 1; s <= slot; s++ {
			u.window[s%int64(len(u.window))] = 0
		}
	}
	u.slot = slot
}

// admitted counts one call made now.
func (u *budget) admitted(now time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.advance(now)
	u.window[u.slot%int64(len(u.window))]++
}

// use is the share of the token's budget this replica used in the last second.
func (u *budget) use(now time.Time) float64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.useLocked(now)
}

func (u *budget) useLocked(now time.Time) float64 {
	u.advance(now)
	n := 0
	for _, c := range u.window {
		n += c
	}
	return float64(n) / float64(max(u.rate, 1))
}

// groupInterval stretches the spacing of group edits when the token is
// busy: base up to 50% use, then linearly up to twice base at full use, so
// every table gets its group edits a little later instead of some tables
// not at all.
func (u *budget) groupInterval(base time.Duration, now time.Time) time.Duration {
	load := min(1, max(0, (u.use(now)-0.5)/0.5))
	return base + time.Duration(load*float64(base))
}

// report records what a table left waiting after a delivery pass and
// updates the operators' view: budget use, views waiting per priority,
// tables waiting, and a log line when the token runs hot for a minute.
func (u *budget) report(table string, waiting [4]int, now time.Time) {
	u.mu.Lock()
	if waiting == ([4]int{}) {
		delete(u.waiting, table)
	} else {
		u.waiting[table] = waiting
	}
	var total [4]int
	for _, w := range u.waiting {
		for p := range total {
			total[p] += w[p]
		}
	}
	tables := len(u.waiting)
	use := u.useLocked(now)
	hot := false
	switch {
	case use < 0.8:
		u.hotFrom = time.Time{}
	case u.hotFrom.IsZero():
		u.hotFrom = now
	case now.Sub(u.hotFrom) >= time.Minute && now.Sub(u.warned) >= time.Minute:
		u.warned, hot = now, true
	}
	onHot, gauges := u.onHot, u.gauges
	u.mu.Unlock()
	if gauges != nil {
		gauges(use, total, tables)
	}
	if hot && onHot != nil {
		onHot(use)
	}
}

// admitFor takes a unit of the chat's and the token's limits for a call of
// priority p. It returns zero when the call may go now, else when to try
// again (with a little jitter, so tables refused together do not all come
// back at the same instant and the budget goes round them in turn).
func (b *Bot) admitFor(ctx context.Context, chatID int64, p priority) time.Time {
	now := b.now()
	interval := b.cfg.Limits.PrivateInterval
	if chatID < 0 {
		interval = b.budget.groupInterval(b.cfg.Limits.GroupInterval, now)
	}
	later := func(wait time.Duration) time.Time {
		b.metrics.deferred(p)
		return now.Add(wait + time.Duration(rand.Int64N(int64(20*time.Millisecond))))
	}
	// The chat first: its spacing is known in advance, so a worker comes
	// back when it has passed, and the scarce token's units are not taken
	// for calls a chat would refuse.
	ok, wait, err := b.store.Allow(ctx, store.ChatRateKey(chatID), 1, interval, now)
	if err != nil {
		b.log.Error().Err(err).Msg("rate limit")
		return now.Add(time.Second)
	}
	if !ok {
		return later(wait)
	}
	limit := max(1, int(p.share()*float64(b.cfg.Limits.GlobalPerSecond)))
	ok, wait, err = b.store.Allow(ctx, store.GlobalRateKey, limit, b.cfg.Limits.GlobalWindow, now)
	if err != nil {
		b.log.Error().Err(err).Msg("rate limit")
		return now.Add(time.Second)
	}
	if !ok {
		// The chat's unit was taken for a call that will not be made now:
		// only when the token is overloaded, and then this chat is slower.
		return later(wait)
	}
	b.budget.admitted(now)
	return time.Time{}
}

// admit is admitFor at the announcements' priority (direct replies too).
func (b *Bot) admit(ctx context.Context, chatID int64) time.Time {
	return b.admitFor(ctx, chatID, prioAnnounce)
}
