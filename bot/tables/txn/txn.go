// Package txn is the tables' one transaction and its fence: every change
// of a table record is applied to the latest record and committed with
// compare-and-set (retried on conflict), whatever the change says joins
// the table's outbox, and a table whose game cannot go on is fenced off
// (broken.go). Every other part of the tables changes a table through it.
package txn

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/internal/clock"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// Change collects what one mutation does besides rewriting the table. The
// closure that fills it is retried on conflicts, so it must be pure: no
// Telegram call and no store write. Effects are recorded here and carried
// out by the commit (the outbox) or after it (seated).
type Change struct {
	Outbox []outbox.Entry
	// Answer is the toast for the press that caused the change.
	Answer string
	// Seated are users whose /start pointer moves to this table after the
	// commit.
	Seated []int64
	// ViewRecord is the message record of the view TransactSeeing was asked
	// to read along ("" for none): input, not an effect.
	ViewRecord string
	// GroupZone is a time zone picked at a table 2 and on: the group's,
	// which the commit keeps at its table 1 too (afterCommit).
	GroupZone string
	// group marks the Outbox entries that are the group's, not the
	// table's: they are not named «Стол N» (PostGroup).
	group map[int]bool
	// Press is the callback query id of the press that caused the change
	// ("" for a command): drawn by Telegram, a v2 deal mixes it in when
	// it seats a person or starts the game (bot/tables/lobby).
	Press string
}

// Post queues a message to the table's chat (and topic).
func (ch *Change) Post(t *record.Table, m adapter.Message) {
	ch.Outbox = append(ch.Outbox, outbox.Entry{ChatID: t.ChatID, Thread: t.Thread, Message: m})
}

// PostGroup queues a message that is the group's, not the table's (a
// results answer, a recap, the help): it goes through table 1 like every
// group-wide message, and never carries the table's name (nameTable).
func (ch *Change) PostGroup(t *record.Table, m adapter.Message) {
	ch.Post(t, m)
	ch.MarkGroup(len(ch.Outbox) - 1)
}

// MarkGroup marks the i-th queued entry as the group's (see PostGroup).
func (ch *Change) MarkGroup(i int) {
	if ch.group == nil {
		ch.group = map[int]bool{}
	}
	ch.group[i] = true
}

// Replies marks what was posted since the n-th entry as replies: the
// answer to a command, which goes before the group's announcements and
// table edits.
func (ch *Change) Replies(n int) {
	for i := n; i < len(ch.Outbox); i++ {
		ch.Outbox[i].Reply = true
	}
}

const maxCommitAttempts = 8

// conflictBackoff is a random pause before retrying a lost
// compare-and-set, growing with the attempt, so racing replicas spread out.
func conflictBackoff(attempt int) time.Duration {
	return time.Duration(rand.Int64N(int64(attempt+1) * int64(2*time.Millisecond)))
}

// Transact is the tables' one transaction: it applies fn to the latest
// table and commits it with compare-and-set, retrying when another replica
// got there first. fn sees a fresh idle table when none exists. An error
// from fn commits nothing. updateID (if > 0) is recorded with the change,
// so a redelivered update is not applied twice.
func (c *Txn) Transact(ctx context.Context, id string, updateID int64, fn func(t *record.Table, ch *Change) error) (*record.Table, *Change, error) {
	return c.TransactSeeing(ctx, id, updateID, "", fn)
}

// TransactSeeing is Transact whose change also sees the message record of
// the view seeing (change.viewRecord), read with the table in one round trip on every
// attempt: a press on a hand message learns whether that message is the
// hand's current one without a read of its own.
func (c *Txn) TransactSeeing(ctx context.Context, id string, updateID int64, seeing string, fn func(t *record.Table, ch *Change) error) (*record.Table, *Change, error) {
	for attempt := 0; attempt < maxCommitAttempts; attempt++ {
		// A redelivered update must not be judged against the state its
		// first delivery produced (it would be refused as stale); the
		// first load asks along.
		check := updateID
		if attempt > 0 {
			check = 0
		}
		t, version, seen, viewRecord, err := c.loadFor(ctx, id, check, seeing)
		if err != nil {
			return nil, nil, err
		}
		if seen {
			return t, &Change{}, refusal.ErrDuplicate
		}
		ch := &Change{ViewRecord: viewRecord}
		err = c.guardPanics(ctx, id, func() error { return fn(t, ch) })
		var b *brokenError
		if errors.As(err, &b) {
			// The table's game cannot go on: fence it off, and say so.
			if qerr := c.quarantine(ctx, id, b.reason, nil); qerr != nil {
				return nil, nil, qerr
			}
			return t, ch, refusal.New("error.broken")
		}
		if err != nil {
			var r *refusal.Refusal
			if updateID > 0 && errors.As(err, &r) {
				// Refused because a copy of this very update (another
				// replica, a redelivery) changed the table first?
				if seen, aerr := c.store.Applied(ctx, id, updateID); aerr == nil && seen {
					return t, &Change{}, refusal.ErrDuplicate
				}
			}
			return t, ch, err
		}
		c.nameTable(t, ch) // «Стол 2» (core.go)
		t.Updated = c.now()
		c.mintToken(ctx, t)
		data, err := t.Encode()
		if err != nil {
			return nil, nil, err
		}
		sc := store.Change{
			Version:  version,
			Data:     data,
			UpdateID: updateID,
			Dirty:    view.All(t),
			// Deliver now.
			WakeAt:  c.now(),
			TimerAt: NextDue(t, c.now()),
		}
		for _, m := range ch.Outbox {
			raw, err := m.Encode()
			if err != nil {
				return nil, nil, err
			}
			sc.Outbox = append(sc.Outbox, raw)
		}
		_, err = c.store.Commit(ctx, id, sc)
		switch {
		case errors.Is(err, store.ErrConflict):
			c.metrics.Conflict()
			c.log.Debug().Str("table", id).Int("attempt", attempt).Msg("commit conflict, retrying")
			clock.Sleep(ctx, conflictBackoff(attempt))
			continue
		case errors.Is(err, store.ErrDuplicate):
			return t, ch, refusal.ErrDuplicate
		case err != nil:
			return nil, nil, fmt.Errorf("commit %s: %w", id, err)
		}
		c.Wake()
		c.afterCommit(ctx, t, ch)
		return t, ch, nil
	}
	return nil, nil, fmt.Errorf("commit %s: %w after %d attempts", id, refusal.ErrBusy, maxCommitAttempts)
}

// NextDue is when the tables' timers must look at t next: a finished game
// or a results command waiting (now), the earliest running timer of a
// game on, a page's lease running out; zero when nothing.
func NextDue(t *record.Table, now time.Time) time.Time {
	if len(t.Jobs) > 0 {
		return now
	}
	var at time.Time
	if t.Phase == record.PhasePlaying {
		at = t.NextTimer()
		if at.IsZero() && t.State != nil {
			// A game on with no timer running (a record from before per-seat
			// timers, or one whose timers were lost): the timers start them.
			at = now
		}
	}
	if w := view.WebExpiry(t); !w.IsZero() && (at.IsZero() || w.Before(at)) {
		at = w
	}
	return at
}

// afterCommit carries out what a committed change recorded for later.
// These are indexes for convenience, so a failure is logged, not retried.
func (c *Txn) afterCommit(ctx context.Context, t *record.Table, ch *Change) {
	if ch.GroupZone != "" {
		c.keepGroupZone(ctx, t, ch.GroupZone)
	}
	for _, user := range ch.Seated {
		if err := c.store.SetPointer(ctx, store.UserTableKey(user), t.ID); err != nil {
			c.log.Warn().Err(err).Str("table", t.ID).Msg("user pointer not set")
			continue
		}
		// A /start in private applied at the same time (chats go in
		// parallel) may have looked for this pointer before it was set:
		// each side writes, then reads what the other wrote, so one of
		// them always marks the seat reachable.
		if s := t.SeatOf(user); s >= 0 && t.Seats[s].Unreachable && c.HasStarted(ctx, user) {
			if err := refusal.Settle(c.Reachable(ctx, t.ID, user, false)); err != nil {
				c.log.Warn().Err(err).Str("table", t.ID).Msg("seat not marked reachable")
			}
		}
	}
}

// Reachable records that a user can (again) be written to, and posts their
// hand anew when repost is set.
func (c *Txn) Reachable(ctx context.Context, id string, user int64, repost bool) error {
	_, _, err := c.Transact(ctx, id, 0, func(t *record.Table, ch *Change) error {
		seat := t.SeatOf(user)
		if seat < 0 {
			return refusal.ErrNoChange
		}
		if !t.Seats[seat].Unreachable && !repost {
			return refusal.ErrNoChange
		}
		t.Seats[seat].Unreachable = false
		if repost && t.State != nil {
			t.Repost(view.Hand(t.GameNo, seat))
		}
		return nil
	})
	return err
}

// keepGroupZone sets the zone picked at table t (2 and on) as its group's,
// at table 1: what the seasons end by and what every later lobby starts
// from (lobby.Group.FollowOwn).
func (c *Txn) keepGroupZone(ctx context.Context, t *record.Table, zone string) {
	_, _, err := c.Transact(ctx, record.Sibling(t.ID, 1), 0, func(own *record.Table, _ *Change) error {
		if own.Zone == zone {
			return refusal.ErrNoChange
		}
		own.Zone = zone
		return nil
	})
	if err := refusal.Settle(err); err != nil {
		c.log.Warn().Err(err).Str("table", t.ID).Msg("the group's zone not kept at its table 1")
	}
}

// mintToken gives a table about to be committed its token (record.Table.Token),
// when it has none (tables from before tokens get one on their next
// change). The pointer is written before the commit, so a committed token
// always resolves; a commit that loses its race leaves a pointer nobody
// was shown, to the same table.
func (c *Txn) mintToken(ctx context.Context, t *record.Table) {
	if t.Token != "" {
		return
	}
	tok := record.NewTableToken()
	if err := c.store.SetPointer(ctx, store.TableTokenKey(tok), t.ID); err != nil {
		c.log.Warn().Err(err).Str("table", t.ID).Msg("table token not minted")
		return
	}
	t.Token = tok
}

// Load returns the table and its version, or a fresh idle table at version 0.
func (c *Txn) Load(ctx context.Context, id string) (*record.Table, int64, error) {
	t, version, _, _, err := c.loadFor(ctx, id, 0, "")
	return t, version, err
}

// loadFor is load, also telling whether updateID (if not 0) was already
// applied to the table, and the message record of view v (if not ""): one
// read of the store for all. A record that cannot be decoded is fenced off
// (broken.go) and the record that replaced it read instead, so whatever
// comes to the table — a press, a command, a timer — finds it idle, its
// broken game refused.
func (c *Txn) loadFor(ctx context.Context, id string, updateID int64, v string) (*record.Table, int64, bool, string, error) {
	t, version, seen, viewRecord, err := c.loadOnce(ctx, id, updateID, v)
	var bad *unreadableError
	if !errors.As(err, &bad) {
		return t, version, seen, viewRecord, err
	}
	if qerr := c.quarantine(ctx, id, bad.Error(), bad.data); qerr != nil {
		return nil, 0, false, "", fmt.Errorf("%w; not fenced off: %w", err, qerr)
	}
	return c.loadOnce(ctx, id, updateID, v)
}

// loadOnce is one read of loadFor's.
func (c *Txn) loadOnce(ctx context.Context, id string, updateID int64, v string) (*record.Table, int64, bool, string, error) {
	rec, seen, viewRecord, err := c.store.LoadFor(ctx, id, updateID, v)
	if errors.Is(err, store.ErrNotFound) {
		chat, thread, perr := record.ParseID(id)
		if perr != nil {
			return nil, 0, false, "", perr
		}
		return &record.Table{ID: id, ChatID: chat, Thread: thread, Lang: c.defaultLang, Phase: record.PhaseIdle}, 0, false, "", nil
	}
	if err != nil {
		return nil, 0, false, "", fmt.Errorf("load %s: %w", id, err)
	}
	t, err := c.decodeRecord(rec.Data)
	if err != nil {
		return nil, 0, false, "", &unreadableError{data: rec.Data, err: err}
	}
	return t, rec.Version, seen, viewRecord, nil
}

// Queue hands what an update has to say, and that changes no table, to
// delivery: it joins table id's outbox, recorded with the update (a
// redelivered update is not answered twice), and the handler returns at
// once. A private chat's outbox is its own table's, which holds nothing
// else until a game is played there.
func (c *Txn) Queue(ctx context.Context, id string, updateID int64, msgs ...outbox.Entry) error {
	sc := store.Change{OnlyQueue: true, UpdateID: updateID, WakeAt: c.now()}
	for _, m := range msgs {
		raw, err := m.Encode()
		if err != nil {
			return err
		}
		sc.Outbox = append(sc.Outbox, raw)
	}
	if _, err := c.store.Commit(ctx, id, sc); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return fmt.Errorf("queue %s: %w", id, err)
	}
	c.Wake()
	return nil
}

// Reply queues answers to an update in a private chat, through that
// chat's own outbox (see Queue).
func (c *Txn) Reply(ctx context.Context, updateID, chatID int64, msgs ...adapter.Message) error {
	out := make([]outbox.Entry, len(msgs))
	for i, m := range msgs {
		out[i] = outbox.Entry{ChatID: chatID, Message: m, Reply: true}
	}
	return c.Queue(ctx, record.ID(chatID, 0), updateID, out...)
}
