package txn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/internal/clock"
	"github.com/trickchef/trickchef/bot/internal/retry"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/safe"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// A table whose game cannot go on is fenced off, so it costs nobody
// anything more: its record, its state, or an outbox entry of it that
// cannot be read (a bad deploy, a codec change, a disk fault, a key broken
// by hand), or its changes panicking again and again (an engine's, a
// robot's or a rendering's bug). The game is stopped at once: its record
// is set aside in the store as it was (store.BrokenKey, the unreadable
// entry beside it) for a person to look at, the table goes idle with
// Table.Broken saying which game broke and why, the group is told once, in
// plain words, that this game cannot go on and how to start another, and
// every press of that game's buttons is answered so. /newgame works there
// again at once; nothing is retried. Other tables never notice.
//
// The way there never reads again what could not be read: a record that
// cannot be decoded is started afresh from its id and defaults (salvage),
// and the game's state is never decoded on it at all — a decoder that
// panics cannot panic in the recovery from its own panic.

// brokenError is a change that failed because the table's game cannot go
// on: Transact fences the table off.
type brokenError struct{ reason string }

func (e *brokenError) Error() string { return "broken: " + e.reason }

// Broken wraps err, a failure of the game itself with the table's state.
func Broken(err error) error { return &brokenError{reason: err.Error()} }

// strikePolicy fences off a table whose changes or servings fail (a panic,
// a view its game cannot draw) three times within ten minutes of each
// other, wherever they ran: the count is the store's (bot/internal/retry),
// so replicas and restarts count together.
var strikePolicy = retry.Policy{Limit: 3, First: time.Second, Max: time.Second, Window: 10 * time.Minute}

// strikeKey is the key of a table's failures in the store.
func strikeKey(id string) string { return "table:" + id }

// struckOut counts a failure of table id and reports whether it is the
// one that fences it off. A failure the store cannot count is not counted
// (a sick store must never fence a table off).
func (c *Txn) struckOut(ctx context.Context, id, reason string) bool {
	a, err := strikePolicy.Begin(ctx, c.store, strikeKey(id), "")
	if err != nil {
		c.log.Warn().Err(err).Str("table", id).Str("reason", reason).Msg("table failed; the failure could not be counted")
		return false
	}
	if !a.Last() {
		c.log.Warn().Str("table", id).Str("reason", reason).Int("failures", a.N).Msg("table failed; fenced off if it keeps failing")
		return false
	}
	return true
}

// Strike counts a failure of table id (a panic while changing or serving
// it), and fences it off on the last straw.
func (c *Txn) Strike(ctx context.Context, id, reason string) {
	if !c.struckOut(ctx, id, reason) {
		return
	}
	if err := c.quarantine(ctx, id, reason, nil); err != nil {
		c.log.Error().Err(err).Str("table", id).Msg("broken table not fenced off; will try again")
	}
}

// guardPanics runs fn and turns a panic (logged with its stack and
// counted) into a broken error once the table's strikes ran out, or an
// error the press is answered «try again» for before.
func (c *Txn) guardPanics(ctx context.Context, id string, fn func() error) error {
	var err error
	v := safe.Call(c.log.With().Str("table", id).Logger(), c.metrics.Panic, "changing a table", func() { err = fn() })
	switch {
	case v == nil:
		return err
	case c.struckOut(ctx, id, fmt.Sprint("panic: ", v)):
		return &brokenError{reason: fmt.Sprint("panic: ", v)}
	}
	return refusal.ErrBusy
}

// unreadableError is a record that cannot be decoded: the bytes, and why.
type unreadableError struct {
	data []byte
	err  error
}

func (e *unreadableError) Error() string { return "record unreadable: " + e.err.Error() }

// decodeRecord decodes a table record; a decoder's panic is an error
// like any other (logged and counted).
func (c *Txn) decodeRecord(data []byte) (t *record.Table, err error) {
	if v := safe.Call(c.log, c.metrics.Panic, "decoding a table record", func() { t, err = record.Decode(data) }); v != nil {
		return nil, fmt.Errorf("panic: %v", v)
	}
	return t, err
}

// quarantine fences table id off (see above). bad, if not nil, is a
// record just found unreadable: found still so, it is not decoded again.
// It is idempotent: a table whose game already broke, or that plays no
// game, stays as it is.
func (c *Txn) quarantine(ctx context.Context, id, reason string, bad []byte) error {
	for attempt := 0; attempt < maxCommitAttempts; attempt++ {
		rec, err := c.store.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var t *record.Table
		if bad != nil && bytes.Equal(rec.Data, bad) {
			err = errors.New(reason)
		} else {
			t, err = c.decodeRecord(rec.Data)
		}
		switch {
		case err != nil:
			// The record itself is unreadable: start it afresh from its id
			// and what the store knows beside it.
			t = c.salvage(ctx, id)
			reason = "record unreadable: " + strings.TrimPrefix(err.Error(), "record unreadable: ")
		case t.State == nil || t.Broken != nil && t.Broken.GameNo == t.GameNo:
			return nil // no game to stop, or stopped already
		}
		if err := c.store.SetPointer(ctx, store.BrokenKey(id, t.GameNo), string(rec.Data)); err != nil {
			return err
		}
		t.Broken = &record.Broken{GameNo: t.GameNo, At: c.now(), Reason: reason}
		CloseTable(t)
		t.State, t.Log, t.Memory = nil, nil, nil
		t.Jobs = dropResults(t.Jobs)
		if ct := t.CupOf; ct != nil {
			// A cup's round waits for every table: told nobody here is
			// ranked (as when everyone left, play.Leaving), it goes on.
			t.Jobs = append(t.Jobs, record.Job{Cup: &record.CupJob{Cup: ct.Cup, Round: ct.Round, Unranked: true}})
		}
		t.Event = &record.Event{Key: "event.broken"}
		t.Updated = c.now()
		data, err := t.Encode()
		if err != nil {
			return err
		}
		note := outbox.Entry{ChatID: t.ChatID, Thread: t.Thread, Message: adapter.Message{Text: c.views.Loc(t.Lang).T("broken.announce")}}
		out, err := note.Encode()
		if err != nil {
			return err
		}
		_, err = c.store.Commit(ctx, id, store.Change{Version: rec.Version, Data: data, Dirty: view.All(t),
			Outbox: [][]byte{out}, WakeAt: c.now(), TimerAt: NextDue(t, c.now())})
		switch {
		case errors.Is(err, store.ErrConflict):
			clock.Sleep(ctx, conflictBackoff(attempt))
			continue
		case err != nil:
			return err
		}
		c.metrics.Quarantined()
		c.log.Error().Str("table", id).Int("game", t.GameNo).Str("reason", reason).Str("kept", store.BrokenKey(id, t.GameNo)).
			Msg("table fenced off: its game cannot go on; the group was told, /newgame works there again")
		if err := c.store.ForgetAttempts(ctx, strikeKey(id)); err != nil {
			c.log.Debug().Err(err).Str("table", id).Msg("strikes not forgotten (they expire)")
		}
		c.Wake()
		return nil
	}
	return refusal.ErrBusy
}

// Unreadable fences off table id, a part of which cannot be read: its
// record (fenced off as it is loaded), its game's state, or an outbox
// entry (kept beside the record for a person: store.BrokenOutboxKey).
// Delivery tells it so.
func (c *Txn) Unreadable(ctx context.Context, id, reason string, entry []byte) error {
	t, _, err := c.Load(ctx, id)
	if err != nil {
		return err
	}
	if entry != nil {
		if err := c.store.SetPointer(ctx, store.BrokenOutboxKey(id, t.GameNo), string(entry)); err != nil {
			return err
		}
	}
	return c.quarantine(ctx, id, reason, nil)
}

// dropResults are a broken table's jobs but its finished games: a game
// that broke has no result to record.
func dropResults(jobs []record.Job) []record.Job {
	var out []record.Job
	for _, j := range jobs {
		if j.Result == nil {
			out = append(out, j)
		}
	}
	return out
}

// salvage is a fresh record for a table whose record cannot be read,
// made without reading it: the chat from the table id, the language the
// bot defaults to, idle, the number of the game whose views the store
// keeps message records of (so the broken game's buttons are recognised
// and answered so, and its group table is redrawn in place), and its
// place in a cup's round its cup's host holds it to.
func (c *Txn) salvage(ctx context.Context, id string) *record.Table {
	chat, thread, _ := record.ParseID(id)
	t := &record.Table{ID: id, ChatID: chat, Thread: thread, Lang: c.defaultLang, Phase: record.PhaseIdle}
	if msgs, err := c.store.Messages(ctx, id); err == nil {
		for v := range msgs {
			if _, gameNo, _, ok := view.Parse(v); ok && gameNo > t.GameNo {
				t.GameNo = gameNo
			}
		}
	}
	if t.GameNo == 0 {
		// Nothing to go by: a number no button of the broken game can
		// carry by chance, so its buttons are refused as stale.
		t.GameNo = 1 << 20
	}
	if c.cupOf != nil {
		// A cup's round waits for this table: it stays the cup's, so
		// fencing it off tells the cup (quarantine) as for a readable one.
		if ct, ok := c.cupOf(ctx, id); ok {
			t.CupOf = &ct
		}
	}
	return t
}

// Peek is table id's record as stored, decoded, or an error: nothing is
// fenced off or changed (a reader of another table's record, which that
// table's own load fences off).
func (c *Txn) Peek(ctx context.Context, id string) (*record.Table, error) {
	rec, err := c.store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	return c.decodeRecord(rec.Data)
}

// BrokenButton refuses a press of a broken game's button, saying so.
func BrokenButton(t *record.Table, p callback.Data) error {
	if t.Broken != nil && p.GameNo == t.Broken.GameNo && p.GameNo != 0 {
		return refusal.New("error.broken")
	}
	return nil
}
