package bot

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// Timers live in the table record, so any replica can fire them: each seat
// that must act has its own (Seat.Due), and the game's system seat has one
// more (Table.SystemAt). The store's wake set holds the earliest of them.
//
// A person's timer runs while the seat stays to act and starts afresh when
// it acts; a robot's restarts with every move, so it reacts to the latest
// state after its reaction time, as a person would (in real time it must
// not grab a set a few milliseconds after it appeared); the system's timer
// restarts with every move too, so "deal after a quiet pause" means what
// it says. Without the ClockGame capability a person has
// TurnTimeout, a robot (or a person the bot plays for) AIDelay, and the
// system moves at once.

// schedule sets the timers after a change. moved reports that an action was
// applied (the system's quiet pause starts again).
func (b *Bot) schedule(t *record.Table, g adapter.Game, st game.State, moved bool) {
	now := b.now()
	acting := st.ToAct()
	for i := range t.Seats {
		s := &t.Seats[i]
		if !slices.Contains(acting, game.Seat(i)) || moved && !s.Human() {
			s.Due = time.Time{}
		}
		if !slices.Contains(acting, game.Seat(i)) || !s.Due.IsZero() {
			continue // nothing to do, or still running
		}
		if d, ok := b.delay(t, g, st, game.Seat(i)); ok {
			s.Due = now.Add(d)
		}
	}
	if !slices.Contains(acting, game.System) {
		t.SystemAt = time.Time{}
		return
	}
	if moved || t.SystemAt.IsZero() {
		t.SystemAt = time.Time{}
		if d, ok := b.delay(t, g, st, game.System); ok {
			t.SystemAt = now.Add(d)
		}
	}
}

// delay is how long the bot waits before acting for seat s.
func (b *Bot) delay(t *record.Table, g adapter.Game, st game.State, s game.Seat) (time.Duration, bool) {
	ts := t.Seat(s)
	if c, ok := g.(adapter.ClockGame); ok {
		level := ""
		if ts != nil && !ts.Human() {
			level = ts.AI
		}
		return c.Delay(adapter.View(t), st, s, level, seatSeed(t)^uint64(s+2))
	}
	switch {
	case ts == nil:
		return 0, true // the system: at once
	case ts.Auto():
		return b.cfg.AIDelay, true
	}
	return b.turnTime(t), true
}

// fireTimer acts for every seat whose timer has run out: the system makes
// its move; a robot moves (or, in real time, looks again later); a person
// times out, and after two timeouts in a row the bot keeps playing for them
// until they press «I'm back». Every seat due now moves in this one change,
// so people acting at the same time time out together.
func (b *Bot) fireTimer(ctx context.Context, id string) error {
	_, _, err := b.transact(ctx, id, 0, b.fireDue)
	if errors.Is(err, errNoChange) {
		return nil
	}
	return err
}

// fireDue is fireTimer's change: every seat due now acts, in the engine's
// order, and the table names everyone whose time ran out.
func (b *Bot) fireDue(t *record.Table, ch *change) error {
	if t.Phase != record.PhasePlaying {
		return errNoChange
	}
	g, st, err := b.decode(t)
	if err != nil {
		return err
	}
	if t.NextTimer().IsZero() {
		// A record written before per-seat timers, or one whose timers
		// were lost: start them now rather than stall the game.
		b.schedule(t, g, st, false)
		if t.NextTimer().IsZero() {
			return errNoChange
		}
		return nil
	}
	now := b.now()
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
		return errNoChange
	}
	var timedOut []int // people whose time ran out together: the table names them all
	for len(due) > 0 && t.Phase == record.PhasePlaying {
		seat, ok := nextDue(st.ToAct(), due)
		if !ok {
			break
		}
		delete(due, seat)
		if err := b.actFor(t, ch, g, st, seat); err != nil {
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
		b.schedule(t, g, st, false)
	}
	return nil
}

// nextDue picks the first due seat among those to act, in the engine's order.
func nextDue(acting []game.Seat, due map[game.Seat]bool) (game.Seat, bool) {
	for _, s := range acting {
		if due[s] {
			return s, true
		}
	}
	return 0, false
}

// actFor makes the bot's move for a due seat (a real-time robot may choose
// to wait instead).
func (b *Bot) actFor(t *record.Table, ch *change, g adapter.Game, st game.State, seat game.Seat) error {
	legal := st.Legal(seat)
	if len(legal) == 0 {
		return nil
	}
	s := t.Seat(seat)
	if seat == game.System {
		// The system's move is the first it may make (a deal, the next round).
		return b.apply(t, ch, g, st, seat, legal[0], true)
	}
	b.metrics.timeout()
	if !s.Auto() {
		s.Timeouts++
		t.Event = &record.Event{Key: "event.timeout", Seat: int(seat)}
	}
	level := s.AI
	if s.Human() {
		level = "" // a person's timeout: the simplest player moves, quickly
	}
	a := legal[0]
	if r, ok := g.(adapter.RobotGame); ok {
		choice, move := r.Auto(st, seat, adapter.Decision{Level: level, Seed: seatSeed(t), Memory: t.Memory, Budget: b.cfg.AIBudget})
		if !move {
			// A real-time robot waits: it looks again after its reaction time.
			s.Due = time.Time{}
			return nil
		}
		a = choice
		if !slices.Contains(legal, a) {
			// A robot must never stall a game: fall back to a legal move.
			b.log.Error().Str("table", t.ID).Int("seat", int(seat)).Int("action", int(a)).Msg("robot chose an illegal move")
			a = legal[0]
		}
	}
	return b.apply(t, ch, g, st, seat, a, true)
}

// seatSeed derives the seed of the bot's n-th automatic decision, so a game
// replays identically from its seed and log.
func seatSeed(t *record.Table) uint64 {
	x := t.Seed + uint64(len(t.Log)+1)*0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	return x
}
