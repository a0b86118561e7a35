// Package bot is the runtime's wiring: it builds the roles that host games
// in Telegram chats and hands each its dependencies, and nothing else.
// The roles, each its own package, reach each other only through small
// interfaces they declare themselves, connected here:
//
//   - ingest takes updates in (polling or a webhook), keeps each chat's in
//     a durable inbox and applies them in order through the tables;
//   - tables changes the table records: commands, presses, the lobby,
//     play, timers and robots, results commands; whatever a change has to
//     say joins the table's outbox;
//   - deliver shows what the tables committed: it posts the outbox and
//     redraws the group's table and the players' hands within Telegram's
//     limits, and alone calls Telegram to send, edit or delete;
//   - results records finished games once, rates them, and answers /stats,
//     /top and /history;
//   - reviews computes «🔍 Разбор» off the path of every press: a bounded
//     pool works through the reviews the tables queued;
//   - web is the «Стол» page: who may see a table, what each viewer sees,
//     the page's presses.
//
// Nothing needed to continue a game lives in process memory: every table
// is one versioned record in the store, changed only by compare-and-set,
// so any replica can play any role for any chat at any moment. Games are
// not part of it: each is an engine plus an adapter written against
// package bot/adapter (the contract), handed to New in Params.Games. The
// runtime never names a game. docs/bot.md opens with the map of the roles.
package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deliver"
	"github.com/trickchef/trickchef/bot/deliver/grouphand"
	"github.com/trickchef/trickchef/bot/ephemeral"
	"github.com/trickchef/trickchef/bot/ingest"
	"github.com/trickchef/trickchef/bot/internal/clock"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/results"
	"github.com/trickchef/trickchef/bot/reviews"
	"github.com/trickchef/trickchef/bot/safe"
	"github.com/trickchef/trickchef/bot/tables"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/locales"
)

// Config holds the bot's tunables. Zero values get sensible defaults.
type Config struct {
	// Username is the bot's @username without '@', for deep links and for
	// recognising /cmd@username. Filled from getMe when empty.
	Username    string
	TurnTimeout time.Duration // how long a person has for a move (default 60s)
	AIDelay     time.Duration // pause before the bot moves for an AI seat, so people can follow
	AIBudget    time.Duration // how long a searching robot («Профи») may think (default 200ms)
	DefaultLang string        // "ru" or "en"
	// WebAppURL is the public HTTPS address of the «Стол» page; when set,
	// hands carry a button that opens it. WebAppShortName is the Mini
	// App's short name from @BotFather, for the group's direct link.
	WebAppURL       string
	WebAppShortName string
	// WebLease is how long a page that said it is visible counts as
	// visible without saying it again (default 90 s).
	WebLease time.Duration
	// ReviewWorkers is how many reviews («🔍 Разбор») one replica
	// computes at once (default 1: a review takes a core for up to a
	// second, and moves must never wait for one).
	ReviewWorkers int
	// ReviewShare is the part of a core a review worker uses while it
	// reviews (default 0.25; 1: unpaced), so reviews never crowd the
	// presses of a busy bot.
	ReviewShare float64
	// MaxTables is how many tables a group (or a forum topic) may hold at
	// once, 1 to record.MaxLimit (default 4): /newgame opens the next
	// free one while others play.
	MaxTables int
	Limits    Limits
}

// Limits keep the bot inside Telegram's flood limits. They are enforced
// through the store, so replicas share them.
type Limits struct {
	// GroupInterval is a group's average spacing: the group's calls share
	// a sliding window of 20 of them (3.1 s: 62 s, two seconds of slack
	// for calls in flight over Telegram's 20 a minute), replies up to all
	// 20, announcements up to 18, table edits up to 16 (bot/deliver).
	GroupInterval time.Duration
	// PrivateInterval spaces messages to one private chat: Telegram allows
	// about one a second; a little slack keeps us clear of its window edges.
	PrivateInterval time.Duration
	// GlobalPerSecond caps the token's sends, edits and deletes together
	// (default 25 a second: Telegram allows about 30). It is counted in
	// slices of GlobalSlice (default 200 ms: 5 calls in any 200 ms), so
	// calls let through together never reach Telegram as a bunch.
	GlobalPerSecond int
	GlobalSlice     time.Duration
	// PressesPerSecond and PressBurst bound one user's presses and
	// commands (default 8 a second, 16 at once): past them the bot answers
	// «not so fast» and the update never reaches the store (bot/ingest).
	PressesPerSecond float64
	PressBurst       int
	// CallTimeout is how long one Bot API call of delivery may take before
	// it is given up (default 20 s: Telegram sometimes answers in seconds).
	// A call given up may still have taken effect: see docs/faults.md
	// «What the bot promises».
	CallTimeout time.Duration
}

// DefaultConfig is the configuration a bot runs with when nothing is set:
// the one source of the defaults (cmd/trickchef shows them in its usage).
func DefaultConfig() Config {
	var c Config
	c.setDefaults()
	c.AIDelay = 1500 * time.Millisecond
	return c
}

func (c *Config) setDefaults() {
	if c.TurnTimeout <= 0 {
		c.TurnTimeout = 60 * time.Second
	}
	if c.AIDelay < 0 {
		c.AIDelay = 0
	}
	if c.AIBudget <= 0 {
		c.AIBudget = 200 * time.Millisecond
	}
	if c.DefaultLang == "" {
		c.DefaultLang = locales.Default
	}
	if c.ReviewWorkers <= 0 {
		c.ReviewWorkers = 1
	}
	c.MaxTables = record.Limit(c.MaxTables)
	if c.WebLease <= 0 {
		c.WebLease = 90 * time.Second
	}
	if c.Limits.GroupInterval == 0 {
		c.Limits.GroupInterval = 3100 * time.Millisecond
	}
	if c.Limits.PrivateInterval == 0 {
		c.Limits.PrivateInterval = 1100 * time.Millisecond
	}
	if c.Limits.GlobalPerSecond == 0 {
		c.Limits.GlobalPerSecond = 25
	}
	if c.Limits.PressesPerSecond <= 0 {
		c.Limits.PressesPerSecond = 8
	}
	if c.Limits.PressBurst <= 0 {
		c.Limits.PressBurst = 16
	}
	if c.Limits.GlobalSlice == 0 {
		c.Limits.GlobalSlice = 200 * time.Millisecond
	}
	if c.Limits.CallTimeout <= 0 {
		c.Limits.CallTimeout = 20 * time.Second
	}
}

// Store is what the bot needs from persistence (store.Redis or store.Bolt):
// each role's part, declared where the role is. A store that keeps results
// (results.Store) gets them recorded; one that does not answers that
// results are unavailable.
type Store interface {
	tables.Store
	reviews.Store
	deliver.Store
	ingest.Store
	web.Store
}

// Telegram is the part of the Bot API the bot calls; *tgbot.Bot has it.
type Telegram = metrics.Telegram

// Bot is the runtime: its roles, built and connected. Create it with New.
type Bot struct {
	Tables   *tables.Tables
	Delivery *deliver.Delivery
	Ingest   *ingest.Ingestion
	Results  *results.Results
	Web      *web.Web
	Reviews  *reviews.Reviews
	// Views render what the bot shows (golden tests and tools draw with it).
	Views *view.Renderer

	now func() time.Time
	log zerolog.Logger
	// panics counts a recovered panic (trickchef_panics_total).
	panics func()
}

// Now is the bot's clock: the store's, with Params.StoreClock.
func (b *Bot) Now() time.Time { return b.now() }

// Params are everything a bot is built from, in the one idiom every role
// is built in (a struct of what it needs, like asynq's newX(xParams{…})):
// the tunables, the dependencies and the games. The zero value of a field
// is its default.
type Params struct {
	Config     Config
	Store      Store
	Telegram   Telegram
	Translator adapter.Translator
	// Games are the games the bot offers, in menu order (cmd/trickchef
	// wires them in). A bot needs at least one.
	Games []adapter.Game
	Log   zerolog.Logger // the zero Logger logs nothing
	// Metrics records the bot's work (nil: not measured).
	Metrics *metrics.Metrics
	// Now is the clock (default time.Now; tests inject one).
	Now func() time.Time
	// StoreClock keeps the bot's clock on the store's (bot/internal/clock):
	// replicas whose machine clocks disagree then agree on every deadline,
	// rate-limit window and send lease they share. Now is the clock
	// corrected.
	StoreClock bool
	// Answered reports, for every button press, the time from the start
	// of handling its update to the answer sent back to Telegram.
	Answered func(time.Duration)
	// GroupHands sends the hands players ask for in the group, as
	// Telegram's ephemeral messages (bot/ephemeral's Client, on the same
	// Bot API server); nil: every hand stays in its private chat.
	GroupHands grouphand.Client
}

// New builds the roles and connects them. Call Init before Run.
func New(p Params) *Bot {
	cfg, st, tg, tr := p.Config, p.Store, p.Telegram, p.Translator
	cfg.setDefaults()
	o := struct {
		games    view.Games
		log      zerolog.Logger
		now      func() time.Time
		answered func(time.Duration)
		metrics  *metrics.Metrics
	}{p.Games, p.Log, p.Now, p.Answered, p.Metrics}
	if o.now == nil {
		o.now = time.Now
	}
	if src, ok := st.(clock.Source); ok && p.StoreClock {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		o.now = clock.New(ctx, src, o.now, o.log).Now
		cancel()
	}
	tg = o.metrics.Instrument(tg)
	var available *ephemeral.Available
	if p.GroupHands != nil {
		available = ephemeral.NewAvailable(o.log)
	}
	views := view.New(view.Config{Username: cfg.Username, TurnTimeout: cfg.TurnTimeout, DefaultLang: cfg.DefaultLang,
		WebAppURL: cfg.WebAppURL, WebAppShortName: cfg.WebAppShortName, GroupHands: available.On, MaxTables: cfg.MaxTables}, o.games, tr, o.now, o.log)
	var rs results.Store
	if s, ok := st.(results.Store); ok {
		rs = s
	}
	res := results.New(results.Params{Store: rs, Games: o.games, Translator: tr, Log: o.log, Now: o.now})
	mc := members.New(tg, o.now, o.log)
	tbl := tables.New(tables.Params{Config: tables.Config{AIDelay: cfg.AIDelay, AIBudget: cfg.AIBudget,
		DefaultLang: cfg.DefaultLang, WebLease: cfg.WebLease, MaxTables: cfg.MaxTables, Members: mc},
		Store: st, Telegram: tg, Views: views, Results: res, Now: o.now, Log: o.log, Metrics: o.metrics})
	del := deliver.New(deliver.Params{Store: st, Telegram: tg, Views: views, Tables: tbl, Translator: tr,
		Limits: deliver.Limits{GroupInterval: cfg.Limits.GroupInterval, PrivateInterval: cfg.Limits.PrivateInterval,
			GlobalPerSecond: cfg.Limits.GlobalPerSecond, GlobalSlice: cfg.Limits.GlobalSlice, CallTimeout: cfg.Limits.CallTimeout},
		Now: o.now, Log: o.log, Metrics: o.metrics, GroupHands: p.GroupHands, Available: available, HandViews: views.HandInGroup()})
	tbl.OnCommit(del.Wake)
	if o.answered != nil {
		tbl.OnAnswer(o.answered)
	}
	say := func(u *models.User, what ingest.Said) string {
		key := "error.too_fast"
		if what == ingest.GivenUp {
			key = "error.given_up"
		}
		return views.Loc(tbl.Lang(u)).T(key)
	}
	in := ingest.New(ingest.Params{Config: ingest.Config{PressesPerSecond: cfg.Limits.PressesPerSecond, PressBurst: cfg.Limits.PressBurst},
		Store: st, Telegram: tg, Handle: tbl.Handle, Say: say, Now: o.now, Log: o.log, Metrics: o.metrics})
	w := web.New(web.Params{Store: st, Reviews: st, Members: mc, Views: views, Tables: tbl, Now: o.now, Log: o.log})
	rv := reviews.New(reviews.Params{Config: reviews.Config{Workers: cfg.ReviewWorkers, Share: cfg.ReviewShare, WebAppURL: cfg.WebAppURL},
		Store: st, Games: o.games, Translator: tr, Tell: tbl.Tell, Now: o.now, Log: o.log, Metrics: o.metrics})
	tbl.OnReview(rv.Wake)
	return &Bot{Tables: tbl, Delivery: del, Ingest: in, Results: res, Web: w, Reviews: rv, Views: views, now: o.now,
		log: o.log, panics: o.metrics.Panic}
}

// Init learns the bot's username (unless configured) and registers the
// command menus.
func (b *Bot) Init(ctx context.Context) error { return b.Tables.Init(ctx) }

// Run runs the workers every replica runs — the chats' inboxes, the
// tables' timers, delivery, the reviews' pool and the months' ends — until
// ctx is done, then waits for the work in flight. Updates come from
// b.Ingest.Poll or b.Ingest.Webhook. A worker that panics (its loop's own
// bug: each unit of work recovers its own) is logged, counted and started
// again a second later. A worker that returns an error instead stops the
// others: Run returns the first such error once they have all stopped, and
// nil when ctx ended it.
func (b *Bot) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	for _, w := range []struct {
		name string
		run  func(context.Context) error
	}{{"inboxes", b.Ingest.Run}, {"timers", b.Tables.Run}, {"delivery", b.Delivery.Run}, {"reviews", b.Reviews.Run},
		{"seasons", func(ctx context.Context) error { return b.Results.RunSeasons(ctx, b.Tables) }}} {
		wg.Add(1)
		safe.Go(b.log, b.panics, w.name, func() {
			defer wg.Done()
			for ctx.Err() == nil {
				var err error
				if safe.Call(b.log, b.panics, w.name, func() { err = w.run(ctx) }) == nil {
					if err != nil && ctx.Err() == nil {
						cancel(fmt.Errorf("%s: %w", w.name, err))
					}
					return
				}
				clock.Sleep(ctx, time.Second)
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
