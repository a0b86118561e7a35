package tables

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
)

// jobs does the work a change left on its table (record.Job), in order,
// when the timers reach the table: a finished game is recorded and rated
// once (the results role), then each person who played it gets their own
// result in private; a group's results command is answered once every
// game before it is recorded. Each job is done outside the transaction
// (it reads or writes the results), then dropped in a change of the table
// that also queues what it has to say; a crash in between does it again,
// which the results make harmless (a game is recorded once by its id).
type jobs struct {
	*core
	reviews *reviewing
	cups    *cupRunner // a cup's host jobs, and a cup's table ending (cups.go)
}

// run does t's jobs in order until one fails (it is tried again later).
func (j *jobs) run(ctx context.Context, t *record.Table) error {
	for _, job := range t.Jobs {
		var err error
		switch {
		case job.Result != nil:
			if err = j.cups.ended(ctx, t, job.Result); err == nil {
				err = j.recordResult(ctx, t.ID, job)
			}
		case job.Cup != nil:
			err = j.cups.run(ctx, t, job)
		case job.Query != nil:
			err = j.answer(ctx, t, job)
		default:
			err = j.done(ctx, t.ID, job, nil) // nothing to do: an empty job
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// recordResult records a finished game and queues the private results.
func (j *jobs) recordResult(ctx context.Context, id string, job record.Job) error {
	e := job.Result
	if job.Finished != nil {
		// Kept before the people are offered its review.
		if err := j.reviews.keep(ctx, job.Finished); err != nil {
			return err
		}
	}
	changes, err := j.results.Record(ctx, e)
	if err != nil {
		return err
	}
	return j.done(ctx, id, job, func(t *record.Table, ch *change) {
		if t.ResultsSent == e.ID || !j.results.Valid(e) || e.GameNo == 0 {
			return // sent already, malformed, or queued before private results existed
		}
		t.ResultsSent = e.ID
		t.WebRatings = j.results.WebRatings(e, changes)
		file, hasFile := dealFile(j.loc(t.Lang), j.games, job.DealFile)
		if view.PracticeChat(t.ChatID) {
			// A practice table's chat is the person's: it saw the result,
			// and gets the game's file there.
			if hasFile {
				ch.outbox = append(ch.outbox, outbox.Entry{ChatID: t.ChatID, Message: file.Message, Document: file.Document})
			}
			return
		}
		for i, s := range e.Seats {
			user, ok := record.PlayerUser(s.Player)
			if !ok || s.Left {
				continue
			}
			if seat := t.SeatOf(user); seat >= 0 && t.Seats[seat].Unreachable {
				continue // the bot cannot write to them: a call for nothing
			}
			var rc *record.RatingChange
			if i < len(changes) {
				rc = &changes[i]
			}
			m := j.results.PrivateResult(t, e, i, rc)
			if f := job.Finished; f != nil && f.PlayedBy(user) >= 0 {
				m.Keyboard = append(m.Keyboard, []adapter.Button{view.ReviewButton(j.loc(t.Lang), f)})
			}
			ch.outbox = append(ch.outbox, outbox.Entry{ChatID: user, Message: m})
			if hasFile {
				ch.outbox = append(ch.outbox, outbox.Entry{ChatID: user, Message: file.Message, Document: file.Document})
			}
		}
	})
}

// answer renders a group's results command and queues the answer.
func (j *jobs) answer(ctx context.Context, t *record.Table, job record.Job) error {
	m := j.results.Answer(ctx, t, job.Query)
	return j.done(ctx, t.ID, job, func(t *record.Table, ch *change) {
		ch.outbox = append(ch.outbox, outbox.Entry{ChatID: t.ChatID, Thread: t.Thread, Message: m, Reply: true})
	})
}

// done drops job, the table's first, in a change that also does then (nil:
// nothing more). A job already gone (another replica did it) is fine.
func (j *jobs) done(ctx context.Context, id string, job record.Job, then func(t *record.Table, ch *change)) error {
	_, _, err := j.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		if len(t.Jobs) == 0 || !reflect.DeepEqual(t.Jobs[0], job) {
			return refusal.ErrNoChange
		}
		t.Jobs = t.Jobs[1:]
		if len(t.Jobs) == 0 {
			t.Jobs = nil
		}
		if then != nil {
			then(t, ch)
		}
		return nil
	})
	return refusal.Settle(err)
}

// adopt takes over an outbox entry an older version queued for delivery
// to resolve: a finished game, or a results command, becomes the table's
// job, at the end of its jobs. (A crash between this and the entry's ack
// adopts it again: recording is idempotent, an answer is given twice.)
func (j *jobs) adopt(ctx context.Context, id string, entry []byte) error {
	var old struct {
		Result *record.Result `json:"result"`
		Query  *record.Query  `json:"query"`
	}
	if err := json.Unmarshal(entry, &old); err != nil {
		return fmt.Errorf("adopt %s: %w", id, err)
	}
	job := record.Job{Result: old.Result, Query: old.Query}
	if job.Result == nil && job.Query == nil {
		return nil
	}
	_, _, err := j.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		for _, have := range t.Jobs {
			if reflect.DeepEqual(have, job) {
				return refusal.ErrNoChange
			}
		}
		t.Jobs = append(t.Jobs, job)
		return nil
	})
	if errors.Is(err, refusal.ErrNoChange) {
		return nil
	}
	return err
}

// legacyResult is the finished game an older version's outbox entry
// carries, or nil.
func legacyResult(entry []byte) *record.Result {
	var old struct {
		Result *record.Result `json:"result"`
	}
	if json.Unmarshal(entry, &old) != nil {
		return nil
	}
	return old.Result
}
