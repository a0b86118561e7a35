package tables

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// A table whose game cannot go on is fenced off, so it costs nobody
// anything more: its state its game cannot read (a bad deploy, a codec
// change, a disk fault), or its changes panicking again and again (an
// engine's, a robot's or a rendering's bug). The game is stopped at once:
// its record is set aside in the store as it was (store.BrokenKey) for a
// person to look at, the table goes idle with Table.Broken saying which
// game broke and why, the group is told once, in plain words, that this
// game cannot go on and how to start another, and every press of that
// game's buttons is answered so. /newgame works there again at once;
// nothing is retried. Other tables never notice.

// brokenError is a change that failed because the table's game cannot go
// on: transact fences the table off.
type brokenError struct{ reason string }

func (e *brokenError) Error() string { return "broken: " + e.reason }

// broken wraps err, a failure of the game itself with the table's state.
func broken(err error) error { return &brokenError{reason: err.Error()} }

// strikesToBreak is how many failures of one table's changes (panics, a
// rendering that fails) within strikeWindow fence it off.
const (
	strikesToBreak = 3
	strikeWindow   = 10 * time.Minute
)

// strikes counts, in this process, the recent failures of each table that
// are not yet proof it is broken (a panic may be a rare race); bounded.
type strikes struct {
	mu sync.Mutex
	at map[string][]time.Time
}

// add counts a failure of table id now and reports whether it is the one
// that makes it broken.
func (s *strikes) add(id string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.at == nil || len(s.at) > 10000 {
		s.at = map[string][]time.Time{}
	}
	var recent []time.Time
	for _, t := range s.at[id] {
		if now.Sub(t) < strikeWindow {
			recent = append(recent, t)
		}
	}
	recent = append(recent, now)
	if len(recent) >= strikesToBreak {
		delete(s.at, id)
		return true
	}
	s.at[id] = recent
	return false
}

// strike counts a failure of table id (a panic while changing or serving
// it, a view its game cannot draw), and fences it off on the last straw.
func (c *core) strike(ctx context.Context, id, reason string) {
	if !c.failures.add(id, c.now()) {
		c.log.Warn().Str("table", id).Str("reason", reason).Msg("table failed; fenced off if it keeps failing")
		return
	}
	if err := c.quarantine(ctx, id, reason); err != nil {
		c.log.Error().Err(err).Str("table", id).Msg("broken table not fenced off; will try again")
	}
}

// guardPanics runs fn and turns a panic into a broken error after the
// table's strikes ran out, or an error the press is answered «try again»
// for before (logged with its stack either way).
func (c *core) guardPanics(ctx context.Context, id string, fn func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			reason := fmt.Sprint("panic: ", v)
			c.log.Error().Str("table", id).Str("panic", fmt.Sprint(v)).Str("stack", string(debug.Stack())).Msg("panic while changing a table")
			c.metrics.Panic()
			if c.failures.add(id, c.now()) {
				err = &brokenError{reason: reason}
				return
			}
			err = refusal.ErrBusy
		}
	}()
	return fn()
}

// quarantine fences table id off (see above). It is idempotent: a table
// whose game already broke, or that plays no game, stays as it is.
func (c *core) quarantine(ctx context.Context, id, reason string) error {
	for attempt := 0; attempt < maxCommitAttempts; attempt++ {
		rec, err := c.store.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		t, err := record.Decode(rec.Data)
		switch {
		case err != nil:
			// The record itself is unreadable: start it afresh from what can
			// still be read of it.
			t = salvage(id, rec.Data, c.cfg.DefaultLang)
			reason = "record unreadable: " + err.Error()
		case t.State == nil || t.Broken != nil && t.Broken.GameNo == t.GameNo:
			return nil // no game to stop, or stopped already
		}
		if err := c.store.SetPointer(ctx, store.BrokenKey(id, t.GameNo), string(rec.Data)); err != nil {
			return err
		}
		t.Broken = &record.Broken{GameNo: t.GameNo, At: c.now(), Reason: reason}
		closeTable(t)
		t.State, t.Log, t.Memory = nil, nil, nil
		t.Jobs = dropResults(t.Jobs)
		t.Event = &record.Event{Key: "event.broken"}
		t.Updated = c.now()
		data, err := t.Encode()
		if err != nil {
			return err
		}
		note := outbox.Entry{ChatID: t.ChatID, Thread: t.Thread, Message: adapter.Message{Text: c.loc(t.Lang).T("broken.announce")}}
		out, err := note.Encode()
		if err != nil {
			return err
		}
		_, err = c.store.Commit(ctx, id, store.Change{Version: rec.Version, Data: data, Dirty: view.All(t),
			Outbox: [][]byte{out}, WakeAt: c.now(), TimerAt: nextDue(t, c.now())})
		switch {
		case errors.Is(err, store.ErrConflict):
			sleep(ctx, conflictBackoff(attempt))
			continue
		case err != nil:
			return err
		}
		c.metrics.Quarantined()
		c.log.Error().Str("table", id).Int("game", t.GameNo).Str("reason", reason).Str("kept", store.BrokenKey(id, t.GameNo)).
			Msg("table fenced off: its game cannot go on; the group was told, /newgame works there again")
		c.wake()
		return nil
	}
	return refusal.ErrBusy
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

// salvage is a fresh record for a table whose record cannot be read: what
// can still be read of it (its game number, so the broken game's buttons
// are recognised, its language and title), idle.
func salvage(id string, data []byte, lang string) *record.Table {
	chat, thread, _ := record.ParseID(id)
	var some struct {
		GameNo int    `json:"game_no"`
		Lang   string `json:"lang"`
		Title  string `json:"title"`
	}
	_ = json.Unmarshal(data, &some) // what it reads, it keeps
	t := &record.Table{ID: id, ChatID: chat, Thread: thread, Lang: lang, Title: some.Title, Phase: record.PhaseIdle,
		GameNo: some.GameNo}
	if some.Lang != "" {
		t.Lang = some.Lang
	}
	if t.GameNo == 0 {
		// Nothing readable: a number no button of the broken game can
		// carry by chance, so its buttons are refused as stale.
		t.GameNo = 1 << 20
	}
	return t
}

// brokenButton refuses a press of a broken game's button, saying so.
func brokenButton(t *record.Table, p callback.Data) error {
	if t.Broken != nil && p.GameNo == t.Broken.GameNo && p.GameNo != 0 {
		return refusal.New("error.broken")
	}
	return nil
}
