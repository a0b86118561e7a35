package cupplay

import (
	"context"
	"slices"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/cup"
	"github.com/trickchef/trickchef/bot/cups"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/txn"
)

// Run does one of the host's cup jobs (the jobs drop it when it is
// done), or a round's table's own (Unranked: h is that table); each step
// is a change of one table that finds it done already when it was (a
// crash in between does it again). These, and Ended, are the only parts
// that change other tables than the host.
func (c *Cups) Run(ctx context.Context, h *record.Table, job record.Job) error {
	cj, env := job.Cup, c.envAt(ctx)
	switch {
	case cj.Unranked:
		ct, ok := record.CupTable{}, false
		if h.CupOf != nil {
			ct, ok = *h.CupOf, true
		} else {
			// Opened afresh since (a lobby, within a limit raised since the
			// cup began): its cup's host still waits for it.
			ct, ok = c.Owner(ctx, h.ID)
		}
		if ok && ct.Cup == cj.Cup && ct.Round == cj.Round {
			return c.tell(ctx, ct, nil)
		}
	case cj.Crown:
		if game, users, ok := env.Winners(h, cj.Cup); ok {
			_, _, err := c.tx.Transact(ctx, record.Sibling(h.ID, 1), 0, func(t *record.Table, ch *txn.Change) error {
				t.Crown(game, users, c.now())
				return nil
			})
			return refusal.Settle(err)
		}
	case cj.Stop:
		for _, id := range env.Tables(h, cj.Cup, cj.Round) {
			if err := c.stopTable(ctx, id, h, cj); err != nil {
				return err
			}
		}
	case cj.Leaver != 0:
		if id, _ := env.Seat(h, cj.Cup, cj.Round, cj.Leaver); id != "" {
			return c.leaveTable(ctx, id, h, cj)
		}
	default:
		specs, _ := env.Round(h, cj.Cup, cj.Round)
		for _, sp := range specs {
			if err := c.openTable(ctx, h, sp); err != nil {
				return err
			}
		}
	}
	return nil
}

// openTable opens and deals a table of a cup's round, once: a table
// above the group's limit is the cup's, so whatever was left there is
// closed first.
func (c *Cups) openTable(ctx context.Context, h *record.Table, sp cups.Spec) error {
	_, _, err := c.tx.Transact(ctx, sp.ID, 0, func(t *record.Table, ch *txn.Change) error {
		if t.CupOf != nil && *t.CupOf == sp.CupOf {
			return refusal.ErrNoChange // opened already
		}
		if t.Phase != record.PhaseIdle {
			txn.CloseTable(t)
		}
		lobby.OpenLobby(t, sp.Game, record.Seat{})
		t.Seats = slices.Clone(sp.Seats)
		t.Lang, t.Title, t.Zone = h.Lang, h.Title, h.Zone
		t.TurnTime, t.AILevel = sp.TurnTime, sp.Level
		cupOf := sp.CupOf
		t.CupOf = &cupOf
		return c.lobby.StartGame(ctx, t, ch)
	})
	return refusal.Settle(err)
}

// ofRound reports whether t is playing round cj's game of the cup at h.
func ofRound(t, h *record.Table, cj *record.CupJob) bool {
	return t.CupOf != nil && t.CupOf.Host == h.ID && t.CupOf.Cup == cj.Cup && t.CupOf.Round == cj.Round && t.Phase == record.PhasePlaying
}

// stopTable stops a cup's table still playing its round.
func (c *Cups) stopTable(ctx context.Context, id string, h *record.Table, cj *record.CupJob) error {
	_, _, err := c.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		if !ofRound(t, h, cj) {
			return refusal.ErrNoChange
		}
		txn.CloseTable(t)
		t.Event = &record.Event{Key: "event.cup_stopped"}
		return nil
	})
	return refusal.Settle(err)
}

// leaveTable hands a person who left the cup their seat at the round's
// table to a robot. A table nobody is left at that had no robot ends
// with no result (play.Leaving); its cup is told everyone shares its
// last place, so the round goes on: told here at once, and again,
// harmlessly, by the table's own job (play.Leaving leaves it, as for a
// person who leaves by the table's button).
func (c *Cups) leaveTable(ctx context.Context, id string, h *record.Table, cj *record.CupJob) error {
	var ended *record.CupTable
	_, _, err := c.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		ended = nil
		if !ofRound(t, h, cj) {
			return refusal.ErrNoChange
		}
		seat := t.SeatOf(cj.Leaver)
		if seat < 0 {
			return refusal.ErrNoChange
		}
		g, st, err := txn.Decode(c.views, t)
		if err != nil {
			return err
		}
		jobs := len(t.Jobs)
		if err := c.leaving.Leave(t, ch, g, st, seat); err != nil {
			return err
		}
		if t.Phase == record.PhaseIdle && !slices.ContainsFunc(t.Jobs[jobs:], func(j record.Job) bool { return j.Result != nil }) {
			ended = t.CupOf
		}
		return nil
	})
	if err := refusal.Settle(err); err != nil || ended == nil {
		return err
	}
	return c.tell(ctx, *ended, nil)
}

// Ended tells the cup that table t, one of its round's, finished game e:
// its places in seat order. Done before the result is recorded, in the
// same job, so a crash tells it again (the cup takes the same result
// twice as once).
func (c *Cups) Ended(ctx context.Context, t *record.Table, e *record.Result) error {
	if c == nil || t.CupOf == nil || e == nil || e.GameNo != t.GameNo {
		return nil
	}
	_, st, err := txn.Decode(c.views, t)
	if err != nil {
		return nil // a broken table: nothing to tell
	}
	places := make([]cup.Place, len(t.Seats))
	for _, f := range adapter.FinalList(adapter.View(t), st.Result(), st.Over()) {
		if f.Seat >= 0 && f.Seat < len(places) {
			places[f.Seat] = cup.Place{Place: f.Place, Score: f.Score}
		}
	}
	return c.tell(ctx, *t.CupOf, places)
}

// tell records a table's places with its cup; nil: nobody is ranked
// (the cup knows the table's seats, whatever is left of its record).
func (c *Cups) tell(ctx context.Context, ct record.CupTable, places []cup.Place) error {
	_, _, err := c.tx.Transact(ctx, ct.Host, 0, func(h *record.Table, ch *txn.Change) error {
		return c.change(ctx, h, ch, false, func() (cups.Out, error) {
			return c.envAt(ctx).Ended(h, ct, places)
		})
	})
	return refusal.Settle(err)
}

// Gone takes a person who left the group out of the cup of own's chat
// (and forum topic), after belonging took their seats elsewhere: the
// tables of the cup's round are the cup's to unseat.
func (c *Cups) Gone(ctx context.Context, updateID int64, own string, user int64) error {
	_, _, err := c.tx.Transact(ctx, host(own), updateID, func(h *record.Table, ch *txn.Change) error {
		if h.Cup == nil {
			return refusal.ErrNoChange
		}
		return c.change(ctx, h, ch, false, func() (cups.Out, error) { return c.envAt(ctx).Gone(h, user) })
	})
	return refusal.Settle(err)
}

// Owner is the place of table id in the round its cup's host is playing,
// read from the host (txn.CupOf): false for the host itself, a table no
// round waits for, a round whose opening job has yet to run (it opens
// the table itself), or a host that cannot be read.
func (c *Cups) Owner(ctx context.Context, id string) (record.CupTable, bool) {
	if host(id) == id {
		return record.CupTable{}, false
	}
	h, err := c.tx.Peek(ctx, host(id))
	if err != nil || h.Cup == nil {
		return record.CupTable{}, false
	}
	return c.envAt(ctx).TableOf(h, id)
}
