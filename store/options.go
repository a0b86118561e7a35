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

// Config is how a store is set up (NewRedis, DialRedis, OpenBolt), in the
// one idiom the bot's roles are built in: a struct whose zero fields take
// the defaults (tests use short periods and small bounds).
type Config struct {
	// Retention is how long an idle chat's data is kept.
	Retention Retention
	// Sweep is how often Bolt deletes what has expired (an hour by
	// default). Redis expires keys itself and ignores it.
	Sweep time.Duration
	// WaitReplicas > 0 makes Commit, Ingest, SetMessage and Ack wait, in
	// the same round trip, until that many replicas have the write (Redis
	// WAIT), at most WaitTimeout (a second by default). When fewer did,
	// they fail with ErrNotReplicated although the write is on the master,
	// so the caller retries as after any error (a retry of an applied
	// update gets ErrDuplicate). Then nothing acknowledged to a player is
	// lost when Sentinel promotes a replica, as long as one replica is left
	// to wait for. It works on one server and under Sentinel, not in a
	// Cluster. A URL asks for it with wait_replicas=1&wait_timeout=500ms
	// (DialRedis; a non-zero WaitReplicas here wins).
	WaitReplicas int
	WaitTimeout  time.Duration
	// DeadLettersPerChat and DeadLetterChats bound the dead letters kept
	// (deadletter.go): how many a chat keeps and how many chats keep
	// theirs (the package's constants of those names by default; both or
	// neither).
	DeadLettersPerChat, DeadLetterChats int
}

// settings are a store's Config with the defaults filled in.
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

// settings fills the zero fields of c with the defaults.
func (c Config) settings() settings {
	s := settings{retention: c.Retention.withDefaults(), sweepEvery: time.Hour,
		deadPerChat: DeadLettersPerChat, deadChats: DeadLetterChats}
	if c.Sweep > 0 {
		s.sweepEvery = c.Sweep
	}
	if c.WaitReplicas > 0 {
		s.waitReplicas, s.waitTimeout = c.WaitReplicas, c.WaitTimeout
		if s.waitTimeout <= 0 {
			s.waitTimeout = time.Second
		}
	}
	if c.DeadLettersPerChat > 0 && c.DeadLetterChats > 0 {
		s.deadPerChat, s.deadChats = c.DeadLettersPerChat, c.DeadLetterChats
	}
	return s
}
