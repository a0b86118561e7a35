// Package bot is the runtime that hosts games in Telegram chats: it turns
// updates into table changes, runs the lobby and the turn timers, and
// delivers the group table and the private hands under Telegram's rate
// limits.
//
// Nothing needed to continue a game lives in process memory: every table is
// one versioned record in the store, changed only by compare-and-set, and a
// delivery worker redraws whatever a change marked dirty. Any replica can
// pick up any table at any moment.
//
// Games are not part of it: each is an engine plus an adapter written
// against package bot/adapter (the contract), handed to New with WithGames.
// The runtime never names a game. docs/bot.md opens with the map of its
// roles.
package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
)

// Config holds the bot's tunables. Zero values get sensible defaults.
type Config struct {
	// Username is the bot's @username without '@', for deep links and for
	// recognising /cmd@username. Filled from getMe when empty.
	Username    string
	TurnTimeout time.Duration // how long a person has for a move (default 60s)
	AIDelay     time.Duration // pause before the bot moves for an AI seat, so people can follow
	AIBudget    time.Duration // how long a searching robot («Шеф») may think (default 200ms)
	DefaultLang string        // "ru" or "en"
	// WebAppURL is the public HTTPS address of the «Стол» page; when set,
	// hands carry a button that opens it. WebAppShortName is the Mini
	// App's short name from @BotFather, for the group's direct link.
	WebAppURL       string
	WebAppShortName string
	// WebLease is how long a page that said it is visible counts as
	// visible without saying it again (default 90 s; see WebSeen).
	WebLease time.Duration
	Limits   Limits
}

// Limits keep the bot inside Telegram's flood limits. They are enforced
// through the store, so replicas share them.
type Limits struct {
	// GroupInterval is a group's average spacing: the group's calls share
	// a sliding window of 20 of them (3.1 s: 62 s, two seconds of slack
	// for calls in flight over Telegram's 20 a minute), replies up to all
	// 20, announcements up to 18, table edits up to 16 (budget.go).
	GroupInterval time.Duration
	// PrivateInterval spaces messages to one private chat: Telegram allows
	// about one a second; a little slack keeps us clear of its window edges.
	PrivateInterval time.Duration
	// GlobalPerSecond caps the token's sends, edits and deletes together
	// (default 25 a second: Telegram allows about 30). It is counted in
	// slices of GlobalSlice (default 200 ms: 5 calls in any 200 ms), so
	// calls let through together never reach Telegram as a bunch: a
	// bunch admitted at a window's start and sent a few milliseconds late
	// would land in the same second of Telegram's as the next one.
	GlobalPerSecond int
	GlobalSlice     time.Duration
	// PressesPerSecond and PressBurst bound one user's presses and
	// commands (default 8 a second, 16 at once): past them the bot answers
	// «not so fast» and the update never reaches the store (flood.go).
	PressesPerSecond float64
	PressBurst       int
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
}

// Store is what the bot needs from persistence (store.Redis or store.Bolt):
// each role's part, declared where the role is, and what the tables use
// besides.
type Store interface {
	deliveryStore // the wake set, the views' records, the outbox, the limits
	ingestStore   // the chats' inboxes
	webStore      // the page's tokens

	// LoadFor is Load and Applied in one read, with a view's message
	// record when asked.
	LoadFor(ctx context.Context, table string, updateID int64, view string) (store.Record, bool, string, error)
	Commit(ctx context.Context, table string, c store.Change) (int64, error)
	Applied(ctx context.Context, table string, updateID int64) (bool, error)
	Delete(ctx context.Context, table string) error
	Dirty(ctx context.Context, table string) (map[string]int64, error)
	Wake(ctx context.Context, table string, at time.Time) error
	SetPointer(ctx context.Context, key, value string) error
	DeletePointer(ctx context.Context, key, value string) error
}

// Telegram is the part of the Bot API the bot calls; *tgbot.Bot has it.
type Telegram interface {
	GetMe(ctx context.Context) (*models.User, error)
	SendMessage(ctx context.Context, p *tgbot.SendMessageParams) (*models.Message, error)
	EditMessageText(ctx context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error)
	EditMessageReplyMarkup(ctx context.Context, p *tgbot.EditMessageReplyMarkupParams) (*models.Message, error)
	DeleteMessage(ctx context.Context, p *tgbot.DeleteMessageParams) (bool, error)
	DeleteMessages(ctx context.Context, p *tgbot.DeleteMessagesParams) (bool, error)
	AnswerCallbackQuery(ctx context.Context, p *tgbot.AnswerCallbackQueryParams) (bool, error)
	SetMyCommands(ctx context.Context, p *tgbot.SetMyCommandsParams) (bool, error)
	GetChatMember(ctx context.Context, p *tgbot.GetChatMemberParams) (*models.ChatMember, error)
}

// tablesTelegram is the part of the Bot API the tables and their handlers
// call: who the bot is, its command menus, whether someone administers a
// group, and the answer to a press (not rate-limited). Nothing here posts
// to a chat: that is delivery's alone (deliveryTelegram).
type tablesTelegram interface {
	GetMe(ctx context.Context) (*models.User, error)
	SetMyCommands(ctx context.Context, p *tgbot.SetMyCommandsParams) (bool, error)
	GetChatMember(ctx context.Context, p *tgbot.GetChatMemberParams) (*models.ChatMember, error)
	AnswerCallbackQuery(ctx context.Context, p *tgbot.AnswerCallbackQueryParams) (bool, error)
}

// Bot handles updates and delivers views. Create it with New.
type Bot struct {
	cfg   Config
	store Store
	// tg is what the tables call themselves: nothing that posts to a
	// chat (delivery alone sends, edits and deletes).
	tg    tablesTelegram
	tr    adapter.Translator
	games *registry
	log   zerolog.Logger
	now   func() time.Time
	// answered observes how long a button press took from its update to
	// its answer (for measurements).
	answered func(time.Duration)
	metrics  *Metrics // nil: not measured
	// delivery shows what the tables commit (deliver.go); the only role
	// that calls Telegram to send, edit or delete.
	delivery *delivery
	// results keeps finished games and speaks of them (results.go).
	results *results
	// ingestion takes updates in (inbox.go); it never sends.
	ingestion *ingestion
	// web is the role behind the «Стол» page (web.go).
	web *web
}

// Option changes a Bot at construction.
type Option func(*Bot)

// WithClock injects the clock (tests).
func WithClock(now func() time.Time) Option { return func(b *Bot) { b.now = now } }

// WithAnswerObserver reports, for every button press, the time from the
// start of handling its update to the answer sent back to Telegram.
func WithAnswerObserver(f func(time.Duration)) Option { return func(b *Bot) { b.answered = f } }

// WithGames sets the games the bot offers, in menu order (cmd/trickchef
// wires them in). A bot needs at least one.
func WithGames(games ...adapter.Game) Option {
	return func(b *Bot) { b.games = &registry{games: games} }
}

// WithLogger sets the logger.
func WithLogger(l zerolog.Logger) Option { return func(b *Bot) { b.log = l } }

// New builds a Bot. Call Init before handling updates.
func New(cfg Config, st Store, tg Telegram, tr adapter.Translator, opts ...Option) *Bot {
	cfg.setDefaults()
	b := &Bot{
		cfg:      cfg,
		store:    st,
		tr:       tr,
		games:    &registry{},
		log:      zerolog.Nop(),
		now:      time.Now,
		answered: func(time.Duration) {},
	}
	for _, o := range opts {
		o(b)
	}
	if b.metrics != nil {
		tg = instrumented{Telegram: tg, m: b.metrics}
	}
	b.tg = tg
	b.web = &web{
		store:   b.store,
		tg:      tg,
		members: newMemberCache(memberCacheSize),
		tr:      b.tr,
		games:   b.games,
		lang:    b.cfg.DefaultLang,
		now:     b.now,
		log:     b.log,
		tables:  b,
	}
	b.results = newResults(b.store, b.games, b.tr, b.log, b.now)
	b.ingestion = &ingestion{
		store:        b.store,
		tg:           tg,
		tr:           b.tr,
		log:          b.log,
		now:          b.now,
		metrics:      b.metrics,
		flood:        newFloodGate(b.cfg.Limits.PressesPerSecond, b.cfg.Limits.PressBurst),
		floodAnswers: make(chan struct{}, 16),
		kick:         make(chan struct{}, 1),
		handlers:     b,
	}
	b.delivery = &delivery{
		store:     b.store,
		tg:        tg,
		tr:        b.tr,
		limits:    b.cfg.Limits,
		log:       b.log,
		now:       b.now,
		metrics:   b.metrics,
		tokenLoad: newTokenLoad(b.cfg.Limits.GlobalPerSecond),
		waits:     newWaits(),
		kick:      make(chan struct{}, 1),
		tables:    b,
	}
	b.delivery.tokenLoad.onHot = func(use float64) {
		b.log.Warn().Float64("budget_use", use).Int("calls_per_second", b.cfg.Limits.GlobalPerSecond).
			Msg("the token has run hot (over 80% of its calls a second) for a minute: edits are spaced out, players wait longer")
	}
	b.delivery.tokenLoad.gauges = b.metrics.budgetGauges
	return b
}

// Init learns the bot's username and registers the command menus.
func (b *Bot) Init(ctx context.Context) error {
	if b.cfg.Username == "" {
		me, err := b.tg.GetMe(ctx)
		if err != nil {
			return fmt.Errorf("getMe: %w", err)
		}
		b.cfg.Username = me.Username
	}
	return b.registerCommands(ctx)
}

const maxCommitAttempts = 8

// conflictBackoff is a random pause before retrying a lost
// compare-and-set, growing with the attempt, so racing replicas spread out.
func conflictBackoff(attempt int) time.Duration {
	return time.Duration(rand.Int64N(int64(attempt+1) * int64(2*time.Millisecond)))
}

// transact is the tables' one transaction: it applies fn to the latest
// table and commits it with compare-and-set, retrying when another replica
// got there first. fn sees a fresh idle table when none exists. An error from fn commits nothing. updateID (if > 0) is
// recorded with the change, so a redelivered update is not applied twice.
func (b *Bot) transact(ctx context.Context, id string, updateID int64, fn func(t *record.Table, ch *change) error) (*record.Table, *change, error) {
	return b.transactSeeing(ctx, id, updateID, "", fn)
}

// transactSeeing is transact whose change also sees the message record of view
// (change.viewRecord), read with the table in one round trip on every
// attempt: a press on a hand message learns whether that message is the
// hand's current one without a read of its own.
func (b *Bot) transactSeeing(ctx context.Context, id string, updateID int64, view string, fn func(t *record.Table, ch *change) error) (*record.Table, *change, error) {
	for attempt := 0; attempt < maxCommitAttempts; attempt++ {
		// A redelivered update must not be judged against the state its
		// first delivery produced (it would be refused as stale); the
		// first load asks along.
		check := updateID
		if attempt > 0 {
			check = 0
		}
		t, version, seen, viewRecord, err := b.loadFor(ctx, id, check, view)
		if err != nil {
			return nil, nil, err
		}
		if seen {
			return t, &change{}, errDuplicate
		}
		ch := &change{viewRecord: viewRecord}
		if err := fn(t, ch); err != nil {
			var r *refusal
			if updateID > 0 && errors.As(err, &r) {
				// Refused because a copy of this very update (another
				// replica, a redelivery) changed the table first?
				if seen, aerr := b.store.Applied(ctx, id, updateID); aerr == nil && seen {
					return t, &change{}, errDuplicate
				}
			}
			return t, ch, err
		}
		t.Updated = b.now()
		b.mintWebToken(ctx, t)
		data, err := t.Encode()
		if err != nil {
			return nil, nil, err
		}
		c := store.Change{
			Version:  version,
			Data:     data,
			UpdateID: updateID,
			Dirty:    views(t),
			// Deliver now; the worker then sleeps until the turn deadline.
			WakeAt: b.now(),
		}
		for _, m := range ch.outbox {
			raw, err := m.encode()
			if err != nil {
				return nil, nil, err
			}
			c.Outbox = append(c.Outbox, raw)
		}
		_, err = b.store.Commit(ctx, id, c)
		switch {
		case errors.Is(err, store.ErrConflict):
			b.metrics.conflict()
			b.log.Debug().Str("table", id).Int("attempt", attempt).Msg("commit conflict, retrying")
			sleep(ctx, conflictBackoff(attempt))
			continue
		case errors.Is(err, store.ErrDuplicate):
			return t, ch, errDuplicate
		case err != nil:
			return nil, nil, fmt.Errorf("commit %s: %w", id, err)
		}
		b.poke()
		b.afterCommit(ctx, t, ch)
		return t, ch, nil
	}
	return nil, nil, fmt.Errorf("commit %s: %w after %d attempts", id, errBusy, maxCommitAttempts)
}

// afterCommit carries out what a committed change recorded for later.
// These are indexes for convenience, so a failure is logged, not retried.
func (b *Bot) afterCommit(ctx context.Context, t *record.Table, ch *change) {
	for _, user := range ch.seated {
		if err := b.store.SetPointer(ctx, store.UserTableKey(user), t.ID); err != nil {
			b.log.Warn().Err(err).Str("table", t.ID).Msg("user pointer not set")
			continue
		}
		// A /start in private applied at the same time (chats go in
		// parallel) may have looked for this pointer before it was set:
		// each side writes, then reads what the other wrote, so one of
		// them always marks the seat reachable.
		if s := t.SeatOf(user); s >= 0 && t.Seats[s].Unreachable && b.hasStarted(ctx, user) {
			if err := b.settle(b.reachable(ctx, t.ID, user, false)); err != nil {
				b.log.Warn().Err(err).Str("table", t.ID).Msg("seat not marked reachable")
			}
		}
	}
}

// load returns the table and its version, or a fresh idle table at version 0.
func (b *Bot) load(ctx context.Context, id string) (*record.Table, int64, error) {
	t, version, _, _, err := b.loadFor(ctx, id, 0, "")
	return t, version, err
}

// loadFor is load, also telling whether updateID (if not 0) was already
// applied to the table, and the message record of view (if not ""): one
// read of the store for all.
func (b *Bot) loadFor(ctx context.Context, id string, updateID int64, view string) (*record.Table, int64, bool, string, error) {
	rec, seen, viewRecord, err := b.store.LoadFor(ctx, id, updateID, view)
	if errors.Is(err, store.ErrNotFound) {
		chat, thread, perr := record.ParseID(id)
		if perr != nil {
			return nil, 0, false, "", perr
		}
		return &record.Table{ID: id, ChatID: chat, Thread: thread, Lang: b.cfg.DefaultLang, Phase: record.PhaseIdle}, 0, false, "", nil
	}
	if err != nil {
		return nil, 0, false, "", fmt.Errorf("load %s: %w", id, err)
	}
	t, err := record.Decode(rec.Data)
	if err != nil {
		return nil, 0, false, "", err
	}
	return t, rec.Version, seen, viewRecord, nil
}

// views lists every view of the table; all are marked dirty on each change
// and the worker skips those whose rendering did not change.
func views(t *record.Table) []string {
	if t.GameNo == 0 {
		return nil
	}
	v := []string{tableView(t.GameNo)}
	if t.State != nil {
		for i, s := range t.Seats {
			if s.Human() || s.Leaver != nil {
				v = append(v, handView(t.GameNo, i))
			}
		}
	}
	return v
}

func (b *Bot) poke() { b.delivery.poke() }
