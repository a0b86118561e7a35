package deliver

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/store"
)

// Telegram's budget per token (about 30 calls a second, edits and deletes
// included) is the scarcest resource of a busy bot. Every call a delivery
// worker makes is admitted against limits kept in the store, so all
// replicas share them: the chat's spacing, then the token's calls per
// second. The token's calls go earliest deadline first. A call's deadline
// says how long players can stand to wait for it: a view's counts from the
// change it is to show, anything else's from its first try. So under load
// a "your turn" message goes before a group table edit that has time, every
// table waits its turn (one busy table cannot starve the others), the group
// table is edited when its oldest unshown move is due (one edit then shows
// several moves), and when there is more to say than budget, every call is
// late by about the same amount instead of some never going. Answers to
// button presses are not rate limited by Telegram and never wait.

// budget admits the calls of one replica's delivery workers against the
// limits every replica shares in the store; it is delivery's only way to
// Telegram's budget, so its rules live in one place.
type budget struct {
	store   budgetStore
	limits  Limits
	now     func() time.Time
	log     zerolog.Logger
	metrics *metrics.Metrics // nil: not measured
	// load measures this replica's use of the token's calls a second.
	load *tokenLoad
	// waits spares the store questions whose answer is known (see waits).
	waits *waits
}

// budgetStore is the part of the store the budget asks: the limits every
// replica shares.
type budgetStore interface {
	Allow(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, time.Duration, error)
	Fits(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, time.Duration, error)
	AllowInTurn(ctx context.Context, key, caller string, deadline time.Time, limit int, per time.Duration, now time.Time) (bool, time.Duration, error)
	Withdraw(ctx context.Context, key, caller string) error
}

// priority classes the calls that compete for the token's budget, for the
// operators' metrics; the order is by urgency.
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

// How long each kind of call may wait: its deadline in the token's line.
const (
	promptPatience = 300 * time.Millisecond // "your turn": what players feel most
	// handPatience: a player's own message changing after their press
	// (a choice being built), which they watch.
	handPatience = time.Second
	// tablePatience: the group table, read at leisure; under load one edit
	// then shows every move of its last few seconds.
	tablePatience = 4500 * time.Millisecond
	// firstLookPatience: a waiting player's first look at their hand (a
	// game's start deals every hand at once), wanted before their turn.
	firstLookPatience = 15 * time.Second
	announcePatience  = 5 * time.Second
	cleanupPatience   = 30 * time.Second
)

// tokenLoad measures this replica's use of the token's calls: how loaded
// the token is (to stretch group edits under load), what waits, and when the
// token runs hot. It decides nothing: admitAs takes every call's unit from
// the limits kept in the store.
type tokenLoad struct {
	mu      sync.Mutex
	rate    int               // calls a second allowed for the token
	window  [10]int           // calls admitted per 100 ms, a ring
	slot    int64             // the 100 ms slot window[slot%10] counts
	hotFrom time.Time         // since when use has been over 80%; zero if not
	warned  time.Time         // last "running hot" log line
	waiting map[string][4]int // per table: views left waiting, by priority
	onHot   func(use float64) // called at most once a minute while hot
	gauges  func(use float64, waiting [numPriorities]int, tables int)
}

func newTokenLoad(rate int) *tokenLoad {
	return &tokenLoad{rate: rate, waiting: map[string][4]int{}}
}

// advance moves the ring to now, forgetting slots older than a second.
func (u *tokenLoad) advance(now time.Time) {
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
func (u *tokenLoad) admitted(now time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.advance(now)
	u.window[u.slot%int64(len(u.window))]++
}

// use is the share of the token's budget this replica used in the last second.
func (u *tokenLoad) use(now time.Time) float64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.useLocked(now)
}

func (u *tokenLoad) useLocked(now time.Time) float64 {
	u.advance(now)
	n := 0
	for _, c := range u.window {
		n += c
	}
	return float64(n) / float64(max(u.rate, 1))
}

// report records what a table left waiting after a delivery pass and
// updates the operators' view: budget use, views waiting per priority,
// tables waiting, and a log line when the token runs hot for a minute.
func (u *tokenLoad) report(table string, waiting [4]int, now time.Time) {
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

// A group chat may take 20 calls in any rolling minute (sends, edits and
// deletions alike), shared by everything the bot says there. Its calls
// share one sliding window of groupCalls × GroupInterval (62 s by default:
// two seconds of slack for calls in flight), and each kind of call may
// fill that window only up to its own ceiling: replies to commands and
// button-opened menus up to all 20, announcements up to 18, the table's
// edits (and deletions) up to 16, spaced evenly over the window. So the
// table takes what the others leave and never all of it: a quiet group's
// table is edited every 3.9 s, at least 4 calls of every window are left
// for replies and announcements and 2 for replies alone, and because the
// table's share is spread over the window one of its calls leaves it every
// few seconds, which the table itself may not take back (it is at its
// ceiling): a reply or an announcement is never more than one table
// spacing behind. The store's window log is exact for mixed ceilings on
// one key because they all use the same window.
const (
	groupCalls         = 20 // Telegram's calls per group per minute
	groupAnnounceCalls = 18 // ceiling for announcements
	groupViewCalls     = 16 // ceiling for table edits and deletions
	// groupHandCalls is the ceiling for hands shown in the group: below
	// the table's, so the one message everyone reads keeps a share of the
	// minute when people play from the group faster than it allows.
	groupHandCalls = 14
)

// groupClass is what a call to a group is, for its share of the group's
// calls; the order is by precedence.
type groupClass int

const (
	classView     groupClass = iota // the table's edits, deletions of replaced messages
	classAnnounce                   // announcements: round results, the winner
	classReply                      // replies to commands and button-opened menus
	classHand                       // hands shown in the group (bot/deliver/grouphand)
)

// ceiling is how full the group's window may be for a call of class c to
// still go.
func (c groupClass) ceiling() int {
	return [...]int{groupViewCalls, groupAnnounceCalls, groupCalls, groupHandCalls}[c]
}

// classOf is the group class of a call of priority p that is not a reply.
func classOf(p priority) groupClass {
	if p == prioAnnounce {
		return classAnnounce
	}
	return classView
}

// groupWindow is the group's sliding window (see groupCalls).
func (b *budget) groupWindow() time.Duration {
	return groupCalls * b.limits.GroupInterval
}

// viewSpacing keeps a group's table edits evenly spread: their ceiling
// spread over the window.
func (b *budget) viewSpacing() time.Duration {
	return b.groupWindow() / groupViewCalls
}

// viewRateKey spaces a group's table edits (classView), apart from the
// group's window.
func viewRateKey(chatID int64) string { return store.ChatRateKey(chatID) + ":views" }

// admitFor takes a unit of the chat's and the token's limits for a call of
// priority p, due by deadline; in a group it counts in the share of its
// class (classOf(p)). See admitAs.
func (b *budget) admitFor(ctx context.Context, chatID int64, p priority, call string, deadline time.Time) time.Time {
	return b.admitAs(ctx, chatID, p, classOf(p), call, deadline)
}

// admitAs takes a unit of the chat's and the token's limits for a call of
// priority p (and, in a group, of class c), due by deadline. The caller
// names the call (the same name each time it tries again) so that it
// keeps its place in the token's line; an empty name waits behind every
// named call and keeps no place. It returns zero when the call may go
// now, else when to try again.
func (b *budget) admitAs(ctx context.Context, chatID int64, p priority, c groupClass, call string, deadline time.Time) time.Time {
	now := b.now()
	chat := b.chatLimits(chatID, c)
	later := func(wait time.Duration) time.Time {
		b.metrics.Deferred(p.String())
		return now.Add(wait + time.Duration(rand.Int64N(int64(5*time.Millisecond))))
	}
	failed := func(err error) time.Time {
		b.log.Error().Err(err).Msg("rate limit")
		return now.Add(time.Second)
	}
	// The chat first, only looking: its limits are known in advance, so a
	// call waits for them without holding a place in the token's line (a
	// place it took before is given up: it would hold back everyone
	// behind it).
	// A limit this process saw refuse until a later time is not asked
	// again before then (see waits); a call refused that way has no
	// place in the token's line to give up: it gave it up when the
	// refusal was seen.
	if until, known := b.chatRefused(chat, now); known {
		return later(until.Sub(now))
	}
	// Refused its turn in the token's line: a named call keeps its place
	// there until it comes back at the time it was given; a call without a
	// name (spare budget) waits behind every named one, so one refusal
	// holds for them all until then.
	if until, known := b.waits.refused(turnMemo(call), deadline, now); known {
		return later(until.Sub(now))
	}
	for _, l := range chat {
		if !l.wants {
			continue
		}
		ok, wait, err := b.store.Fits(ctx, l.key, l.n, l.per, now)
		if err != nil {
			return failed(err)
		}
		if !ok {
			b.waits.note(l.memo(), time.Time{}, now.Add(wait), now)
			b.withdraw(ctx, call)
			return later(wait)
		}
	}
	slice := b.limits.GlobalSlice
	perSlice := max(1, int(math.Round(float64(b.limits.GlobalPerSecond)*slice.Seconds())))
	if call == "" {
		// Spare budget is what a slice has left at half its calls, while
		// the token has half of its calls a second free: a call nobody
		// waits for must not fill the slice a prompt arrives in, nor, second
		// after second, the token a busy bot needs for its players' moves.
		if b.load.use(now) >= spareUse {
			b.waits.note(turnMemo(call), deadline, now.Add(spareBackoff), now)
			return later(spareBackoff)
		}
		perSlice = max(1, perSlice/2)
	}
	ok, wait, err := b.store.AllowInTurn(ctx, store.GlobalRateKey, call, deadline, perSlice, slice, now)
	if err != nil {
		return failed(err)
	}
	if !ok {
		b.waits.note(turnMemo(call), deadline, now.Add(wait), now)
		return later(wait)
	}
	b.load.admitted(now)
	for _, l := range chat {
		if !l.wants {
			continue
		}
		ok, wait, err = b.store.Allow(ctx, l.key, l.n, l.per, now)
		switch {
		case err == nil && !ok:
			b.waits.note(l.memo(), time.Time{}, now.Add(wait), now)
		case err == nil && l.n == 1:
			// One call per spacing: the next is refused until it has passed.
			b.waits.note(l.memo(), time.Time{}, now.Add(l.per), now)
		}
		if err != nil {
			return failed(err)
		}
		if !ok {
			// Another replica wrote to this chat since we looked: the
			// token's unit goes unused, which costs budget, never a 429.
			// (A table edit refused its spacing here has taken a unit of
			// the group's window: budget again, never a 429.)
			return later(wait)
		}
	}
	return time.Time{}
}

// spareUse is the share of the token's calls a second (this process's)
// above which calls nobody waits for (disarming and deleting replaced messages) are not made;
// spareBackoff is when they look again.
const (
	spareUse     = 0.5
	spareBackoff = time.Second
)

// turnMemo names a call's refused turn in waits; every call without a name
// shares one.
func turnMemo(call string) string {
	if call == "" {
		return "spare"
	}
	return "turn/" + call
}

// chatLimit is one of a chat's limits on the bot's calls.
type chatLimit struct {
	key   string
	n     int
	per   time.Duration
	wants bool // the call counts under it
}

// memo names the limit in waits: the key with its ceiling, as calls of
// other classes fill one group window up to other ceilings.
func (l chatLimit) memo() string { return l.key + "/" + strconv.Itoa(l.n) }

// chatLimits are the chat's limits for a call of class c: a private
// chat's spacing, or the group's window up to the class's ceiling (and the
// table's own spacing).
func (b *budget) chatLimits(chatID int64, c groupClass) []chatLimit {
	if chatID < 0 {
		return []chatLimit{
			{store.ChatRateKey(chatID), c.ceiling(), b.groupWindow(), true},
			{viewRateKey(chatID), 1, b.viewSpacing(), c == classView},
		}
	}
	return []chatLimit{{store.ChatRateKey(chatID), 1, b.limits.PrivateInterval, true}}
}

// chatRefused reports until when this process knows one of the limits
// refuses the call (see waits), without asking the store.
func (b *budget) chatRefused(limits []chatLimit, now time.Time) (time.Time, bool) {
	for _, l := range limits {
		if until, known := b.waits.refused(l.memo(), time.Time{}, now); known && l.wants {
			return until, true
		}
	}
	return time.Time{}, false
}

// chatWait is how long a call of class c to chatID would now wait for the
// chat's limits (zero: it may go), taking nothing and asking nothing of the
// token's line.
func (b *budget) chatWait(ctx context.Context, chatID int64, c groupClass) time.Duration {
	now := b.now()
	chat := b.chatLimits(chatID, c)
	if until, known := b.chatRefused(chat, now); known {
		return until.Sub(now)
	}
	var longest time.Duration
	for _, l := range chat {
		if !l.wants {
			continue
		}
		ok, wait, err := b.store.Fits(ctx, l.key, l.n, l.per, now)
		if err != nil {
			return 0 // unknown: the call finds out itself
		}
		if !ok {
			b.waits.note(l.memo(), time.Time{}, now.Add(wait), now)
			longest = max(longest, wait)
		}
	}
	return longest
}

// withdraw gives up a call's place in the token's line, if it has one.
func (b *budget) withdraw(ctx context.Context, call string) {
	if call == "" {
		return
	}
	if err := b.store.Withdraw(ctx, store.GlobalRateKey, call); err != nil {
		b.log.Warn().Err(err).Msg("leave the token's line")
	}
}
