package deliver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deliver/grouphand"
	"github.com/trickchef/trickchef/bot/deliver/internal/message"
	"github.com/trickchef/trickchef/bot/ephemeral"
	"github.com/trickchef/trickchef/bot/internal/lease"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/safe"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// Delivery is the role. Build it with New.
type Delivery struct {
	store   Store
	tg      Telegram
	views   Views
	tables  Tables
	tr      adapter.Translator // for the notes delivery writes itself
	limits  Limits
	log     zerolog.Logger
	now     func() time.Time
	metrics *metrics.Metrics // nil: not measured
	// budget admits every call against the shared limits (budget.go).
	budget *budget
	loop   *lease.Loop
	// listening holds the sends whose answers are awaited after their
	// worker stopped waiting (unanswered.go).
	listening *listening
	// hands draws hands in groups when the server knows ephemeral
	// messages (bot/deliver/grouphand); nil: never.
	hands *grouphand.Hands
}

// Limits keep the bot inside Telegram's flood limits (see the bot's
// Config). They are enforced through the store, so replicas share them.
type Limits struct {
	GroupInterval   time.Duration
	PrivateInterval time.Duration
	GlobalPerSecond int
	GlobalSlice     time.Duration
	// CallTimeout is how long a worker waits for a Bot API call's answer:
	// generous, as Telegram sometimes answers in seconds. A send not
	// answered by then may still have taken effect, and its answer is
	// listened for a while longer (unanswered.go).
	CallTimeout time.Duration
}

// Store is the part of the store delivery uses: the delivery queue, the
// tables' records, the views' message records, the outbox, and the limits
// every replica shares.
type Store interface {
	lease.Store
	Load(ctx context.Context, table string) (store.Record, error)
	Pending(ctx context.Context, q store.Queue) (int64, error)
	Views(ctx context.Context, table string) (map[string]string, map[string]int64, error)
	Messages(ctx context.Context, table string) (map[string]string, error)
	SetMessage(ctx context.Context, table, view, record string) error
	DeleteMessages(ctx context.Context, table string, views ...string) error
	Clean(ctx context.Context, table, view string, version int64) error
	Outbox(ctx context.Context, table string, n int) ([]store.Envelope, error)
	Ack(ctx context.Context, table string, id int64) error
	Pointer(ctx context.Context, key string) (string, error)
	SetPointer(ctx context.Context, key, value string) error
	DeletePointer(ctx context.Context, key, value string) error
	Allow(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, time.Duration, error)
	Fits(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, time.Duration, error)
	AllowInTurn(ctx context.Context, key, caller string, deadline time.Time, limit int, per time.Duration, now time.Time) (bool, time.Duration, error)
	Withdraw(ctx context.Context, key, caller string) error
	Block(ctx context.Context, key string, until time.Time) error
	// Schedule makes a table due for delivery at once when a late answer
	// was recorded for it (unanswered.go).
	Schedule(ctx context.Context, q store.Queue, name string, at time.Time) error
}

// Telegram is the part of the Bot API delivery calls: it alone sends,
// edits and deletes.
type Telegram interface {
	SendMessage(ctx context.Context, p *tgbot.SendMessageParams) (*models.Message, error)
	SendDocument(ctx context.Context, p *tgbot.SendDocumentParams) (*models.Message, error)
	EditMessageText(ctx context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error)
	EditMessageReplyMarkup(ctx context.Context, p *tgbot.EditMessageReplyMarkupParams) (*models.Message, error)
	DeleteMessages(ctx context.Context, p *tgbot.DeleteMessagesParams) (bool, error)
}

// Views draws what each view shows now (view.Renderer has it).
type Views interface {
	Group(t *record.Table) adapter.Message
	Seat(t *record.Table, seat int) (adapter.Message, error)
	PracticeTable(t *record.Table) adapter.Message
	PracticeHand(t *record.Table, hand adapter.Message) adapter.Message
	WebShown(t *record.Table, seat int) bool
	// TurnTime is the table's time for a move.
	TurnTime(t *record.Table) time.Duration
}

// Tables is what delivery tells the tables: a person it cannot write to
// (a table change: the table then says so), an outbox entry from before
// the tables did their results themselves, which they take over, and a
// table it cannot serve.
type Tables interface {
	MarkUnreachable(ctx context.Context, id string, user int64) error
	Adopt(ctx context.Context, id string, entry []byte) error
	// Failed says serving table id failed in a way that may be the
	// table's own (a panic): the tables fence off a table that keeps
	// failing.
	Failed(ctx context.Context, id, reason string)
	// Unreadable says a part of table id cannot be read — its record, its
	// game's state (a view cannot be drawn), an outbox entry (entry, kept
	// for a person) — and the tables fence it off at once; an error: not
	// yet (the store), try again.
	Unreadable(ctx context.Context, id, reason string, entry []byte) error
}

// Params are what the delivery role is built from: its dependencies,
// each an interface it declares, and its limits.
type Params struct {
	Store      Store
	Telegram   Telegram
	Views      Views
	Tables     Tables
	Translator adapter.Translator
	Limits     Limits
	Now        func() time.Time
	Log        zerolog.Logger
	Metrics    *metrics.Metrics // nil: not measured
	// GroupHands sends and edits the hands shown in groups, while
	// Available says the server knows them, as HandViews draws them
	// (bot/deliver/grouphand); nil: hands stay in private chats.
	GroupHands grouphand.Client
	Available  *ephemeral.Available
	HandViews  grouphand.Views
}

// New builds the delivery role.
func New(p Params) *Delivery {
	st, tg, views, tables, tr, limits, now, log, m := p.Store, p.Telegram, p.Views, p.Tables, p.Translator, p.Limits, p.Now, p.Log, p.Metrics
	if limits.CallTimeout <= 0 {
		limits.CallTimeout = 20 * time.Second
	}
	d := &Delivery{store: st, tg: tg, views: views, tables: tables, tr: tr, limits: limits, log: log, now: now, metrics: m,
		budget: &budget{store: st, limits: limits, now: now, log: log, metrics: m,
			load: newTokenLoad(limits.GlobalPerSecond), waits: newWaits()},
		listening: newListening()}
	d.hands = grouphand.New(grouphand.Params{Client: p.GroupHands, Available: p.Available, Store: st, Views: p.HandViews,
		Turns: views, Chats: chats{d}, Budget: handBudget{d.budget}, Now: now, Log: log})
	d.budget.load.onHot = func(use float64) {
		log.Warn().Float64("budget_use", use).Int("calls_per_second", limits.GlobalPerSecond).
			Msg("the token has run hot (over 80% of its calls a second) for a minute: edits are spaced out, players wait longer")
	}
	d.budget.load.gauges = func(use float64, waiting [numPriorities]int, tables int) {
		names := make([]string, numPriorities)
		for p := range numPriorities {
			names[p] = p.String()
		}
		m.Budget(use, names, waiting[:], tables)
	}
	d.loop = &lease.Loop{Name: "delivery", Queue: lease.Bind(st, store.Deliveries), Lease: claimLease, Workers: workers,
		Idle: idlePoll, Now: now, Log: log, Serve: d.service, Panicked: d.panicked, Panics: m.Panic}
	return d
}

// panicked hears of a panic while delivering table id (logged and counted
// already by the loop): the tables count it against the table; it is
// served again in a second.
func (d *Delivery) panicked(id string, v any) time.Time {
	d.tables.Failed(context.Background(), id, fmt.Sprint("panic while delivering: ", v))
	return d.now().Add(time.Second)
}

// Wake tells the local worker a table may have something to show (a
// commit in this process), so it shows at once. It never blocks.
func (d *Delivery) Wake() { d.loop.Wake() }

// Run delivers until ctx is done. Several workers (in one process or in
// several replicas) may run at once: a table is served by one at a time.
// Sends still listened for when it returns are given up (the next process
// treats them as unanswered).
func (d *Delivery) Run(ctx context.Context) error {
	if d.metrics != nil {
		safe.Go(d.log, d.metrics.Panic, "delivery: measuring", func() { d.measure(ctx) })
	}
	defer d.listening.close()
	return d.loop.Run(ctx)
}

// measure shows the delivery queue's length every few seconds.
func (d *Delivery) measure(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if n, err := d.store.Pending(ctx, store.Deliveries); err == nil {
			d.metrics.Scheduled(n)
		}
	}
}

const (
	claimLease = 12 * time.Second       // a crashed replica's tables are taken over after this
	workers    = 8                      // tables served at once by one replica
	idlePoll   = 500 * time.Millisecond // how often to look for other replicas' work
)

// service does a table's due work and returns when it wants to be woken
// next (zero: only on the next change).
func (d *Delivery) service(ctx context.Context, id string) time.Time {
	t, version, err := d.load(ctx, id)
	var bad *unreadableRecord
	if errors.As(err, &bad) {
		// Fenced off by the tables; the record that replaces it is served
		// next.
		if err := d.tables.Unreadable(ctx, id, err.Error(), nil); err != nil {
			d.log.Error().Err(err).Str("table", id).Msg("unreadable record not fenced off; will retry")
		}
		return d.now().Add(time.Second)
	}
	if err != nil {
		d.log.Error().Err(err).Str("table", id).Msg("load for delivery")
		return d.now().Add(time.Second)
	}
	var next time.Time
	later := func(at time.Time) { next = earliest(next, at) }
	// Announcements before views: an announcement (a round's result) must
	// never arrive after the table already shows a later round, so while
	// one to the group waits, the group table waits behind it (the table
	// was loaded before the outbox was read, so it shows nothing later
	// than what was sent). Players' own chats do not wait.
	wait, holdGroup := d.sendOutbox(ctx, t)
	later(wait)
	later(d.redraw(ctx, t, version, holdGroup))
	// A change committed while we worked must not wait for the next
	// retry: come back at once.
	if rec, err := d.store.Load(ctx, id); err == nil && rec.Version != version {
		return d.now()
	}
	return next
}

// load is the table as last committed, or a fresh idle one at version 0:
// a private chat's outbox has no record until a game is played there.
func (d *Delivery) load(ctx context.Context, id string) (*record.Table, int64, error) {
	rec, err := d.store.Load(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		chat, thread, perr := record.ParseID(id)
		if perr != nil {
			return nil, 0, perr
		}
		return &record.Table{ID: id, ChatID: chat, Thread: thread, Phase: record.PhaseIdle}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	t, err := record.Decode(rec.Data)
	if err != nil {
		return nil, 0, &unreadableRecord{err}
	}
	return t, rec.Version, nil
}

// unreadableRecord is a table record that cannot be decoded.
type unreadableRecord struct{ err error }

func (e *unreadableRecord) Error() string { return "record unreadable: " + e.err.Error() }

// sendOutbox posts queued announcements and replies in order; it stops at
// the first that must wait and returns when to try again, and whether what
// waits is for the table's group (whose table must then wait too). An
// entry is acknowledged once it is posted (or Telegram refused it for
// good), never before: one whose send went unanswered waits for its answer
// or is sent again (see unanswered.go). A serving that lost its lease (ctx
// done) stops before the next entry.
func (d *Delivery) sendOutbox(ctx context.Context, t *record.Table) (time.Time, bool) {
	for {
		if ctx.Err() != nil {
			return d.now().Add(time.Second), true
		}
		envs, err := d.store.Outbox(ctx, t.ID, 8)
		if err != nil {
			d.log.Error().Err(err).Str("table", t.ID).Msg("read outbox")
			return d.now().Add(time.Second), true
		}
		if len(envs) == 0 {
			return time.Time{}, false
		}
		for i, e := range envs {
			if ctx.Err() != nil {
				return d.now().Add(time.Second), true
			}
			counted := false // the entry's tries are counted in the store
			m, legacy, err := outbox.Decode(e.Data)
			if err != nil {
				// Unreadable: the table is fenced off, the entry kept for a
				// person; then it leaves the outbox.
				reason := fmt.Sprintf("outbox entry %d unreadable: %v", e.ID, err)
				if uerr := d.tables.Unreadable(ctx, t.ID, reason, e.Data); uerr != nil {
					d.log.Error().Err(uerr).Str("table", t.ID).Int64("id", e.ID).Msg("unreadable outbox entry not set aside; will retry")
					return d.now().Add(time.Second), true
				}
			}
			if err == nil && legacy {
				// A finished game or a results command queued here by an
				// older version: the tables take it over, in queue order;
				// a failure waits for a retry, never drops the entry.
				if err := d.tables.Adopt(ctx, t.ID, e.Data); err != nil {
					d.log.Warn().Err(err).Str("table", t.ID).Int64("id", e.ID).Msg("old results entry not taken over, will retry")
					return d.now().Add(2 * time.Second), true
				}
			}
			skip := legacy || err == nil && superseded(m, envs[i+1:])
			if err == nil && !skip && m.Hand != nil {
				if wait := d.hands.Send(ctx, t, m); !wait.IsZero() {
					return wait, true
				}
				skip = true
			}
			if err == nil && !skip && m.HandGone != nil {
				if wait := d.hands.Drop(ctx, t, m.HandGone); !wait.IsZero() {
					return wait, true
				}
				skip = true
			}
			if err == nil && !skip {
				call := t.ID + "/out/" + strconv.FormatInt(e.ID, 10)
				class := classAnnounce
				if m.Reply {
					class = classReply
				}
				group := m.ChatID == t.ChatID
				tried, terr := d.tries(ctx, call)
				if terr != nil {
					return d.now().Add(time.Second), group
				}
				if next := tried.at.Add(d.backoff(tried.n)); tried.n > 0 && d.now().Before(next) {
					// Its last try went unanswered: its answer may still
					// come, and the next try waits its turn.
					return next, group
				}
				if wait := d.budget.admitAs(ctx, m.ChatID, prioAnnounce, class, call, d.now().Add(announcePatience)); !wait.IsZero() {
					return wait, group
				}
				if wait, err := d.takeSend(ctx, call, tried); !wait.IsZero() || err != nil {
					return wait, group
				}
				counted = true
				start := d.now()
				err = d.postOnce(ctx, t, e.ID, m, call, tried, start)
				if retry, ok := d.retryAfter(ctx, m.ChatID, err); ok {
					return retry, group
				}
				switch {
				case errors.Is(err, errNotSent):
					return d.now().Add(time.Second), group
				case err != nil && unsure(err):
					// Maybe posted: acknowledged when its answer comes,
					// else sent again, marked, once its turn comes.
					d.log.Warn().Err(err).Str("table", t.ID).Int64("id", e.ID).Int("tries", tried.n+1).
						Msg("announcement unanswered: listening for its answer, will send again marked as a possible repeat")
					return start.Add(d.backoff(tried.n + 1)), group
				case err != nil && !permanent(err):
					d.log.Warn().Err(err).Str("table", t.ID).Msg("announcement not sent, will retry")
					return d.now().Add(2 * time.Second), group
				}
			}
			if err != nil {
				// Telegram refuses it for good: the bot is not in the chat
				// any more (a 403, a 400 "chat not found": the tables close
				// the table when Telegram says so), or the message is
				// malformed. Nothing was posted; drop it rather than block
				// the queue forever.
				d.log.Warn().Err(err).Str("table", t.ID).Int64("id", e.ID).Msg("announcement dropped")
			}
			// What was posted is acknowledged even when the serving lost
			// its lease meanwhile: posting it again would only double it.
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			err = d.store.Ack(actx, t.ID, e.ID)
			if err == nil && counted {
				d.forgetTries(actx, t.ID+"/out/"+strconv.FormatInt(e.ID, 10))
			}
			cancel()
			if err != nil {
				d.log.Error().Err(err).Str("table", t.ID).Msg("ack outbox")
				return d.now().Add(time.Second), true
			}
		}
	}
}

// postOnce posts entry id (m, call names it) at start, its try recorded
// before it is made, so that whoever tries next knows it may be posted; Telegram's
// refusal takes the mark back. A try after one whose outcome is unknown is
// marked as a possible repeat.
func (d *Delivery) postOnce(ctx context.Context, t *record.Table, id int64, m outbox.Entry, call string, tried tries, start time.Time) error {
	mine := tries{n: tried.n + 1, at: start, refused: tried.refused}.String()
	if err := d.store.SetPointer(ctx, triesKey(call), mine); err != nil {
		return fmt.Errorf("%w: %v", errNotSent, err)
	}
	if tried.n > 0 && m.Edit == 0 {
		m = d.markRepeat(t, m)
	}
	err := d.post(ctx, m, d.heardAnnouncement(t.ID, id, call, tried, mine))
	if err != nil && !unsure(err) {
		if err := d.store.SetPointer(ctx, triesKey(call), tried.refusedTry().String()); err != nil {
			d.log.Warn().Err(err).Str("call", call).Msg("a refused try stays counted")
		}
	}
	return err
}

// post carries out one outbox entry: a new message (whose answer, if it
// comes late, goes to late), or an edit of one (the same edit twice is
// harmless).
func (d *Delivery) post(ctx context.Context, m outbox.Entry, late func(context.Context, *models.Message, error)) error {
	var err error
	switch {
	case m.Edit != 0 && m.Disarm:
		err = d.disarm(ctx, m.ChatID, m.Edit)
	case m.Edit != 0:
		err = d.edit(ctx, m.ChatID, m.Edit, m.Message)
	case m.Document != nil:
		// A file is not heard late: a try with no answer is tried again,
		// and a person may get it twice rather than never.
		err = d.sendDocument(ctx, m)
	default:
		_, err = d.sendHeard(ctx, m.ChatID, m.Thread, m.Message, d.announceListen(), late)
	}
	if isNotModified(err) {
		return nil
	}
	return err
}

// superseded reports whether a later entry edits the same message as m
// does, so m need not be shown: a reader turning pages quickly costs one
// call for the page they stopped at.
func superseded(m outbox.Entry, later []store.Envelope) bool {
	if m.Edit == 0 {
		return false
	}
	for _, e := range later {
		if n, _, err := outbox.Decode(e.Data); err == nil && n.ChatID == m.ChatID && n.Edit == m.Edit {
			return true
		}
	}
	return false
}

// sendLease is how long an announcement's sender has it to itself: longer
// than one call, so its ack lands first.
func (d *Delivery) sendLease() time.Duration { return 3 * d.limits.CallTimeout }

// takeSend makes the caller the only one to send an outbox entry for a
// while. A commit wakes its table at once, so another replica may claim the
// table while this one still serves it; both then read the same entry, and
// without this both would post it. It returns when to come back if someone
// else has the entry (zero when it is ours).
//
// Each try Telegram refused (tried.refused) frees the lease: the try after
// a 429 goes when retry_after has passed (the chat's block in the store),
// on any replica, not when the refused try's lease ends. Only the lease's
// holder records a refusal, so two replicas still never post one entry.
func (d *Delivery) takeSend(ctx context.Context, call string, tried tries) (time.Time, error) {
	key := "send:" + call
	if tried.refused > 0 {
		key += "#" + strconv.Itoa(tried.refused)
	}
	ok, wait, err := d.store.Allow(ctx, key, 1, d.sendLease(), d.now())
	switch {
	case err != nil:
		d.log.Error().Err(err).Str("call", call).Msg("take an announcement")
		return d.now().Add(time.Second), err
	case !ok:
		return d.now().Add(wait), nil
	}
	return time.Time{}, nil
}

// permanent reports a Bot API refusal that sending again cannot fix: a
// malformed call, a chat the bot cannot write to, or a group that became a
// supergroup (its table follows it by itself, migrate).
func permanent(err error) bool {
	var moved *tgbot.MigrateError
	return errors.Is(err, tgbot.ErrorBadRequest) || errors.Is(err, tgbot.ErrorForbidden) || errors.As(err, &moved)
}

// unsure reports a failed call that may have taken effect anyway: it got
// no answer (a timeout, a connection broken mid-call). Telegram's own
// answer refusing the call (a 4xx, a 429, a 5xx) and a call that never
// left (no connection could be made) posted nothing.
func unsure(err error) bool {
	var tooMany *tgbot.TooManyRequestsError
	var dial *net.OpError
	var dns *net.DNSError
	switch {
	case err == nil, errors.Is(err, errNotSent), permanent(err), errors.As(err, &tooMany), errors.Is(err, tgbot.ErrorUnauthorized),
		errors.Is(err, tgbot.ErrorNotFound), errors.Is(err, tgbot.ErrorConflict),
		strings.Contains(err.Error(), "error response from telegram"),
		errors.As(err, &dial) && dial.Op == "dial", errors.As(err, &dns):
		return false
	}
	return true
}

// redraw renders every dirty view from the table at version and sends or
// edits its message, the calls players feel most first: a fresh "your
// turn" message, then the group table, then other edits. Marks made after
// version survive for the next round. Message records of earlier games are
// pruned: only the current game's views are kept. Replaced messages are
// deleted later, in batches (see deleteReplaced). With holdGroup the group table
// is left as it is: an announcement to the group waits before it.
func (d *Delivery) redraw(ctx context.Context, t *record.Table, version int64, holdGroup bool) time.Time {
	records, marks, err := d.store.Views(ctx, t.ID)
	if err != nil {
		// Releasing the table now would stall its delivery until the next
		// move: come back soon instead.
		d.log.Error().Err(err).Str("table", t.ID).Msg("read message records and dirty views")
		return d.now().Add(time.Second)
	}
	var old []string
	for v := range records {
		if _, gameNo, _, ok := view.Parse(v); !ok || gameNo != t.GameNo {
			old = append(old, v)
			delete(records, v)
		}
	}
	if err := d.store.DeleteMessages(ctx, t.ID, old...); err != nil {
		d.log.Warn().Err(err).Str("table", t.ID).Msg("prune message records")
	}
	var next time.Time
	later := func(at time.Time) { next = earliest(next, at) }
	var jobs []redrawJob
	var waiting [4]int
	for v := range marks {
		if at, ok := d.tableWaits(ctx, t, v, view.ParseMessageRecord(records[v])); ok {
			// Not rendered: it could not go before at anyway.
			waiting[prioTable]++
			later(at)
			continue
		}
		j, ok, err := d.renderView(t, v, view.ParseMessageRecord(records[v]))
		if err == nil {
			j, ok = d.withGroupHand(ctx, t, v, records, j, ok)
		}
		switch {
		case err != nil:
			// The game cannot read its state: fenced off at once.
			if uerr := d.tables.Unreadable(ctx, t.ID, "render "+v+": "+err.Error(), nil); uerr != nil {
				d.log.Error().Err(uerr).Str("table", t.ID).Str("view", v).Msg("view cannot be drawn; table not fenced off yet")
			}
			later(d.now().Add(2 * time.Second))
		case ok:
			jobs = append(jobs, j)
		default: // nothing to show: the view is clean
			if rec := view.ParseMessageRecord(records[v]); rec.Pending != 0 {
				// No longer waiting to show anything.
				d.budget.withdraw(ctx, viewCall(t.ID, v))
				rec.Pending = 0
				if err := d.store.SetMessage(ctx, t.ID, v, rec.String()); err != nil {
					later(d.now().Add(time.Second))
					continue
				}
			}
			d.markShown(ctx, t, v, version, later)
		}
	}
	sort.Slice(jobs, func(i, j int) bool {
		if jobs[i].prio != jobs[j].prio {
			return jobs[i].prio < jobs[j].prio
		}
		return jobs[i].view < jobs[j].view
	})
	sent := false
	for _, j := range jobs {
		if ctx.Err() != nil {
			// The serving lost its lease: no more calls (another
			// replica serves the table).
			later(d.now().Add(time.Second))
			break
		}
		if holdGroup && (j.chatID == t.ChatID || j.group != nil) {
			// Its dirty mark stays; the outbox's wait brings us back.
			waiting[j.prio]++
			if j.chatID == t.ChatID || !j.nudge || j.quiet {
				continue
			}
			// A turn told in private goes meanwhile; the hand in the
			// group waits with the group's other calls.
			j.group, j.hold = nil, d.now().Add(time.Second)
		}
		if j.group != nil {
			if wait := d.hands.Redraw(ctx, t, j.seat, j.group); !wait.IsZero() {
				waiting[j.prio]++
				later(wait)
				if !j.nudge || j.quiet {
					continue
				}
				// Their turn goes to the private chat meanwhile; the
				// mark stays for the hand in the group.
				j.hold = wait
			}
		}
		if j.quiet && !j.hold.IsZero() {
			// The private hand waits while its person plays from the
			// group; the mark stays, to tell them in private later.
			later(j.hold)
			continue
		}
		if j.quiet {
			if j.rec.Pending != 0 {
				d.budget.withdraw(ctx, viewCall(t.ID, j.view))
			}
			if j.rec.Ping && !j.nudge || j.rec.Pending != 0 {
				// A private hand that told the turn keeps saying so.
				j.rec.Ping, j.rec.Pending = j.rec.Ping && j.nudge, 0
				if err := d.store.SetMessage(ctx, t.ID, j.view, j.rec.String()); err != nil {
					later(d.now().Add(time.Second))
					continue
				}
			}
			d.markShown(ctx, t, j.view, version, later)
			continue
		}
		wait, err := d.redrawView(ctx, t, version, j)
		if errors.Is(err, errGaveUp) {
			// Its copies, if any reached the chat, are refused as stale
			// once a later one is known (and the late ones it heard of
			// retired); the table's next change tries again.
			d.log.Warn().Err(err).Str("table", t.ID).Str("view", j.view).Int64("version", version).
				Msg("view's sends unanswered: not sent again until the table changes")
			sent = true // its record changed
			d.markShown(ctx, t, j.view, version, later)
			continue
		}
		if err != nil && permanent(err) {
			// Telegram refuses this rendering for good (a malformed
			// message, a group that became a supergroup): tried again
			// when the view changes, not every few seconds meanwhile.
			d.log.Error().Err(err).Str("table", t.ID).Str("view", j.view).Msg("view refused by Telegram; not retried until it changes")
			d.markShown(ctx, t, j.view, version, later)
			continue
		}
		if err != nil {
			d.log.Warn().Err(err).Str("table", t.ID).Str("view", j.view).Bool("maybe_sent", unsure(err)).Msg("redraw")
			wait = d.now().Add(2 * time.Second)
		}
		if !wait.IsZero() {
			waiting[j.prio]++
			later(wait)
			continue
		}
		sent = true
		if !j.hold.IsZero() {
			later(j.hold) // the mark stays: their turn comes to this chat later
			continue
		}
		d.markShown(ctx, t, j.view, version, later)
	}
	// Replaced messages are recorded when their view is sent anew, so
	// there are none to disarm or delete unless a view was sent in this
	// pass or a record already had some.
	if sent || hasReplaced(records) {
		if wait := d.retireReplaced(ctx, t, records, sent, holdGroup, &waiting); !wait.IsZero() {
			later(wait)
		}
	}
	d.budget.load.report(t.ID, waiting, d.now())
	return next
}

// tableWaits reports whether the group table's view v is an edit this
// process already knows the group's limits refuse until at, so it need not
// be rendered now. The change it waits to show starts counting its
// deadline now, as if the edit had been tried (see redrawView).
func (d *Delivery) tableWaits(ctx context.Context, t *record.Table, v string, rec view.MessageRecord) (time.Time, bool) {
	kind, gameNo, _, ok := view.Parse(v)
	if !ok || kind != "table" || gameNo != t.GameNo || rec.ID == 0 {
		return time.Time{}, false
	}
	at, known := d.budget.chatRefused(d.budget.chatLimits(t.ChatID, classView), d.now())
	if !known {
		return time.Time{}, false
	}
	if rec.Pending == 0 {
		rec.Pending = d.now().UnixMilli()
		if !t.Updated.IsZero() {
			rec.Pending = t.Updated.UnixMilli()
		}
		if err := d.store.SetMessage(ctx, t.ID, v, rec.String()); err != nil {
			return time.Time{}, false // try it the ordinary way
		}
	}
	return at, true
}

// hasReplaced reports whether any message record lists replaced messages
// (to disarm — take their buttons — or to delete).
func hasReplaced(records map[string]string) bool {
	for _, raw := range records {
		if rec := view.ParseMessageRecord(raw); len(rec.Stale) > 0 || len(rec.Strip) > 0 {
			return true
		}
	}
	return false
}

// markShown removes a view's dirty mark once its message shows version.
func (d *Delivery) markShown(ctx context.Context, t *record.Table, v string, version int64, later func(time.Time)) {
	if err := d.store.Clean(ctx, t.ID, v, version); err != nil {
		d.log.Error().Err(err).Str("table", t.ID).Msg("mark a view shown")
		later(d.now().Add(time.Second))
	}
}

// redrawJob is one dirty view rendered and ready to send.
type redrawJob struct {
	view   string
	chatID int64
	thread int
	seat   int // -1 for the group table
	m      adapter.Message
	rec    view.MessageRecord
	prio   priority
	// patience is how long the call may wait from the change it shows.
	patience time.Duration
	// gen is the view's repost count (Table.Reposts): a message posted
	// for an older one is replaced by a fresh message.
	gen int
	// quiet: nothing to send, only the record to update (a lazy view).
	quiet bool
	// platform: m is one of the platform's states (view.PlatformState).
	platform bool
	// group: the seat's hand in the group to edit first (grouphand.Job);
	// hold: until when a quiet private hand keeps its dirty mark; nudge:
	// the private hand tells the turn of a person who plays from the
	// group (grouphand.Quiet.Nudge), even while the group's hand waits.
	group *grouphand.Job
	hold  time.Time
	nudge bool
}

// renderView renders a dirty view. ok=false means there is nothing to send:
// an older game's view, a seat the bot cannot write to, a message that
// already shows this, or a waiting view the game marked lazy.
func (d *Delivery) renderView(t *record.Table, v string, rec view.MessageRecord) (redrawJob, bool, error) {
	kind, gameNo, seat, ok := view.Parse(v)
	if !ok || gameNo != t.GameNo {
		return redrawJob{}, false, nil // an older game's view: leave its message as it was
	}
	j := redrawJob{view: v, chatID: t.ChatID, thread: t.Thread, seat: -1, rec: rec, prio: prioTable, patience: tablePatience, gen: t.Reposts[v]}
	back := false    // the hand replaces a platform state (message.ShowsPlatformState)
	confirm := false // a waiting hand confirms the move its message still shows buttons for
	switch kind {
	case "table":
		j.m = d.views.Group(t)
		if t.Practice() && t.State != nil {
			j.m = d.views.PracticeTable(t) // the game is drawn with the hand
		}
	case "hand":
		if seat >= len(t.Seats) || t.Seats[seat].Unreachable || t.State == nil {
			return redrawJob{}, false, nil
		}
		s := t.Seats[seat]
		user := s.UserID
		switch {
		case s.Leaver != nil:
			user = s.Leaver.UserID // told once that they left
		case !s.Human():
			return redrawJob{}, false, nil
		}
		if user <= 0 {
			return redrawJob{}, false, nil // a person forgotten (/forgetme): no one to write to
		}
		j.chatID, j.thread, j.seat = user, 0, seat
		m, err := d.views.Seat(t, seat)
		if err != nil {
			return redrawJob{}, false, err
		}
		if t.Practice() && s.Leaver == nil {
			m = d.views.PracticeHand(t, m)
		}
		j.m, j.platform = m, view.PlatformState(t, seat)
		j.patience = handPatience
		if d.views.WebShown(t, seat) {
			// The page shows the hand: the chat's copy waits, as a
			// waiting hand does, and is drawn again when the page hides.
			j.quiet = true
			return j, true, nil
		}
		if rec.ID != 0 && t.Phase == record.PhasePlaying && message.ShowsPlatformState(rec) {
			// The message shows the platform's own state (the bot plays
			// for them, or they were asked to confirm leaving), and the
			// player is looking at it: it turns into what comes next in
			// place — an edit, lazy or pinging — so that state does not
			// stay on screen, nor a fresh message come for it.
			rec.Ping = m.Ping
			j.rec, back = rec, true
		}
		confirm = j.m.Lazy && rec.ID != 0 && rec.Buttons && !back && view.MovedNote(&t.Seats[seat]) != nil
		switch {
		case j.m.Ping && !(rec.ID != 0 && rec.Ping):
			j.prio, j.patience = prioPrompt, promptPatience
		case confirm:
			// The message that asked for the move confirms it: the
			// player is looking at it (handPatience). Whether or not the
			// edit gets through before their next turn, that turn is a
			// fresh message (it must notify): the record stops saying it
			// pinged now, as it does for any waiting hand.
			j.rec.Ping = false
		case j.m.Lazy:
			// A waiting player's hand, shown for the first time (later
			// ones wait for their turn, below): wanted before their turn,
			// which posts it anyway if it comes first.
			j.patience = firstLookPatience
		}
	}
	j.m.Text = adapter.Clip(j.m.Text)
	if message.Shows(rec, j.m, j.platform) && rec.Gen == j.gen {
		return redrawJob{}, false, nil
	}
	if j.m.Lazy && rec.ID != 0 && rec.Gen == j.gen && t.Phase == record.PhasePlaying && !back && !confirm {
		// The player is waiting: their last message stays as it is (its
		// buttons are refused as stale) until it is their turn again,
		// which posts a fresh message anyway. No call spent; but the
		// record must stop saying it pinged, or the next turn would be an
		// edit, and an edit does not notify. The one exception: a message
		// that still shows the buttons of the move just made is edited
		// once into the waiting view, which confirms the move (moved.go)
		// and has none — unless the next prompt comes first and replaces
		// it.
		j.quiet = true
	}
	return j, true, nil
}

// redrawView brings one view's message up to date for the table at
// version. It returns a time to retry when the limits say wait, or when a
// send went unanswered (see unanswered.go); errGaveUp when its sends went
// unanswered too often for this version.
func (d *Delivery) redrawView(ctx context.Context, t *record.Table, version int64, j redrawJob) (time.Time, error) {
	rec, m := j.rec, j.m
	save := func(r view.MessageRecord) error { return d.store.SetMessage(ctx, t.ID, j.view, r.String()) }
	// record saves what a call did, even when the serving lost its lease
	// meanwhile: the next owner must know the message it posted (or may
	// have posted), or it posts it again.
	record := func(r view.MessageRecord) error {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return d.store.SetMessage(sctx, t.ID, j.view, r.String())
	}
	if rec.Await != 0 {
		// A send of this view went unanswered: what its answer said, if
		// it came, first.
		heard, changed, err := d.hearLate(ctx, t, j, rec)
		if err != nil {
			return time.Time{}, err
		}
		if changed {
			if err := save(heard); err != nil {
				return time.Time{}, err
			}
			rec = heard
		}
		if rec.ID != 0 && rec.Await == 0 && message.Shows(rec, m, j.platform) && rec.Gen == j.gen {
			rec.Pending = 0 // the copy heard late shows it
			return time.Time{}, save(rec)
		}
	}
	if rec.ID != 0 && (m.Ping && !rec.Ping || rec.Gen != j.gen) {
		// Turning to "your move", or asked to come down to the bottom of
		// the chat: post a fresh message (it notifies at once). The old
		// one loses its buttons as soon as the fresh one is there (disarmReplaced)
		// and, in a private chat, joins the messages to delete later. It
		// is recorded first, so a crash cannot leave it behind.
		old := rec
		rec = view.MessageRecord{Stale: old.Stale, StaleSince: old.StaleSince, Pending: old.Pending, Strip: old.Strip}
		if old.Buttons || j.seat < 0 {
			// The group's old table also says where the table went.
			rec.Strip = append(slices.Clone(old.Strip), old.ID)
		}
		if j.seat >= 0 {
			if len(old.Stale) == 0 {
				rec.StaleSince = d.now().UnixMilli()
			}
			rec.Stale = append(slices.Clone(old.Stale), old.ID)
		}
		if err := save(rec); err != nil {
			return time.Time{}, err
		}
	}
	// The deadline counts from the oldest change the message does not
	// show: the table's last change when the view is first tried (a
	// delivery follows each commit within milliseconds), kept while it
	// waits.
	started := rec.Pending == 0
	if started {
		rec.Pending = t.Updated.UnixMilli()
		if t.Updated.IsZero() {
			rec.Pending = d.now().UnixMilli()
		}
	}
	since := time.UnixMilli(rec.Pending)
	wait := func(at time.Time) (time.Time, error) {
		if started {
			return at, save(rec)
		}
		return at, nil
	}
	// A send waits for the answer of the last one that went unanswered,
	// and stops for this version at the cap.
	held := func() (time.Time, bool, error) {
		at, gaveUp := d.holdSend(rec, version)
		switch {
		case gaveUp:
			rec.Pending = 0
			return time.Time{}, true, errors.Join(errGaveUp, save(rec))
		case !at.IsZero():
			at, err := wait(at)
			return at, true, err
		}
		return time.Time{}, false, nil
	}
	done := func(r view.MessageRecord) (time.Time, error) {
		d.metrics.Delivered(j.prio.String(), d.now().Sub(since))
		r.Pending = 0
		return time.Time{}, record(r)
	}
	call := viewCall(t.ID, j.view)
	class := classOf(j.prio)
	if rec.ID == 0 && j.seat < 0 {
		// A group table posted anew answers someone: /newgame, /table,
		// «play again». Edits are the table's share; this is a reply.
		class = classReply
	}
	if rec.ID == 0 {
		if at, ok, err := held(); ok {
			return at, err
		}
	}
	if at := d.budget.admitAs(ctx, j.chatID, j.prio, class, call, since.Add(j.patience)); !at.IsZero() {
		return wait(at)
	}
	if rec.ID != 0 {
		err := d.edit(ctx, j.chatID, rec.ID, m)
		if retry, ok := d.retryAfter(ctx, j.chatID, err); ok {
			return wait(retry)
		}
		switch {
		case err == nil || isNotModified(err):
			rec.Digest, rec.Ping, rec.Buttons = message.Digest(m, j.platform), m.Ping, len(m.Keyboard) > 0
			return done(rec)
		case !isEditGone(err):
			return d.unreachable(ctx, t, j.seat, err)
		}
		// The message was deleted (by an admin, say): post it again.
		if at, ok, err := held(); ok {
			return at, err
		}
		if at := d.budget.admitAs(ctx, j.chatID, j.prio, class, call, since.Add(j.patience)); !at.IsZero() {
			return wait(at)
		}
	}
	start := d.now()
	tries := rec.Tries + 1
	await := start.Add(d.backoff(tries)).UnixMilli()
	heard := d.heardView(t.ID, j.view, lateCopy{digest: message.Digest(m, j.platform), ping: m.Ping, buttons: len(m.Keyboard) > 0, gen: j.gen, await: await})
	sent, err := d.sendHeard(ctx, j.chatID, j.thread, m, d.viewListen(), heard)
	if retry, ok := d.retryAfter(ctx, j.chatID, err); ok {
		return wait(retry)
	}
	if errors.Is(err, errNoAnswer) {
		// It may be in the chat: its answer is listened for until await,
		// and the view is not sent again before then.
		rec.Tries, rec.TriedAt, rec.Await = tries, version, await
		d.log.Warn().Str("table", t.ID).Str("view", j.view).Int("tries", tries).
			Msg("view's send unanswered: listening for its answer, will send again later")
		return time.UnixMilli(await), record(rec)
	}
	if err != nil {
		return d.unreachable(ctx, t, j.seat, err)
	}
	rec.ID, rec.Digest, rec.Ping, rec.Gen, rec.Buttons = sent.ID, message.Digest(m, j.platform), m.Ping, j.gen, len(m.Keyboard) > 0
	rec.Tries, rec.TriedAt, rec.Await = 0, 0, 0
	return done(rec)
}

// viewCall names the call that shows a view, for its place in the token's
// line: the same on every try, so the place is kept (and given up) by name.
func viewCall(table, view string) string { return table + "/" + view }

// retireReplaced disarms replaced messages (takes their buttons), then
// deletes those due (disarmReplaced, deleteReplaced). records are the table's message records as the pass
// read them; they are read again when the pass sent a view (which records
// the message it replaced) or the disarming wrote them. Both write a record
// only after reading it afresh, so a view redrawn meanwhile is kept.
func (d *Delivery) retireReplaced(ctx context.Context, t *record.Table, records map[string]string, sent, holdGroup bool, waiting *[4]int) time.Time {
	reread := func() bool {
		fresh, err := d.store.Messages(ctx, t.ID)
		if err != nil {
			return false
		}
		records = fresh
		return true
	}
	retry := d.now().Add(time.Second)
	if sent && !reread() {
		return retry
	}
	next, wrote := d.disarmReplaced(ctx, t, records, holdGroup, waiting)
	if wrote && !reread() {
		return earliest(next, retry)
	}
	return earliest(next, d.deleteReplaced(ctx, t, records, waiting))
}

// earliest is the sooner of two times, zero meaning none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// stripPatience is how long a replaced message may keep its buttons once
// the message replacing it is there; disarmSpare is how often a hand's disarming
// refused spare budget looks again.
const (
	stripPatience = 3 * time.Second
	disarmSpare   = time.Second
)

// disarmReplaced takes the buttons off replaced messages once the message replacing
// them is posted: a hand's old «your turn» loses its keyboard (the batch
// deletes it later, or never where Telegram refuses), and the group's old
// table says the table moved below. One call per message, in its chat's
// budget like a view's edit. While a game is on, a hand's disarming takes only
// budget nobody waits for (no place in the token's line): on a busy token
// prompts and tables go first, and the old buttons meanwhile are refused
// as stale. It returns when to come back for those that had to wait.
func (d *Delivery) disarmReplaced(ctx context.Context, t *record.Table, records map[string]string, holdGroup bool, waiting *[4]int) (time.Time, bool) {
	wrote := false
	var next time.Time
	later := func(at time.Time) { next = earliest(next, at) }
	for v, raw := range records {
		rec := view.ParseMessageRecord(raw)
		kind, _, seat, ok := view.Parse(v)
		if !ok || len(rec.Strip) == 0 || rec.ID == 0 {
			continue // nothing to disarm, or its successor is not posted yet
		}
		chatID := t.ChatID
		switch {
		case seat >= 0 && seat < len(t.Seats):
			chatID = t.Seats[seat].UserID
		case seat >= 0:
			continue
		case holdGroup:
			continue // the group's calls wait behind an announcement
		}
		call := t.ID + "/strip/" + v
		spare := seat >= 0 && t.Phase == record.PhasePlaying
		if spare {
			call = ""
		}
		var done []int
		// A busy token spends nothing on looks: a hand's old buttons are
		// then refused as stale until the batch deletes their message; a
		// disarming kept for a lull would only take that lull's calls from the
		// next prompts.
		busy := spare && d.budget.load.use(d.now()) >= spareUse
		if busy {
			done = slices.Clone(rec.Strip)
		}
		for _, id := range rec.Strip {
			if busy || ctx.Err() != nil {
				break
			}
			now := d.now()
			if wait := d.budget.admitFor(ctx, chatID, prioTable, call, now.Add(stripPatience)); !wait.IsZero() {
				waiting[prioTable]++
				if spare && wait.Before(now.Add(disarmSpare)) {
					wait = now.Add(disarmSpare)
				}
				later(wait)
				break
			}
			var err error
			if kind == "table" {
				// The group's old table says where the table went.
				err = d.edit(ctx, chatID, id, adapter.Message{Text: adapter.NewLoc(d.tr, t.Lang).T("table.moved")})
				if isNotModified(err) {
					err = nil
				}
			} else {
				err = d.disarm(ctx, chatID, id)
			}
			if retry, ok := d.retryAfter(ctx, chatID, err); ok {
				later(retry)
				break
			}
			if err != nil && !permanent(err) {
				d.log.Warn().Err(err).Str("table", t.ID).Msg("old buttons not removed, will retry")
				later(d.now().Add(2 * time.Second))
				break
			}
			// Done, or Telegram refuses for good (the message is gone).
			done = append(done, id)
		}
		if len(done) == 0 {
			continue
		}
		// Read again: the v may have been redrawn meanwhile.
		cur := rec
		if fresh, err := d.store.Messages(ctx, t.ID); err == nil {
			cur = view.ParseMessageRecord(fresh[v])
		}
		cur.Strip = slices.DeleteFunc(cur.Strip, func(id int) bool { return slices.Contains(done, id) })
		wrote = true
		if err := d.store.SetMessage(ctx, t.ID, v, cur.String()); err != nil {
			later(d.now().Add(time.Second))
		}
	}
	return next, wrote
}

// disarm takes a message's buttons away, leaving its text.
func (d *Delivery) disarm(ctx context.Context, chatID int64, id int) error {
	cctx, cancel := context.WithTimeout(ctx, d.limits.CallTimeout)
	defer cancel()
	_, err := d.tg.EditMessageReplyMarkup(cctx, &tgbot.EditMessageReplyMarkupParams{
		ChatID: chatID, MessageID: id,
		ReplyMarkup: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{}},
	})
	if err != nil && !isNotModified(err) {
		return fmt.Errorf("editMessageReplyMarkup: %w", err)
	}
	return nil
}

// Replaced messages are deleted in batches, one deleteMessages call for up
// to 100 of a chat, at the lowest priority: when the oldest has waited
// cleanupAfter, when a chat has cleanupBatch of them, or at once when the
// game is over. While the game is on, a batch takes only budget nobody
// waits for (no place in the token's line), so a busy token spends nothing
// on tidying; past cleanupMust messages, or once the game is over, it
// waits in line like any call.
const (
	cleanupAfter = 45 * time.Second
	cleanupBatch = 20
	cleanupMust  = 60
	// cleanupSpare is how long a batch refused spare budget waits before
	// it looks again.
	cleanupSpare = 5 * time.Second
)

// deleteReplaced deletes the replaced messages that are due. It returns when to
// come back for those that are not, or that had to wait for the limits.
func (d *Delivery) deleteReplaced(ctx context.Context, t *record.Table, records map[string]string, waiting *[4]int) time.Time {
	var next time.Time
	later := func(at time.Time) { next = earliest(next, at) }
	now := d.now()
	for v, raw := range records {
		rec := view.ParseMessageRecord(raw)
		_, _, seat, ok := view.Parse(v)
		if !ok || len(rec.Stale) == 0 {
			continue
		}
		if ctx.Err() != nil {
			break // the serving lost its lease
		}
		due := time.UnixMilli(rec.StaleSince).Add(cleanupAfter)
		if t.Phase == record.PhasePlaying && len(rec.Stale) < cleanupBatch && now.Before(due) {
			later(due)
			continue
		}
		chatID := t.ChatID
		if seat >= 0 {
			if seat >= len(t.Seats) {
				continue
			}
			chatID = t.Seats[seat].UserID
		}
		call := t.ID + "/clean/" + v
		spare := t.Phase == record.PhasePlaying && len(rec.Stale) < cleanupMust
		if spare {
			call = ""
		}
		if wait := d.budget.admitFor(ctx, chatID, prioCleanup, call, now.Add(cleanupPatience)); !wait.IsZero() {
			waiting[prioCleanup]++
			if spare && wait.Before(now.Add(cleanupSpare)) {
				wait = now.Add(cleanupSpare)
			}
			later(wait)
			continue
		}
		err := d.deleteMessages(ctx, chatID, rec.Stale)
		if retry, ok := d.retryAfter(ctx, chatID, err); ok {
			later(retry)
			continue
		}
		if err != nil {
			d.log.Debug().Err(err).Str("table", t.ID).Msg("old messages not deleted")
		}
		// Read again: the v may have been redrawn meanwhile.
		cur := view.ParseMessageRecord(records[v])
		if fresh, err := d.store.Messages(ctx, t.ID); err == nil {
			cur = view.ParseMessageRecord(fresh[v])
		}
		cur.Stale = slices.DeleteFunc(cur.Stale, func(id int) bool { return slices.Contains(rec.Stale, id) })
		if len(cur.Stale) == 0 {
			cur.StaleSince = 0
		}
		if err := d.store.SetMessage(ctx, t.ID, v, cur.String()); err != nil {
			later(now.Add(time.Second))
		}
	}
	return next
}

// deleteMessages deletes messages of one chat in one call (up to 100 at a
// time); messages already gone count as deleted.
func (d *Delivery) deleteMessages(ctx context.Context, chatID int64, ids []int) error {
	for len(ids) > 0 {
		n := min(len(ids), 100)
		cctx, cancel := context.WithTimeout(ctx, d.limits.CallTimeout)
		_, err := d.tg.DeleteMessages(cctx, &tgbot.DeleteMessagesParams{ChatID: chatID, MessageIDs: ids[:n]})
		cancel()
		if err != nil && !errors.Is(err, tgbot.ErrorBadRequest) {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

// unreachable handles a failed send of a player's hand: a 403 means the
// player blocked the bot or never started it, so the table says so and
// offers the deep link. Other errors are returned.
func (d *Delivery) unreachable(ctx context.Context, t *record.Table, seat int, err error) (time.Time, error) {
	if !errors.Is(err, tgbot.ErrorForbidden) {
		return time.Time{}, err
	}
	if seat < 0 {
		// The bot can't write to the group any more; my_chat_member closes
		// the table. Retrying would only hammer Telegram.
		d.log.Warn().Err(err).Str("table", t.ID).Msg("group unreachable")
		return time.Time{}, nil
	}
	if err := d.tables.MarkUnreachable(ctx, t.ID, t.Seats[seat].UserID); err != nil {
		return time.Time{}, err
	}
	return time.Time{}, nil
}

// retryAfter handles a 429: the chat is blocked for every replica until
// Telegram's retry_after has passed.
func (d *Delivery) retryAfter(ctx context.Context, chatID int64, err error) (time.Time, bool) {
	var tooMany *tgbot.TooManyRequestsError
	if !errors.As(err, &tooMany) {
		return time.Time{}, false
	}
	until := d.now().Add(time.Duration(tooMany.RetryAfter)*time.Second + 100*time.Millisecond)
	d.log.Warn().Int64("chat", chatID).Int("retry_after", tooMany.RetryAfter).Msg("telegram 429")
	if err := d.store.Block(ctx, store.ChatRateKey(chatID), until); err != nil {
		d.log.Error().Err(err).Msg("block chat")
	}
	return until, true
}

// sendMessage posts m, as long as ctx lets it wait (see sendHeard).
func (d *Delivery) sendMessage(ctx context.Context, chatID int64, thread int, m adapter.Message) (*models.Message, error) {
	sent, err := d.tg.SendMessage(ctx, &tgbot.SendMessageParams{
		ChatID:             chatID,
		MessageThreadID:    thread,
		Text:               adapter.Clip(m.Text),
		ParseMode:          models.ParseModeHTML,
		ReplyMarkup:        message.Markup(m),
		LinkPreviewOptions: message.NoPreview(),
	})
	if err != nil {
		return nil, fmt.Errorf("sendMessage: %w", err)
	}
	return sent, nil
}

// sendDocument sends an entry's file with its text as the caption.
func (d *Delivery) sendDocument(ctx context.Context, m outbox.Entry) error {
	ctx, cancel := context.WithTimeout(ctx, d.limits.CallTimeout)
	defer cancel()
	_, err := d.tg.SendDocument(ctx, &tgbot.SendDocumentParams{
		ChatID:          m.ChatID,
		MessageThreadID: m.Thread,
		Document:        &models.InputFileUpload{Filename: m.Document.Name, Data: bytes.NewReader(m.Document.Data)},
		Caption:         m.Text,
		ParseMode:       models.ParseModeHTML,
		ReplyMarkup:     message.Markup(m.Message),
	})
	if err != nil {
		return fmt.Errorf("sendDocument: %w", err)
	}
	return nil
}

func (d *Delivery) edit(ctx context.Context, chatID int64, msgID int, m adapter.Message) error {
	ctx, cancel := context.WithTimeout(ctx, d.limits.CallTimeout)
	defer cancel()
	kb := message.Markup(m)
	if kb == nil {
		kb = &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{}}
	}
	_, err := d.tg.EditMessageText(ctx, &tgbot.EditMessageTextParams{
		ChatID:             chatID,
		MessageID:          msgID,
		Text:               adapter.Clip(m.Text),
		ParseMode:          models.ParseModeHTML,
		ReplyMarkup:        kb,
		LinkPreviewOptions: message.NoPreview(),
	})
	if err != nil {
		return fmt.Errorf("editMessageText: %w", err)
	}
	return nil
}

func isNotModified(err error) bool {
	return errors.Is(err, tgbot.ErrorBadRequest) && strings.Contains(err.Error(), "message is not modified")
}

func isEditGone(err error) bool {
	return errors.Is(err, tgbot.ErrorBadRequest) &&
		(strings.Contains(err.Error(), "message to edit not found") || strings.Contains(err.Error(), "message can't be edited"))
}
