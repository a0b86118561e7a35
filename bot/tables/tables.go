// Package tables is the role that owns the tables: every change of a
// chat's table record — a command, a press, a timer running out, a robot's
// move, a page's press — is one transaction here (compare-and-set on the
// record, retried on conflict), and whatever the change has to say joins
// the table's outbox for delivery. It never waits for Telegram: the only
// Bot API calls it makes are the answer to a press (not rate-limited), who
// administers a group, who the bot is and its command menus.
//
// A reader finds each part in its own room: the transaction (txn.go), what
// a move does to a table (moves.go), the commands (commands.go, one list),
// the buttons (presses.go), the lobby (lobby.go), a seat's presses
// and hints (play.go), the timers and other due work (timers.go, jobs.go),
// a broken table fenced off (broken.go), leaving (leave.go), who belongs
// at a group's tables and who left it (belong.go), practice
// tables (practice.go), first-game tips (tips.go), the menus and rules
// pages (menus.go), a person's private chat (people.go), results commands
// (results.go), a person forgotten (forget.go), the «Стол» page's changes
// (pages.go) and a group's upgrade (migrate.go); the dependencies they
// share are in core.go.
package tables

import (
	"context"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/internal/lease"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// Tables is the role. Build it with New.
type Tables struct {
	*core
	moves    *moves
	play     *play
	clock    *clock
	jobs     *jobs
	lobby    *lobby
	leaving  *leaving
	practice *practice
	tips     *tips
	menus    *menus
	commands *commands
	presses  *presses
	people   *people
	standing *standing
	pages    *pages
	reviews  *reviewing
	belong   *belonging
}

// New builds the tables role. views renders what the tables say; wake is
// called after every commit (delivery then shows it at once).
func New(cfg Config, st Store, tg Telegram, views *view.Renderer, res Results, now func() time.Time, log zerolog.Logger, m *metrics.Metrics) *Tables {
	if cfg.Members == nil {
		cfg.Members = members.New(tg, now, log)
	}
	c := &core{cfg: cfg, store: st, tg: tg, views: views, games: views.Games(), results: res, now: now, log: log, metrics: m,
		wake: func() {}, answered: func(time.Duration) {}, names: newNames(views)}
	t := &Tables{core: c}
	t.tips = &tips{core: c}
	t.moves = &moves{core: c, tips: t.tips}
	t.play = &play{core: c, moves: t.moves}
	t.jobs = &jobs{core: c}
	t.clock = &clock{core: c, moves: t.moves, jobs: t.jobs}
	t.clock.loop = &lease.Loop{Name: "timers", Queue: lease.Bind(st, store.Timers), Lease: timerLease, Workers: timerWorkers,
		Idle: timerIdle, Now: now, Log: log, Serve: t.clock.serve, Panicked: t.clock.panicked, Panics: m.Panic}
	t.menus = &menus{core: c}
	t.lobby = &lobby{core: c, moves: t.moves, tips: t.tips, menus: t.menus}
	t.leaving = &leaving{core: c, moves: t.moves}
	t.practice = &practice{core: c, lobby: t.lobby}
	t.people = &people{core: c, menus: t.menus, lobby: t.lobby}
	t.standing = &standing{core: c, moves: t.moves, leaving: t.leaving}
	t.reviews = &reviewing{core: c, wake: func() {}}
	t.jobs.reviews = t.reviews
	t.jobs.cups = &cupRunner{core: c, lobby: t.lobby, leaving: t.leaving}
	t.pages = &pages{core: c, play: t.play, lobby: t.lobby}
	t.belong = &belonging{core: c, leaving: t.leaving}
	t.commands = &commands{core: c, lobby: t.lobby, menus: t.menus, practice: t.practice, people: t.people, standing: t.standing, reviews: t.reviews, belong: t.belong}
	t.presses = &presses{core: c, play: t.play, lobby: t.lobby, leaving: t.leaving, tips: t.tips, menus: t.menus, standing: t.standing, reviews: t.reviews}
	return t
}

// OnCommit sets what a commit calls: delivery's wake-up.
func (t *Tables) OnCommit(wake func()) {
	t.core.wake = func() { wake(); t.clock.loop.Wake() }
}

// OnReview sets what a queued review request calls: the reviews' pool's
// wake-up.
func (t *Tables) OnReview(wake func()) { t.reviews.wake = wake }

// Tell queues m to user's private chat, through that chat's outbox (the
// reviews role's way to speak).
func (t *Tables) Tell(ctx context.Context, user int64, m adapter.Message) error {
	return t.queue(ctx, record.ID(user, 0), 0, outbox.Entry{ChatID: user, Message: m, Reply: true})
}

// OnAnswer sets an observer of how long each press took to be answered
// (for measurements).
func (t *Tables) OnAnswer(f func(time.Duration)) { t.core.answered = f }

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
		return t.belong.onChatMember(ctx, u.ID, u.ChatMember)
	}
	return nil
}

// Run fires the tables' due timers and does their other due work (robots'
// moves, timeouts, finished games to record) until ctx is done. Every
// replica runs it; a table is served by one at a time.
func (t *Tables) Run(ctx context.Context) error { return t.clock.loop.Run(ctx) }

// Lang is the language the bot speaks to a person in private.
func (t *Tables) Lang(u *models.User) string { return t.userLang(u) }

// MarkUnreachable notes that the bot cannot write to user at table id
// (they blocked it, or never started it): the table shows ⚠️ and offers
// the deep link until they press /start.
func (t *Tables) MarkUnreachable(ctx context.Context, id string, user int64) error {
	return t.people.markUnreachable(ctx, id, user)
}

// Failed tells the tables that serving table id failed in a way that may
// be the table's own (a panic while delivering it): a table that keeps
// failing is fenced off (broken.go). It reads nothing of the table: a
// recovery must not fail as the work it recovers from did.
func (t *Tables) Failed(ctx context.Context, id, reason string) { t.strike(ctx, id, reason) }

// Unreadable tells the tables that a part of table id cannot be read: its
// record, its game's state (its views cannot be drawn), or an outbox
// entry (entry: its bytes, kept for a person). The table is fenced off at
// once: no use trying again. An error means it was not (the store), and
// the caller tries again later.
func (t *Tables) Unreadable(ctx context.Context, id, reason string, entry []byte) error {
	return t.unreadable(ctx, id, reason, entry)
}

// Adopt takes over an outbox entry from before the tables did their
// results themselves: a finished game to record, or a results command to
// answer, becomes the table's job.
func (t *Tables) Adopt(ctx context.Context, id string, entry []byte) error {
	return t.jobs.adopt(ctx, id, entry)
}

// Load is the table as last committed, or a fresh idle one at version 0.
func (t *Tables) Load(ctx context.Context, id string) (*record.Table, int64, error) {
	return t.load(ctx, id)
}

// SeatInfo is a seat's private information (InfoGame) for the person who
// asked, or the refusal why not: the chat's alert and the page's are one.
func (t *Tables) SeatInfo(tab *record.Table, p callback.Data, who int64) (string, error) {
	return t.play.seatInfo(tab, p, who)
}

// PagePress applies a press the page sent for user: the same change as the
// same press in the chat, committed under the request's update id, so a
// retry is a no-op. It returns the press's answer.
func (t *Tables) PagePress(ctx context.Context, id string, updateID int64, user models.User, p callback.Data) (*record.Table, string, error) {
	return t.pages.press(ctx, id, updateID, user, p)
}

// PageSeen records whether user's page of table id is open and visible.
func (t *Tables) PageSeen(ctx context.Context, id string, user int64, visible bool) error {
	return t.pages.seen(ctx, id, user, visible)
}

// GiveToken mints table id's web token when it has none, and returns it.
func (t *Tables) GiveToken(ctx context.Context, id string) (string, error) {
	return t.core.giveToken(ctx, id)
}

// PressDraft applies one press of a DraftButton (its callback data) by
// user to the table in memory, exactly as the platform does for the press
// in Telegram, with no store and no Telegram: the seat's checks, the
// staleness check and DraftGame.Draft. A refused press returns an error
// that refusal.Key reads and leaves the table as it was. It lets a game's
// tests, and other front ends, drive its drafts.
func (t *Tables) PressDraft(tab *record.Table, data string, user int64) error {
	return t.play.pressDraft(tab, data, user)
}
