// Package retry is the runtime's one retry policy, as the job queues
// people trust (asynq, Sidekiq) have it: every attempt at a piece of work
// is counted in the store before the work runs — so a process that dies
// trying has tried, and every replica and every restart counts on from
// the same number — attempts are spaced by a growing backoff, and after
// the last the work is given up (an update to the dead letters, a table
// fenced off) rather than tried for ever.
//
// What counts: an attempt the store counted. A store that cannot be
// reached cannot count one, and then the work does not run either (it is
// tried again, uncounted, once the store answers): a sick store, which
// fails every piece of work alike, never costs an update or a table its
// attempts. Work that fails after its attempt was counted — whatever the
// reason, the store failing mid-way included — has used it up.
package retry

import (
	"context"
	"time"
)

// Store keeps the counts (the store's Attempt and ForgetAttempts).
type Store interface {
	Attempt(ctx context.Context, key, item string, ttl time.Duration) (int, error)
	ForgetAttempts(ctx context.Context, key string) error
}

// Policy is how often and how far apart a piece of work is tried.
type Policy struct {
	// Limit is how many attempts it gets.
	Limit int
	// First is the pause after the first failed attempt, doubled after
	// each next one up to Max.
	First, Max time.Duration
	// Window is how long a count lasts after its last attempt: attempts
	// further apart start again from 1.
	Window time.Duration
}

// Attempt is one counted attempt: its number, and what the policy says of
// it.
type Attempt struct {
	N      int
	policy Policy
}

// Begin counts an attempt at item under key, before the work runs. An
// error means the store could not count it: do not run the work (see the
// package's doc).
func (p Policy) Begin(ctx context.Context, st Store, key, item string) (Attempt, error) {
	n, err := st.Attempt(ctx, key, item, p.Window)
	if err != nil {
		return Attempt{}, err
	}
	return Attempt{N: n, policy: p}, nil
}

// Spent reports an attempt past the limit: the last allowed one never
// ended (its process died), so the work is given up without running
// again.
func (a Attempt) Spent() bool { return a.N > a.policy.Limit }

// Last reports the last allowed attempt: if it fails, the work is given
// up.
func (a Attempt) Last() bool { return a.N >= a.policy.Limit }

// Backoff is how long to wait after this attempt failed before the next.
func (a Attempt) Backoff() time.Duration { return a.policy.Backoff(a.N) }

// Backoff is the pause after the n-th failed attempt: First, doubled for
// each attempt since, at most Max.
func (p Policy) Backoff(n int) time.Duration {
	d := p.First
	for i := 1; i < n && d < p.Max; i++ {
		d *= 2
	}
	return min(d, p.Max)
}
