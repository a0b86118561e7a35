package standings

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
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
)

// Jobs does the work a change left on its table (record.Job), in order,
// when the timers reach the table: a finished game is recorded and rated
// once (the results role), then each person who played it gets their own
// result in private; a group's results command is answered once every
// game before it is recorded. Each job is done outside the transaction
// (it reads or writes the results), then dropped in a change of the table
// that also queues what it has to say; a crash in between does it again,
// which the results make harmless (a game is recorded once by its id).
type Jobs struct {
	reviews *Reviews
	results Recorder
	tx      *txn.Txn
	views   *view.Renderer
	games   view.Games
	cups    Cups // nil: no cups
}

// Cups is what the jobs ask of a group's cup (bot/tables/cupplay): a
// host's cup jobs, and a cup's table telling its cup that it ended.
type Cups interface {
	// Run does one of the host's cup jobs; the jobs then drop it.
	Run(ctx context.Context, host *record.Table, job record.Job) error
	// Ended tells the cup of t (if any) that t finished game e.
	Ended(ctx context.Context, t *record.Table, e *record.Result) error
}

// WithCups lets the jobs run the cups' jobs.
func (j *Jobs) WithCups(c Cups) { j.cups = c }

// Recorder is what the jobs ask of the results role.
type Recorder interface {
	// Record stores a finished game once and rates it: the seats' rating
	// changes, nil when this call did not rate it.
	Record(ctx context.Context, e *record.Result) ([]record.RatingChange, error)
	// Valid reports whether a finished game can be recorded at all.
	Valid(e *record.Result) bool
	// PrivateResult is seat i's own result of e, in private; again
	// offers «play again».
	PrivateResult(t *record.Table, e *record.Result, i int, rc *record.RatingChange, again bool) adapter.Message
	// WebRatings are the rating changes the page shows, by player id.
	WebRatings(e *record.Result, changes []record.RatingChange) map[string][2]float64
	// Answer renders a group's results command.
	Answer(ctx context.Context, t *record.Table, q *record.Query) adapter.Message
}

// NewJobs builds the jobs.
func NewJobs(reviews *Reviews, res Recorder, tx *txn.Txn, views *view.Renderer) *Jobs {
	return &Jobs{reviews: reviews, results: res, tx: tx, views: views, games: views.Games()}
}

// Run does t's jobs in order until one fails (it is tried again later).
func (j *Jobs) Run(ctx context.Context, t *record.Table) error {
	for _, job := range t.Jobs {
		var err error
		switch {
		case job.Result != nil:
			if err = j.cupEnded(ctx, t, job.Result); err == nil {
				err = j.recordResult(ctx, t.ID, job)
			}
		case job.Cup != nil && j.cups != nil:
			if err = j.cups.Run(ctx, t, job); err == nil {
				err = j.done(ctx, t.ID, job, nil)
			}
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

// cupEnded tells a cup's table's cup that it ended, before its result
// is recorded in the same job (a crash tells it again, harmlessly).
func (j *Jobs) cupEnded(ctx context.Context, t *record.Table, e *record.Result) error {
	if j.cups == nil {
		return nil
	}
	return j.cups.Ended(ctx, t, e)
}

// recordResult records a finished game and queues the private results.
func (j *Jobs) recordResult(ctx context.Context, id string, job record.Job) error {
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
	return j.done(ctx, id, job, func(t *record.Table, ch *txn.Change) {
		if t.ResultsSent == e.ID || !j.results.Valid(e) || e.GameNo == 0 {
			return // sent already, malformed, or queued before private results existed
		}
		t.ResultsSent = e.ID
		t.WebRatings = j.results.WebRatings(e, changes)
		file, hasFile := lobby.DealFile(j.views.Loc(t.Lang), j.games, job.DealFile)
		if view.PracticeChat(t.ChatID) {
			// A practice table's chat is the person's: it saw the result,
			// and gets the game's file there.
			if hasFile {
				ch.Outbox = append(ch.Outbox, outbox.Entry{ChatID: t.ChatID, Message: file.Message, Document: file.Document})
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
			m := j.results.PrivateResult(t, e, i, rc, j.views.Againable(t))
			if f := job.Finished; f != nil && f.PlayedBy(user) >= 0 {
				m.Keyboard = append(m.Keyboard, []adapter.Button{view.ReviewButton(j.views.Loc(t.Lang), f)})
			}
			ch.Outbox = append(ch.Outbox, outbox.Entry{ChatID: user, Message: m})
			if hasFile {
				ch.Outbox = append(ch.Outbox, outbox.Entry{ChatID: user, Message: file.Message, Document: file.Document})
			}
		}
	})
}

// answer renders a group's results command and queues the answer.
func (j *Jobs) answer(ctx context.Context, t *record.Table, job record.Job) error {
	m := j.results.Answer(ctx, t, job.Query)
	return j.done(ctx, t.ID, job, func(t *record.Table, ch *txn.Change) {
		ch.Outbox = append(ch.Outbox, outbox.Entry{ChatID: t.ChatID, Thread: t.Thread, Message: m, Reply: true})
		ch.MarkGroup(len(ch.Outbox) - 1)
	})
}

// done drops job, the table's first, in a change that also does then (nil:
// nothing more). A job already gone (another replica did it) is fine.
func (j *Jobs) done(ctx context.Context, id string, job record.Job, then func(t *record.Table, ch *txn.Change)) error {
	_, _, err := j.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
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

// Adopt takes over an outbox entry an older version queued for delivery
// to resolve: a finished game, or a results command, becomes the table's
// job, at the end of its jobs. (A crash between this and the entry's ack
// adopts it again: recording is idempotent, an answer is given twice.)
func (j *Jobs) Adopt(ctx context.Context, id string, entry []byte) error {
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
	_, _, err := j.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
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
