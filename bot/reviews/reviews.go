// Package reviews is the role that computes «🔍 Разбор»: a person asks for
// the top robot's review of a game they played (the tables take the press,
// answer it at once and queue the request in the store's Reviews queue);
// this role's workers take the requests one by one, replay the kept game
// (package review), keep the report with the game and send it to the
// person. A review costs up to a few seconds of CPU (docs/ai.md), so it
// never runs on the path of a press or a timer: a bounded pool of workers
// (Config.Workers, one by default) works through the queue, and a busy bot
// makes a review wait, never a move. Every replica runs the pool; a
// request is served by one at a time, and a crash leaves it queued for
// another. At most one review per person and game is computed: a request
// whose report is kept is answered from it.
package reviews

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/internal/lease"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// Store is what the reviews need of the store: the Reviews queue, the
// kept games and their reports, and a table's record (whether it still
// holds the game reviewed, for the replay's buttons).
type Store interface {
	lease.Store
	Load(ctx context.Context, table string) (store.Record, error)
	KeptGame(ctx context.Context, ref string) ([]byte, error)
	SetReview(ctx context.Context, ref string, user int64, data []byte) error
	Review(ctx context.Context, ref string, user int64) ([]byte, error)
}

// Tell queues a message to a person's private chat (the tables' outbox
// of that chat: delivery sends it).
type Tell func(ctx context.Context, user int64, m adapter.Message) error

// Config shapes the pool.
type Config struct {
	// Workers is how many reviews one replica computes at once (default
	// 1: on a small machine a review takes a core for up to a few seconds).
	Workers int
	// Playouts is the judging budget (review.Options); 0: each game's
	// judging default, more than its top level plays with.
	Playouts int
	// Share is the part of a core a worker may use while it reviews: after
	// each judgement it rests until its work is that share of the time
	// (default 0.25; 1 does not rest). A review's searches, and the
	// garbage they make, would otherwise crowd the presses of a busy bot
	// (docs/bot.md «Разбор»).
	Share float64
	// WebAppURL is the «Стол» page's address ("" when not served): the
	// review then has a button for each of its moments that opens the
	// game's replay at that move (?table=…&step=…&game=…), while the
	// table still holds the game (until its next lobby opens).
	WebAppURL string
}

// defaultShare is Config.Share's default: a quarter of a core.
const defaultShare = 0.25

// Reviews is the role. Build it with New.
type Reviews struct {
	cfg     Config
	store   Store
	games   view.Games
	tr      adapter.Translator
	tell    Tell
	log     zerolog.Logger
	metrics *metrics.Metrics
	loop    *lease.Loop
}

const (
	// lease bounds how long a crashed replica's request waits for
	// another: a review takes a few seconds of CPU (at a worker's
	// default share of a core, well under a minute), so a minute is
	// enough.
	reviewLease = time.Minute
	// retry is when a request that failed for a passing reason (the
	// store) is tried again.
	retry = 10 * time.Second
	// idle is how often an idle pool looks for requests other replicas
	// queued.
	idle = 2 * time.Second
)

// Params are what the role is built from: its tunables and dependencies.
type Params struct {
	Config     Config
	Store      Store
	Games      view.Games
	Translator adapter.Translator
	Tell       Tell
	Now        func() time.Time
	Log        zerolog.Logger
	Metrics    *metrics.Metrics // nil: not measured
}

// New builds the role.
func New(p Params) *Reviews {
	cfg, st, games, tr, tell, now, log, m := p.Config, p.Store, p.Games, p.Translator, p.Tell, p.Now, p.Log, p.Metrics
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Share <= 0 || cfg.Share > 1 {
		cfg.Share = defaultShare
	}
	r := &Reviews{cfg: cfg, store: st, games: games, tr: tr, tell: tell, log: log, metrics: m}
	r.loop = &lease.Loop{Name: "reviews", Queue: lease.Bind(st, store.Reviews), Lease: reviewLease, Workers: cfg.Workers,
		Idle: idle, Now: now, Log: log, Serve: r.serve, Panicked: r.panicked, Panics: m.Panic}
	return r
}

// Run computes the queued reviews until ctx is done.
func (r *Reviews) Run(ctx context.Context) error { return r.loop.Run(ctx) }

// Wake tells the pool a request was queued here (it looks at once).
func (r *Reviews) Wake() { r.loop.Wake() }

// serve computes one request; a zero time drops it from the queue.
func (r *Reviews) serve(ctx context.Context, name string) time.Time {
	ref, user, ok := store.ParseReviewRequest(name)
	if !ok {
		r.log.Error().Str("request", name).Msg("malformed review request dropped")
		return time.Time{}
	}
	log := r.log.With().Str("game", ref).Int64("user", user).Logger()
	err := r.review(ctx, ref, user)
	switch {
	case err == nil:
		return time.Time{}
	case errors.Is(err, errForGood):
		log.Warn().Err(err).Msg("review not made")
		r.metrics.Review("failed")
		return time.Time{}
	}
	log.Warn().Err(err).Msg("review: will try again")
	return r.loop.Now().Add(retry)
}

// panicked drops a request whose review panicked (logged with its stack):
// trying again would panic again.
func (r *Reviews) panicked(name string, _ any) time.Time {
	r.metrics.Review("failed")
	if ref, user, ok := store.ParseReviewRequest(name); ok {
		r.failed(context.Background(), ref, user)
	}
	return time.Time{}
}

// errForGood marks a request that trying again cannot make: the game is
// gone, not the person's, or does not replay.
var errForGood = errors.New("review cannot be made")

// review makes user's review of ref (or finds it made) and tells them.
func (r *Reviews) review(ctx context.Context, ref string, user int64) error {
	data, err := r.store.KeptGame(ctx, ref)
	if errors.Is(err, store.ErrNotFound) {
		return r.tellGone(ctx, user, err)
	}
	if err != nil {
		return err
	}
	t := &record.Table{}
	if err := json.Unmarshal(data, t); err != nil {
		return errors.Join(errForGood, err)
	}
	l := adapter.NewLoc(r.tr, t.Lang)
	if kept, err := r.store.Review(ctx, ref, user); err == nil {
		// Made already (a second request, or a crash after keeping it).
		var rep review.Report
		if err := rep.UnmarshalBinary(kept); err == nil {
			return r.tell(ctx, user, r.message(ctx, l, t, rep))
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	g, ok := r.games.Get(t.GameID)
	seat := t.PlayedBy(user)
	if !ok || seat < 0 {
		return errors.Join(errForGood, errors.New("not the person's game, or a game the bot no longer offers"))
	}
	start := time.Now()
	rep, err := review.Review(g, t, seat, l, review.Options{Playouts: r.cfg.Playouts, Judged: pace(ctx, r.cfg.Share)})
	if err != nil {
		r.failed(ctx, ref, user)
		return errors.Join(errForGood, err)
	}
	r.metrics.ReviewTook(time.Since(start))
	stored, err := rep.MarshalBinary()
	if err != nil {
		return errors.Join(errForGood, err)
	}
	if err := r.store.SetReview(ctx, ref, user, stored); errors.Is(err, store.ErrNotFound) {
		return r.tellGone(ctx, user, err) // expired meanwhile
	} else if err != nil {
		return err
	}
	r.metrics.Review("made")
	return r.tell(ctx, user, r.message(ctx, l, t, rep))
}

// message is rep as the person's message, with a button to each moment's
// move in the replay in «Стол» (review.Step, the number the message and
// the replay show) when the page is served and the table still holds the
// game t (its replay is the table's last finished game): a button never
// opens another game.
func (r *Reviews) message(ctx context.Context, l adapter.Loc, t *record.Table, rep review.Report) adapter.Message {
	m := rep.Message(l)
	if r.cfg.WebAppURL == "" || len(rep.Moments) == 0 {
		return m
	}
	rec, err := r.store.Load(ctx, t.ID)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			r.log.Warn().Err(err).Str("table", t.ID).Msg("review: the table for the replay's buttons")
		}
		return m
	}
	cur, err := record.Decode(rec.Data)
	if err != nil || cur.Token == "" || cur.Phase != record.PhaseIdle || review.GameKey(cur) != review.GameKey(t) {
		return m // the table holds another game now, or none finished
	}
	var row []adapter.Button
	for _, mo := range rep.Moments {
		step := review.Step(mo.Move)
		q := url.Values{"table": {cur.Token}, "step": {strconv.Itoa(step)}, "game": {review.GameKey(t)}}
		row = append(row, adapter.Button{Text: l.T("review.replay_button", "Step", step), WebApp: r.cfg.WebAppURL + "?" + q.Encode()})
	}
	m.Keyboard = append(m.Keyboard, row)
	return m
}

// tellGone tells user their game is no longer kept.
func (r *Reviews) tellGone(ctx context.Context, user int64, cause error) error {
	if err := r.tell(ctx, user, adapter.Message{Text: adapter.NewLoc(r.tr, "").T("review.gone")}); err != nil {
		return err
	}
	return errors.Join(errForGood, cause)
}

// failed tells user their review could not be made (best effort).
func (r *Reviews) failed(ctx context.Context, ref string, user int64) {
	lang := ""
	if data, err := r.store.KeptGame(ctx, ref); err == nil {
		var t record.Table
		if json.Unmarshal(data, &t) == nil {
			lang = t.Lang
		}
	}
	if err := r.tell(ctx, user, adapter.Message{Text: adapter.NewLoc(r.tr, lang).T("review.failed")}); err != nil {
		r.log.Warn().Err(err).Int64("user", user).Msg("review failure not told")
	}
}

// pace is the hook a review calls after each judgement: it rests so that
// the time worked since the last rest is share of the whole (nothing at a
// share of 1), and stops resting when ctx is done.
func pace(ctx context.Context, share float64) func() {
	if share >= 1 {
		return nil
	}
	last := time.Now()
	return func() {
		worked := time.Since(last)
		rest := time.NewTimer(time.Duration(float64(worked) * (1/share - 1)))
		select {
		case <-rest.C:
		case <-ctx.Done():
			rest.Stop()
		}
		last = time.Now()
	}
}
