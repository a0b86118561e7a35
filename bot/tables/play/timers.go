package play

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/internal/lease"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
)

// Clock does the tables' due work: a table whose next due time came
// (nextDue: a seat's or the system's timer, a page's lease, a job) is
// claimed from the store's timers queue like a chat's inbox is, and each
// due thing is a change like a press — applied to the latest record and
// committed. Any replica serves any table; a table is served by one at a
// time, and a crash loses nothing (the timers are in the record, the due
// time in the store).
type Clock struct {
	tx    *txn.Txn
	views *view.Renderer
	moves *Moves
	jobs  Jobs
	now   func() time.Time
	log   zerolog.Logger
	loop  *lease.Loop
}

// Jobs does the work a change left on its table (record.Job): the
// standings' part, run when the timers reach the table.
type Jobs interface {
	Run(ctx context.Context, t *record.Table) error
}

// NewClock builds the timers over the store's timers queue (st).
func NewClock(st lease.Store, tx *txn.Txn, views *view.Renderer, moves *Moves, jobs Jobs, now func() time.Time, log zerolog.Logger, m *metrics.Metrics) *Clock {
	c := &Clock{tx: tx, views: views, moves: moves, jobs: jobs, now: now, log: log}
	c.loop = &lease.Loop{Name: "timers", Queue: lease.Bind(st, store.Timers), Lease: timerLease, Workers: timerWorkers,
		Idle: timerIdle, Now: now, Log: log, Serve: c.Serve, Panicked: c.panicked, Panics: m.Panic}
	return c
}

// Run fires the tables' due timers and does their other due work until
// ctx is done.
func (c *Clock) Run(ctx context.Context) error { return c.loop.Run(ctx) }

// Wake tells the timers a table changed.
func (c *Clock) Wake() { c.loop.Wake() }

const (
	timerLease   = 10 * time.Second // a crashed replica's tables are taken over after this
	timerWorkers = 8                // tables served at once by one replica
	timerIdle    = 500 * time.Millisecond
)

// Serve does table id's due work and says when it is due next (zero:
// when a commit makes it due).
func (c *Clock) Serve(ctx context.Context, id string) time.Time {
	log := c.log.With().Str("table", id).Logger()
	t, _, err := c.tx.Load(ctx, id)
	if err != nil {
		log.Error().Err(err).Msg("load for the timers")
		return c.now().Add(time.Second)
	}
	if len(t.Jobs) > 0 {
		if err := c.jobs.Run(ctx, t); err != nil {
			log.Warn().Err(err).Msg("job not done, will retry")
			return c.now().Add(2 * time.Second)
		}
	}
	now := c.now()
	stalled := false // a due timer fired nothing
	if t.Phase == record.PhasePlaying && !now.Before(t.NextTimer()) {
		// A timer is due (or none runs, which fire repairs).
		err := c.Fire(ctx, id)
		if err := refusal.Settle(err); err != nil {
			log.Error().Err(err).Msg("turn timer")
			return c.now().Add(time.Second)
		}
		stalled = errors.Is(err, refusal.ErrNoChange)
	}
	if at := view.WebExpiry(t); !at.IsZero() && !now.Before(at) {
		// A page stopped saying it is open: its hand is drawn again.
		if err := refusal.Settle(c.expireWeb(ctx, id)); err != nil {
			log.Error().Err(err).Msg("expire web pages")
			return c.now().Add(time.Second)
		}
	}
	// The table says when it is due next; a commit above told the store
	// so too (the earlier of the two wins). A timer come due meanwhile (a
	// robot's short pause) is due at once; one that fired nothing is
	// looked at again in a second, not at once and forever.
	if t, _, err = c.tx.Load(ctx, id); err != nil {
		return c.now().Add(time.Second)
	}
	at := txn.NextDue(t, c.now())
	if stalled && !at.After(c.now()) {
		log.Warn().Time("due", at).Msg("a due timer fired nothing; looked at again in a second")
		return c.now().Add(time.Second)
	}
	return at
}

// panicked hears of a panic while serving table id (logged and counted
// already by the loop): one more strike against the table; it is served
// again in a second.
func (c *Clock) panicked(id string, v any) time.Time {
	c.tx.Strike(context.Background(), id, fmt.Sprint("panic: ", v))
	return c.now().Add(time.Second)
}

// Fire acts for every seat whose timer has run out: the system makes its
// move; a robot moves (or, in real time, looks again later); a person
// times out, and after two timeouts in a row the bot keeps playing for
// them until they press «I'm back». Every seat due now moves in this one
// change, so people acting at the same time time out together, and the
// table names them all.
func (c *Clock) Fire(ctx context.Context, id string) error {
	_, _, err := c.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		if t.Phase != record.PhasePlaying {
			return refusal.ErrNoChange
		}
		g, st, err := txn.Decode(c.views, t)
		if err != nil {
			return err
		}
		if t.NextTimer().IsZero() {
			// A record written before per-seat timers, or one whose timers
			// were lost: start them now rather than stall the game.
			c.moves.Schedule(t, g, st, false)
			if t.NextTimer().IsZero() {
				return refusal.ErrNoChange
			}
			return nil
		}
		now := c.now()
		reminded := c.moves.Remind(t, ch, st, now) // long.go
		due := map[game.Seat]bool{}
		if !t.SystemAt.IsZero() && !now.Before(t.SystemAt) {
			due[game.System] = true
		}
		for i, s := range t.Seats {
			if !s.Due.IsZero() && !now.Before(s.Due) {
				due[game.Seat(i)] = true
			}
		}
		if len(due) == 0 {
			if reminded {
				return nil
			}
			return refusal.ErrNoChange
		}
		var timedOut []int // people whose time ran out together: the table names them all
		for len(due) > 0 && t.Phase == record.PhasePlaying {
			seat, ok := nextDueSeat(st.ToAct(), due)
			if !ok {
				break
			}
			delete(due, seat)
			if err := c.moves.ActFor(t, ch, g, st, seat); err != nil {
				return err
			}
			if e := t.Event; e != nil && e.Key == "event.timeout" && e.Seat == int(seat) && !slices.Contains(timedOut, int(seat)) {
				timedOut = append(timedOut, int(seat))
			}
		}
		if len(timedOut) > 1 && t.Event != nil && t.Event.Key == "event.timeout" {
			t.Event = &record.Event{Key: "event.timeout", Seat: timedOut[0], Also: timedOut[1:]}
		}
		if t.Phase == record.PhasePlaying {
			// Re-arm waiting robots; seats that were due but no longer act
			// lose their timers.
			c.moves.Schedule(t, g, st, false)
		}
		return nil
	})
	return err
}

// nextDueSeat picks the first due seat among those to act, in the engine's
// order.
func nextDueSeat(acting []game.Seat, due map[game.Seat]bool) (game.Seat, bool) {
	for _, s := range acting {
		if due[s] {
			return s, true
		}
	}
	return 0, false
}

// expireWeb ends the page leases that ran out, so those hands are drawn
// again.
func (c *Clock) expireWeb(ctx context.Context, id string) error {
	_, _, err := c.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		now, changed := c.now(), false
		for i := range t.Seats {
			if s := &t.Seats[i]; !s.Web.IsZero() && !now.Before(s.Web) {
				s.Web, changed = time.Time{}, true
			}
		}
		if !changed {
			return refusal.ErrNoChange
		}
		return nil
	})
	if errors.Is(err, refusal.ErrNoChange) {
		return nil
	}
	return err
}
