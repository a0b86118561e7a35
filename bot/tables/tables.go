// Package tables is the role that owns the tables: every change of a
// chat's table record — a command, a press, a timer running out, a robot's
// move, a page's press — is one transaction here (compare-and-set on the
// record, retried on conflict), and whatever the change has to say joins
// the table's outbox for delivery. It never waits for Telegram: the only
// Bot API calls it makes are the answer to a press (not rate-limited), who
// administers a group, who the bot is and its command menus.
//
// The role is its table's life, each phase a package that is given only
// what it uses: the transaction and the fence around a broken table
// (bot/tables/txn); the lobby, practice tables, the menus and who joins
// (bot/tables/lobby); the game on — moves, seats' buttons, timers, tips,
// leaving (bot/tables/play); and what comes after — results commands,
// jobs, reviews' presses, forgetting, a group's upgrade
// (bot/tables/standings). This package is the role's face: it builds the
// parts, routes the commands (commands.go, one list; route.go, which of a
// group's tables), and routes every button press through the one op table
// (ops.go, presses.go, belong.go).
package tables

import (
	"context"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/cupplay"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/play"
	"github.com/trickchef/trickchef/bot/tables/standings"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
)

// Tables is the role. Build it with New.
type Tables struct {
	tx    *txn.Txn
	views *view.Renderer
	// now, store and results are what the role was handed, kept for its
	// tests to look behind the parts.
	now      func() time.Time
	store    Store
	results  Results
	clock    *play.Clock
	moves    *play.Moves
	seats    *play.Seats
	leaving  *play.Leaving
	pages    *play.Pages
	lobby    *lobby.Lobby
	menus    *lobby.Menus
	people   *lobby.People
	group    *lobby.Group
	belong   *lobby.Belonging
	standing *standings.Results
	forget   *standings.Forgetting
	reviews  *standings.Reviews
	jobs     *standings.Jobs
	cups     *cupplay.Cups
	commands *commands
	presses  *presses
}

// Params is what the tables role is built from.
type Params struct {
	Config   Config
	Store    Store
	Telegram Telegram
	// Views renders what the tables say.
	Views   *view.Renderer
	Results Results
	Now     func() time.Time
	Log     zerolog.Logger
	Metrics *metrics.Metrics // nil: not measured
}

// New builds the tables role.
func New(p Params) *Tables {
	cfg, st, tg, views, res, now, log, m := p.Config, p.Store, p.Telegram, p.Views, p.Results, p.Now, p.Log, p.Metrics
	if cfg.Members == nil {
		cfg.Members = members.New(tg, now, log)
	}
	tx := txn.New(st, views, cfg.DefaultLang, now, log, m)
	api := &calls{tg: tg, log: log}
	t := &Tables{tx: tx, views: views, now: now, store: st, results: res}
	tips := play.NewTips(st, res, tx, views)
	t.moves = play.NewMoves(views, tips, cfg.AIDelay, cfg.AIBudget, now, log, m)
	t.seats = play.NewSeats(views, t.moves, cfg.AIBudget, log)
	t.leaving = play.NewLeaving(views, t.moves, now)
	t.pages = play.NewPages(tx, cfg.WebLease, now)
	names := lobby.NewNames(views)
	t.menus = lobby.NewMenus(views, tx, api.answer)
	t.lobby = lobby.New(cfg.Members, views, tx, names, t.moves, tips, t.menus, now)
	t.people = lobby.NewPeople(st, tx, views, t.menus, t.lobby, cfg.Members, log)
	t.group = lobby.NewGroup(tx, cfg.MaxTables)
	t.belong = lobby.NewBelonging(cfg.Members, st, tx, views, t.group, t.leaving, log)
	t.standing = standings.NewResults(views, names, res, tx)
	t.forget = standings.NewForgetting(st, res, tx, views, t.moves, t.leaving, api.answer, now, log)
	t.reviews = standings.NewReviews(st, views, tx, api.answer, now, m)
	t.jobs = standings.NewJobs(t.reviews, res, tx, views)
	t.cups = cupplay.New(tx, views, st, t.group, names, t.lobby, t.leaving, now, log)
	t.jobs.WithCups(t.cups)
	t.belong.ThenGone(t.cups.Gone)
	t.clock = play.NewClock(st, tx, views, t.moves, t.jobs, now, log, m)
	t.commands = &commands{tx: tx, views: views, calls: api, defaultLang: cfg.DefaultLang, group: t.group, lobby: t.lobby,
		menus: t.menus, practice: lobby.NewPractice(tx, views, t.lobby), people: t.people, belong: t.belong,
		standing: t.standing, forget: t.forget, reviews: t.reviews, cups: t.cups, migration: standings.NewMigration(st, res, tx, t.cups.Rehome, now, log)}
	t.presses = &presses{tx: tx, views: views, calls: api, members: cfg.Members, log: log, metrics: m, now: now,
		answered: func(time.Duration) {}, seats: t.seats, leaving: t.leaving, tips: tips, lobby: t.lobby, menus: t.menus,
		group: t.group, forget: t.forget, reviews: t.reviews, cups: t.cups}
	t.presses.ops = t.presses.opTable()
	return t
}

// OnCommit sets what a commit calls: delivery's wake-up.
func (t *Tables) OnCommit(wake func()) {
	t.tx.OnCommit(func() { wake(); t.clock.Wake() })
}

// OnReview sets what a queued review request calls: the reviews' pool's
// wake-up.
func (t *Tables) OnReview(wake func()) { t.reviews.OnQueued(wake) }

// Tell queues m to user's private chat, through that chat's outbox (the
// reviews role's way to speak).
func (t *Tables) Tell(ctx context.Context, user int64, m adapter.Message) error {
	return t.tx.Queue(ctx, record.ID(user, 0), 0, outbox.Entry{ChatID: user, Message: m, Reply: true})
}

// OnAnswer sets an observer of how long each press took to be answered
// (for measurements).
func (t *Tables) OnAnswer(f func(time.Duration)) { t.presses.answered = f }

// Init learns who the bot is (when the username is not configured) and
// publishes the command menus.
func (t *Tables) Init(ctx context.Context) error { return t.commands.init(ctx) }

// Handle applies one update durably. Bad input is answered and counts as
// handled; an error means the update must be applied again (the store is
// unreachable, say), which is safe because applied updates are recorded
// with their change.
func (t *Tables) Handle(ctx context.Context, u *models.Update) error {
	switch {
	case u.CallbackQuery != nil:
		return t.presses.onCallback(ctx, u.ID, u.CallbackQuery)
	case u.Message != nil:
		return t.commands.onMessage(ctx, u.ID, u.Message)
	case u.MyChatMember != nil:
		return t.commands.onMyChatMember(ctx, u.ID, u.MyChatMember)
	case u.ChatMember != nil:
		return t.belong.OnChatMember(ctx, u.ID, u.ChatMember)
	}
	return nil
}

// Run fires the tables' due timers and does their other due work (robots'
// moves, timeouts, finished games to record) until ctx is done. Every
// replica runs it; a table is served by one at a time.
func (t *Tables) Run(ctx context.Context) error { return t.clock.Run(ctx) }

// Lang is the language the bot speaks to a person in private.
func (t *Tables) Lang(u *models.User) string { return t.tx.UserLang(u) }

// MarkUnreachable notes that the bot cannot write to user at table id
// (they blocked it, or never started it): the table shows ⚠️ and offers
// the deep link until they press /start.
func (t *Tables) MarkUnreachable(ctx context.Context, id string, user int64) error {
	return t.people.MarkUnreachable(ctx, id, user)
}

// Failed tells the tables that serving table id failed in a way that may
// be the table's own (a panic while delivering it): a table that keeps
// failing is fenced off (bot/tables/txn). It reads nothing of the table: a
// recovery must not fail as the work it recovers from did.
func (t *Tables) Failed(ctx context.Context, id, reason string) { t.tx.Strike(ctx, id, reason) }

// Unreadable tells the tables that a part of table id cannot be read: its
// record, its game's state (its views cannot be drawn), or an outbox
// entry (entry: its bytes, kept for a person). The table is fenced off at
// once: no use trying again. An error means it was not (the store), and
// the caller tries again later.
func (t *Tables) Unreadable(ctx context.Context, id, reason string, entry []byte) error {
	return t.tx.Unreadable(ctx, id, reason, entry)
}

// Adopt takes over an outbox entry from before the tables did their
// results themselves: a finished game to record, or a results command to
// answer, becomes the table's job.
func (t *Tables) Adopt(ctx context.Context, id string, entry []byte) error {
	return t.jobs.Adopt(ctx, id, entry)
}

// Load is the table as last committed, or a fresh idle one at version 0.
func (t *Tables) Load(ctx context.Context, id string) (*record.Table, int64, error) {
	return t.tx.Load(ctx, id)
}

// SeatInfo is a seat's private information (InfoGame) for the person who
// asked, or the refusal why not: the chat's alert and the page's are one.
func (t *Tables) SeatInfo(tab *record.Table, p callback.Data, who int64) (string, error) {
	return t.seats.SeatInfo(tab, p, who)
}

// PagePress applies a press the page sent for user: the same change as the
// same press in the chat, committed under the request's update id, so a
// retry is a no-op. It returns the press's answer.
func (t *Tables) PagePress(ctx context.Context, id string, updateID int64, user models.User, p callback.Data) (*record.Table, string, error) {
	return t.presses.pagePress(ctx, id, updateID, user, p)
}

// PageSeen records whether user's page of table id is open and visible.
func (t *Tables) PageSeen(ctx context.Context, id string, user int64, visible bool) error {
	return t.pages.Seen(ctx, id, user, visible)
}

// GiveToken mints table id's web token when it has none, and returns it.
func (t *Tables) GiveToken(ctx context.Context, id string) (string, error) {
	return t.tx.GiveToken(ctx, id)
}

// PressDraft applies one press of a DraftButton (its callback data) by
// user to the table in memory, exactly as the platform does for the press
// in Telegram, with no store and no Telegram: the seat's checks, the
// staleness check and DraftGame.Draft. A refused press returns an error
// that refusal.Key reads and leaves the table as it was. It lets a game's
// tests, and other front ends, drive its drafts.
func (t *Tables) PressDraft(tab *record.Table, data string, user int64) error {
	return t.seats.PressDraft(tab, data, user)
}
