package store

import "time"

// Retention says how long what an idle chat left behind is kept. Each
// period runs from the last activity that touched it and is renewed by the
// next, so nothing of a chat that stopped playing lives forever, and
// nothing of one that plays ever goes. Zero fields take the defaults.
type Retention struct {
	// Tables: a table's keys (state, applied update ids, views, outbox,
	// message records), after its last commit, or after its timer when
	// that is later. A running game commits at least every turn (a turn
	// timer fires within minutes), so it never expires while it runs.
	Tables time.Duration
	// Inboxes: a chat's waiting updates, after the last one came in.
	Inboxes time.Duration
	// Pointers: a pointer (a user's table, "started", tips turned off, a
	// page's token), after it was last set or read.
	Pointers time.Duration
	// Results: a group's results (stats, ratings, leaderboards, history)
	// and a person's index of groups, after the last result recorded.
	Results time.Duration
	// DeadLetters: a dead letter, after it was given up (each on its own;
	// a chat's keys go with its last one).
	DeadLetters time.Duration
}

// DefaultRetention is what a store keeps unless told otherwise.
var DefaultRetention = Retention{
	Tables:      180 * 24 * time.Hour,
	Inboxes:     180 * 24 * time.Hour,
	Pointers:    400 * 24 * time.Hour,
	Results:     400 * 24 * time.Hour,
	DeadLetters: DeadLetterRetention,
}

// withDefaults fills the zero periods.
func (r Retention) withDefaults() Retention {
	d := DefaultRetention
	for _, f := range []struct{ v, def *time.Duration }{
		{&r.Tables, &d.Tables}, {&r.Inboxes, &d.Inboxes}, {&r.Pointers, &d.Pointers},
		{&r.Results, &d.Results}, {&r.DeadLetters, &d.DeadLetters},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	return r
}

// tableTTL is how long a table's keys are kept after a commit at now whose
// timer is at timer (zero: none): Tables, counted from the timer when it is
// later, so a table is never gone before its timer fires.
func (r Retention) tableTTL(timer, now time.Time) time.Duration {
	if timer.After(now) {
		return r.Tables + timer.Sub(now)
	}
	return r.Tables
}

// settings are a store's options.
type settings struct {
	retention Retention
	// sweepEvery is how often Bolt deletes what expired (Redis expires keys
	// itself).
	sweepEvery time.Duration
	// waitReplicas > 0 makes writes wait for that many replicas (WAIT).
	waitReplicas int
	waitTimeout  time.Duration
	// deadPerChat and deadChats bound the dead letters kept (deadletter.go).
	deadPerChat, deadChats int
}

func newSettings(opts []Option) settings {
	s := settings{sweepEvery: time.Hour, deadPerChat: DeadLettersPerChat, deadChats: DeadLetterChats}
	for _, o := range opts {
		o(&s)
	}
	s.retention = s.retention.withDefaults()
	return s
}

// Option sets up a store (NewRedis, DialRedis, OpenBolt).
type Option func(*settings)

// WithRetention sets how long an idle chat's data is kept (tests use short
// periods).
func WithRetention(r Retention) Option { return func(s *settings) { s.retention = r } }

// WithSweep sets how often Bolt deletes what has expired (an hour by
// default). Redis expires keys itself and ignores it.
func WithSweep(every time.Duration) Option {
	return func(s *settings) {
		if every > 0 {
			s.sweepEvery = every
		}
	}
}

// WithReplicaWait makes Commit, Ingest, SetMessage and Ack wait, in the
// same round trip, until replicas replicas have the write (Redis WAIT), at
// most timeout. When fewer did, they fail with ErrNotReplicated although
// the write is on the master, so the caller retries as after any error (a
// retry of an applied update gets ErrDuplicate). Then nothing acknowledged
// to a player is lost when Sentinel promotes a replica, as long as one
// replica is left to wait for. It works on one server and under Sentinel,
// not in a Cluster. A URL asks for it with wait_replicas=1&wait_timeout=500ms.
func WithReplicaWait(replicas int, timeout time.Duration) Option {
	return func(s *settings) {
		s.waitReplicas, s.waitTimeout = replicas, timeout
	}
}

// WithDeadLetterBounds sets how many dead letters a chat keeps and how many
// chats keep theirs (DeadLettersPerChat and DeadLetterChats by default;
// tests use small numbers).
func WithDeadLetterBounds(perChat, chats int) Option {
	return func(s *settings) {
		if perChat > 0 && chats > 0 {
			s.deadPerChat, s.deadChats = perChat, chats
		}
	}
}
