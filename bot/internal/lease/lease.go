// Package lease is the one loop every worker of the runtime runs over a
// queue of the store: claim what is due (never more than there are free
// workers), serve each claimed member while renewing its lease, and give it
// back due again when it wants to be served next. Leases are kept on the
// store's clock, so replicas whose clocks disagree never serve one member
// at once; a crashed replica's members are served by another once its
// leases run out. A lease that is lost, or that can no longer be renewed
// before it runs out (the store does not answer), cancels the serving it
// guarded. A panic while serving is recovered, logged with its stack and
// reported, and so is one while the report is heard: it never takes the
// process (and so every replica in turn) down.
package lease

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/internal/clock"
	"github.com/trickchef/trickchef/bot/safe"
	"github.com/trickchef/trickchef/store"
)

// Queue is one of the store's queues of due work, bound to its name.
type Queue interface {
	Claim(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.Claim, error)
	Renew(ctx context.Context, c store.Claim, lease time.Duration) (bool, error)
	Release(ctx context.Context, c store.Claim, next time.Time) error
	NextDue(ctx context.Context) (time.Time, bool, error)
}

// Store is the part of the store the queues are in.
type Store interface {
	Claim(ctx context.Context, q store.Queue, now time.Time, lease time.Duration, limit int) ([]store.Claim, error)
	Renew(ctx context.Context, c store.Claim, lease time.Duration) (bool, error)
	Release(ctx context.Context, c store.Claim, next time.Time) error
	NextDue(ctx context.Context, q store.Queue) (time.Time, bool, error)
}

// Bind is queue q of st.
func Bind(st Store, q store.Queue) Queue { return bound{st: st, q: q} }

type bound struct {
	st Store
	q  store.Queue
}

func (b bound) Claim(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.Claim, error) {
	return b.st.Claim(ctx, b.q, now, lease, limit)
}
func (b bound) Renew(ctx context.Context, c store.Claim, lease time.Duration) (bool, error) {
	return b.st.Renew(ctx, c, lease)
}
func (b bound) Release(ctx context.Context, c store.Claim, next time.Time) error {
	return b.st.Release(ctx, c, next)
}
func (b bound) NextDue(ctx context.Context) (time.Time, bool, error) { return b.st.NextDue(ctx, b.q) }

// Loop serves a queue until its context is done. Fill it in and call Run.
type Loop struct {
	// Name names the loop in logs ("delivery", "inbox", "timers").
	Name  string
	Queue Queue
	// Lease is how long a claim holds before another replica may take it
	// over; it is renewed every third of it while the member is served.
	Lease time.Duration
	// Workers is how many members are served at once.
	Workers int
	// Idle is how often an idle loop looks for members other replicas
	// made due (their local kicks do not reach it).
	Idle time.Duration
	// MaxServe bounds one serving (zero: 10 × Lease): a serving stuck
	// past it is cancelled, its member given back.
	MaxServe time.Duration
	Now      func() time.Time
	Log      zerolog.Logger
	// Serve does a claimed member's due work and says when it wants to be
	// served next (zero: only when something makes it due). Its context
	// ends when the serving must stop: the lease was lost, or cannot be
	// renewed before it runs out, or MaxServe ran out. It does not end when
	// the loop is asked to stop: work already claimed is finished.
	Serve func(ctx context.Context, name string) time.Time
	// Panicked, if set, hears of a panic while serving name (already
	// logged with its stack and counted); it says when to serve the member
	// again. A panic of its own is recovered too (and the member served
	// again in a second).
	Panicked func(name string, v any) time.Time
	// Panics counts a recovered panic (trickchef_panics_total); nil: not
	// counted.
	Panics func()

	kick chan struct{}
	once sync.Once
}

func (l *Loop) init() {
	l.once.Do(func() { l.kick = make(chan struct{}, 1) })
}

// Wake tells the loop that members may be due now (a local commit): it
// looks at once instead of at its next idle poll. It never blocks.
func (l *Loop) Wake() {
	l.init()
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// Run serves the queue until ctx is done, then waits for the servings in
// flight to finish.
func (l *Loop) Run(ctx context.Context) error {
	l.init()
	sem := make(chan struct{}, max(l.Workers, 1))
	var wg sync.WaitGroup
	defer wg.Wait()
	for ctx.Err() == nil {
		if free := cap(sem) - len(sem); free > 0 {
			claims, err := l.Queue.Claim(ctx, l.Now(), l.Lease, free)
			if err != nil {
				if ctx.Err() != nil {
					break
				}
				l.Log.Error().Err(err).Str("loop", l.Name).Msg("claim")
				clock.Sleep(ctx, time.Second)
				continue
			}
			for _, c := range claims {
				sem <- struct{}{}
				wg.Add(1)
				safe.Go(l.Log, l.Panics, l.Name+" serving "+c.Name, func() {
					defer func() { <-sem; wg.Done(); l.Wake() }()
					l.serve(ctx, c)
				})
			}
			if len(claims) == free {
				continue // there may be more
			}
		}
		l.wait(ctx)
	}
	return nil
}

// serve serves one claimed member, renewing its lease meanwhile, and gives
// it back.
func (l *Loop) serve(ctx context.Context, c store.Claim) {
	maxServe := l.MaxServe
	if maxServe <= 0 {
		maxServe = 10 * l.Lease
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), maxServe)
	renewed := make(chan struct{})
	safe.Go(l.Log, l.Panics, l.Name+" lease renewal", func() {
		defer close(renewed)
		l.renew(sctx, cancel, c)
	})
	next := l.safely(sctx, c.Name)
	cancel()
	<-renewed
	// Release with a fresh context: a member must not stay leased just
	// because we are shutting down.
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer rcancel()
	if err := l.Queue.Release(rctx, c, next); err != nil {
		l.Log.Error().Err(err).Str("loop", l.Name).Str("name", c.Name).Msg("release")
	}
}

// renew keeps c's lease while ctx lasts. A lease found lost cancels the
// serving, and so does one whose renewal keeps failing (the store does not
// answer): once the next try would come after the lease ran out, another
// replica may claim the member, and the serving stops before it does.
func (l *Loop) renew(ctx context.Context, cancel context.CancelFunc, c store.Claim) {
	every := l.Lease / 3
	t := time.NewTicker(every)
	defer t.Stop()
	// held is when the lease last started to run: the serving began after
	// the claim, and a renewal's after it was sent, so it ends no sooner
	// than held + Lease... less the store's own delay, which every third of
	// the lease leaves room for.
	held := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		sent := time.Now()
		rctx, rcancel := context.WithTimeout(ctx, every)
		ok, err := l.Queue.Renew(rctx, c, l.Lease)
		rcancel()
		switch {
		case ctx.Err() != nil:
			return
		case err == nil && ok:
			held = sent
		case err == nil:
			l.Log.Warn().Str("loop", l.Name).Str("name", c.Name).Msg("lease lost while serving: stopped")
			cancel()
			return
		case time.Since(held)+every >= l.Lease:
			l.Log.Warn().Err(err).Str("loop", l.Name).Str("name", c.Name).
				Msg("lease not renewed, and it runs out before the next try: serving stopped")
			cancel()
			return
		default:
			l.Log.Warn().Err(err).Str("loop", l.Name).Str("name", c.Name).Msg("renew lease; will try again")
		}
	}
}

// safely serves name and turns a panic into a logged, counted failure,
// which Panicked hears of; a panic of Panicked's is recovered as well.
func (l *Loop) safely(ctx context.Context, name string) (next time.Time) {
	log := l.Log.With().Str("loop", l.Name).Str("name", name).Logger()
	v := safe.Call(log, l.Panics, "serving", func() { next = l.Serve(ctx, name) })
	if v == nil {
		return next
	}
	next = l.Now().Add(time.Second)
	if l.Panicked != nil {
		var again time.Time
		if safe.Call(log, l.Panics, "hearing of a panic while serving", func() { again = l.Panicked(name, v) }) == nil {
			next = again
		}
	}
	return next
}

// wait sleeps until a kick, the next due member, or the idle poll.
func (l *Loop) wait(ctx context.Context) {
	d := l.Idle
	if at, ok, err := l.Queue.NextDue(ctx); err == nil && ok {
		if until := at.Sub(l.Now()); until < d {
			d = max(until, 5*time.Millisecond)
		}
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-l.kick:
	case <-timer.C:
	}
}
