package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/internal/lease"
	"github.com/trickchef/trickchef/bot/internal/retry"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/safe"
	"github.com/trickchef/trickchef/store"
)

// Ingestion is the role that takes updates in: fetched (Poll) or pushed
// (Webhook), each is put into its chat's inbox in the store, and Run
// applies each chat's inbox in update order, one replica at a time per
// chat, chats in parallel, through the handler it was given. A handler
// commits its change and returns: whatever it has to say goes through a
// table's outbox and delivery, so ingestion never sends and never waits
// for Telegram's limits, and a chat is held only for its own updates. A
// flooding user is refused here, before the store.
type Ingestion struct {
	store Store
	tg    Answerer
	log   zerolog.Logger
	now   func() time.Time
	// metrics counts updates and floods; nil: not measured.
	metrics *metrics.Metrics
	// flood refuses a flooding user's updates before they are stored;
	// floodAnswers bounds the answers to them in flight.
	flood        *floodGate
	floodAnswers chan struct{}
	// handle applies an update; say is what a person is told, in their
	// language, when their press is refused here (Said).
	handle Handler
	say    func(u *models.User, what Said) string
	loop   *lease.Loop
}

// Said is what ingestion tells a person whose press it does not apply.
type Said int

const (
	// TooFast: they flood the bot.
	TooFast Said = iota
	// GivenUp: their press failed every attempt and was given up (it is
	// kept among the dead letters).
	GivenUp
)

// Store is the part of the store ingestion uses: the chats' inboxes and
// their queue, the attempts at each update, the dead letters.
type Store interface {
	lease.Store
	retry.Store
	Ingest(ctx context.Context, chat string, entries []store.InboxEntry, now time.Time) error
	Inbox(ctx context.Context, chat string, n int) ([]store.InboxEntry, error)
	Handled(ctx context.Context, chat string, id int64) error
	DeadLetter(ctx context.Context, chat string, e store.InboxEntry, reason string) error
	DeadLetterCount(ctx context.Context) (int64, error)
	Members(ctx context.Context, q store.Queue, n int) ([]string, error)
}

// Answerer answers a press ingestion does not apply (a flood's, one given
// up): the one Bot API call ingestion makes, outside every budget (it
// costs the others nothing).
type Answerer interface {
	AnswerCallbackQuery(ctx context.Context, p *tgbot.AnswerCallbackQueryParams) (bool, error)
}

// Handler applies one update durably; an error means it must be applied
// again later (the store is unreachable, say).
type Handler func(ctx context.Context, u *models.Update) error

// Config is ingestion's flood gate: each user may press PressBurst times
// at once, then PressesPerSecond.
type Config struct {
	PressesPerSecond float64
	PressBurst       int
}

// Params are what the ingestion role is built from.
type Params struct {
	Config   Config
	Store    Store
	Telegram Answerer
	// Handle applies an update.
	Handle Handler
	// Say is what a person is told in their language when their press is
	// not applied («not so fast», «that failed»).
	Say     func(u *models.User, what Said) string
	Now     func() time.Time
	Log     zerolog.Logger
	Metrics *metrics.Metrics // nil: not measured
}

// New builds the ingestion role.
func New(p Params) *Ingestion {
	cfg, st, tg, handle, say, now, log, m := p.Config, p.Store, p.Telegram, p.Handle, p.Say, p.Now, p.Log, p.Metrics
	in := &Ingestion{store: st, tg: tg, log: log, now: now, metrics: m,
		flood:        newFloodGate(cfg.PressesPerSecond, cfg.PressBurst),
		floodAnswers: make(chan struct{}, 16),
		handle:       handle, say: say}
	in.loop = &lease.Loop{Name: "inbox", Queue: lease.Bind(st, store.Inboxes), Lease: inboxLease, Workers: inboxWorkers,
		Idle: inboxIdle, Now: now, Log: log, Serve: in.drainChat, Panics: m.Panic}
	return in
}

const (
	// inboxLease is how long a claimed chat is its claimant's; a crashed
	// replica's chats are taken over after it.
	inboxLease = 10 * time.Second
	// inboxHold is how long a claimant keeps a busy chat before letting it
	// go (and usually claiming it again), so its lease never runs out.
	inboxHold = 3 * time.Second
	// handleTimeout bounds one update's handling, well within a lease.
	handleTimeout = 6 * time.Second
	// inboxWorkers is how many chats one replica applies at once.
	inboxWorkers = 32
	// inboxIdle is how often an idle replica looks for chats that another
	// replica left (it crashed, or gave a chat back).
	inboxIdle = 500 * time.Millisecond
)

// updatePolicy is how an update whose handler fails is tried again (the
// runtime's one policy, bot/internal/retry): five attempts, counted in the
// store before each runs, 0.5, 1, 2 and 4 s apart — given up within about
// eight seconds of the first when the handler fails at once, so its press
// is answered while Telegram still takes an answer (about 15 s) — then the
// update goes to the dead letters and its press is answered «that
// failed». Its chat waits meanwhile (updates apply in order); a count is
// forgotten an hour after its last attempt.
var updatePolicy = retry.Policy{Limit: 5, First: 500 * time.Millisecond, Max: 4 * time.Second, Window: time.Hour}

// AttemptKey is the key of a chat's attempts in the store (each counts
// its first waiting update's): a person who puts a dead letter back
// forgets it, so the update gets all its attempts again.
func AttemptKey(chat string) string { return "in:" + chat }

// ingest puts updates into their chats' inboxes, except presses and
// commands of a user who floods the bot: those are refused at once (a
// press gets «not so fast») and never reach the store.
func (in *Ingestion) ingest(ctx context.Context, ups []*models.Update) error {
	now := in.now()
	byChat := map[int64][]store.InboxEntry{}
	var order []int64
	for _, u := range ups {
		if ok, again := in.flood.allow(u.ID, sender(u), time.Now()); !ok {
			if !again {
				in.metrics.Flooded(u)
				in.refuseFlood(u)
			}
			continue
		}
		data, err := json.Marshal(u)
		if err != nil {
			in.log.Error().Err(err).Int64("update", u.ID).Msg("update cannot be stored; dropped")
			continue
		}
		chat := chatOf(u)
		if _, ok := byChat[chat]; !ok {
			order = append(order, chat)
		}
		byChat[chat] = append(byChat[chat], store.InboxEntry{ID: u.ID, Data: data})
	}
	for _, chat := range order {
		if err := in.store.Ingest(ctx, store.InboxChat(chat), byChat[chat], now); err != nil {
			return err
		}
	}
	if len(order) > 0 {
		in.wakeInbox()
	}
	return nil
}

// sender is the user an update comes from (0 when none).
func sender(u *models.Update) int64 {
	switch {
	case u.CallbackQuery != nil:
		return u.CallbackQuery.From.ID
	case u.Message != nil && u.Message.From != nil:
		return u.Message.From.ID
	}
	return 0
}

// refuseFlood answers a flooding user's press with «not so fast» (a
// command is dropped: answering it would spend the chat's budget on the
// flood).
func (in *Ingestion) refuseFlood(u *models.Update) {
	if u.CallbackQuery == nil {
		in.log.Debug().Int64("update", u.ID).Msg("command from a flooding user dropped")
		return
	}
	in.answerAside(u.CallbackQuery, TooFast)
}

// answerAside answers a press ingestion does not apply. The answer is not
// rate-limited and costs the others nothing; it is sent aside so the work
// goes on, and dropped when many are in flight (a flood's).
func (in *Ingestion) answerAside(q *models.CallbackQuery, what Said) {
	if in.tg == nil || in.say == nil {
		return
	}
	select {
	case in.floodAnswers <- struct{}{}:
	default:
		return
	}
	safe.Go(in.log, in.metrics.Panic, "answering a press", func() {
		defer func() { <-in.floodAnswers }()
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		_, err := in.tg.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{
			CallbackQueryID: q.ID,
			Text:            in.say(&q.From, what),
		})
		if err != nil {
			in.log.Debug().Err(err).Msg("answerCallbackQuery failed")
		}
	})
}

// wakeInbox tells the local Run that chats may be due.
func (in *Ingestion) wakeInbox() { in.loop.Wake() }

// Run applies the updates waiting in the chats' inboxes until ctx is
// done. Every replica runs it; a chat is applied by one at a time.
func (in *Ingestion) Run(ctx context.Context) error {
	if in.metrics != nil {
		safe.Go(in.log, in.metrics.Panic, "inbox: measuring", func() { in.measure(ctx) })
	}
	return in.loop.Run(ctx)
}

// measure shows, every ten seconds, how many updates wait in the dead
// letters (all replicas' — the store's count) for a person to look at, and
// how long the oldest update of each kind has waited in the inboxes: a
// chat that stalls shows on a dashboard.
func (in *Ingestion) measure(ctx context.Context) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		if n, err := in.store.DeadLetterCount(ctx); err == nil {
			in.metrics.DeadLetters(n)
		}
		if oldest, err := in.oldestWaiting(ctx); err == nil {
			in.metrics.InboxOldest(oldest)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// measuredChats and measuredHead bound what oldestWaiting reads: the
// first chats of the queue, the first updates of each (in order, so the
// oldest).
const (
	measuredChats = 1000
	measuredHead  = 16
)

// oldestWaiting is how long the oldest waiting update of each kind
// (metrics.UpdateKinds) has been in its inbox, read from the chats with
// updates waiting (the Inboxes queue).
func (in *Ingestion) oldestWaiting(ctx context.Context) (map[string]time.Duration, error) {
	chats, err := in.store.Members(ctx, store.Inboxes, measuredChats)
	if err != nil {
		return nil, err
	}
	oldest := map[string]time.Duration{}
	now := in.now()
	for _, chat := range chats {
		entries, err := in.store.Inbox(ctx, chat, measuredHead)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.At.IsZero() {
				continue // stored before entries had their time
			}
			var u models.Update
			_ = json.Unmarshal(e.Data, &u) // unreadable: "other"
			kind := metrics.UpdateKind(&u)
			oldest[kind] = max(oldest[kind], now.Sub(e.At))
		}
	}
	return oldest, nil
}

// drainChat applies a claimed chat's updates in order until its inbox is
// empty (or it has held the chat for inboxHold), then gives it back.
func (in *Ingestion) drainChat(ctx context.Context, chat string) (next time.Time) {
	log := in.log.With().Str("chat", chat).Logger()
	start := time.Now()
	for {
		entries, err := in.store.Inbox(ctx, chat, 16)
		if err != nil {
			if ctx.Err() == nil {
				log.Error().Err(err).Msg("read inbox")
			}
			return in.now().Add(time.Second)
		}
		if len(entries) == 0 {
			return time.Time{} // due again when updates come
		}
		for _, e := range entries {
			if ctx.Err() != nil || time.Since(start) > inboxHold {
				// Given back due at once: a replica (this one, usually)
				// claims it again; when stopping, the next one does.
				return in.now()
			}
			applied, wait, err := in.applyEntry(ctx, chat, e)
			if err != nil {
				log.Warn().Err(err).Int64("update", e.ID).Dur("retry_in", wait).Msg("update not applied; will retry")
				return in.now().Add(wait)
			}
			if !applied {
				continue // given up: out of the inbox already
			}
			hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
			err = in.store.Handled(hctx, chat, e.ID)
			cancel()
			if err != nil {
				log.Error().Err(err).Int64("update", e.ID).Msg("mark update handled")
				return in.now().Add(time.Second)
			}
		}
	}
}

// applyEntry applies one inbox entry under the update policy: an attempt
// is counted in the store before the handler runs (a store that cannot
// count it runs nothing and counts nothing: the entry waits a second); a
// handler that fails — an error or a panic — has used the attempt up, and
// the entry waits its backoff; the last failed attempt, or one past it
// (the last never ended: its process died), gives the update up: moved to
// the store's dead letters (inspectable, counted, put back by a person),
// never dropped, its press answered. An update that cannot even be read is
// given up at once.
func (in *Ingestion) applyEntry(ctx context.Context, chat string, e store.InboxEntry) (applied bool, wait time.Duration, err error) {
	var u models.Update
	if err := json.Unmarshal(e.Data, &u); err != nil {
		return false, time.Second, in.giveUp(ctx, chat, e, &u, "unreadable: "+err.Error())
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
	a, err := updatePolicy.Begin(actx, in.store, AttemptKey(chat), strconv.FormatInt(e.ID, 10))
	cancel()
	if err != nil {
		return false, time.Second, fmt.Errorf("attempt not counted, so not made: %w", err)
	}
	if a.Spent() {
		reason := fmt.Sprintf("%d attempts; the last one never ended (its process stopped)", a.N-1)
		return false, time.Second, in.giveUp(ctx, chat, e, &u, reason)
	}
	// A handler that has started is finished even when we are asked to
	// stop: it returns within handleTimeout, and nothing is half-applied.
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), handleTimeout)
	defer cancel()
	err = in.handleSafely(hctx, &u)
	switch {
	case err == nil:
		return true, 0, nil
	case a.Last():
		reason := fmt.Sprintf("attempt %d of %d failed: %v", a.N, updatePolicy.Limit, err)
		return false, time.Second, in.giveUp(ctx, chat, e, &u, reason)
	}
	return false, a.Backoff(), fmt.Errorf("attempt %d of %d: %w", a.N, updatePolicy.Limit, err)
}

// giveUp moves an update its handler cannot apply to the dead letters and
// answers its press: it was not done, try again. Its count is forgotten,
// so put back it gets every attempt again.
func (in *Ingestion) giveUp(ctx context.Context, chat string, e store.InboxEntry, u *models.Update, reason string) error {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
	defer cancel()
	if err := in.store.DeadLetter(dctx, chat, e, reason); err != nil {
		return fmt.Errorf("dead letter: %w", err)
	}
	in.metrics.DeadLetter(u)
	in.log.Error().Str("chat", chat).Int64("update", e.ID).Str("reason", reason).Msg("update given up: kept among the dead letters")
	if u.CallbackQuery != nil {
		in.answerAside(u.CallbackQuery, GivenUp)
	}
	if err := in.store.ForgetAttempts(dctx, AttemptKey(chat)); err != nil {
		in.log.Warn().Err(err).Str("chat", chat).Msg("attempts not forgotten (they expire)")
	}
	return nil
}
