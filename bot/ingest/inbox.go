package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/internal/lease"
	"github.com/trickchef/trickchef/bot/metrics"
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
	// handle applies an update; tooFast is what a flooding person is told.
	handle  Handler
	tooFast func(u *models.User) string
	// tries counts the failures of updates that keep failing.
	tries *attempts
	loop  *lease.Loop
}

// Store is the part of the store ingestion uses: the chats' inboxes and
// their queue.
type Store interface {
	lease.Store
	Ingest(ctx context.Context, chat string, entries []store.InboxEntry, now time.Time) error
	Inbox(ctx context.Context, chat string, n int) ([]store.InboxEntry, error)
	Handled(ctx context.Context, chat string, id int64) error
	DeadLetter(ctx context.Context, chat string, e store.InboxEntry, reason string) error
	DeadLetterCount(ctx context.Context) (int64, error)
}

// Answerer answers a flooding user's press: the one Bot API call ingestion
// makes, outside every budget (it costs the others nothing).
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

// New builds the ingestion role: handle applies an update, tooFast says
// «not so fast» to a flooding person in their language.
func New(cfg Config, st Store, tg Answerer, handle Handler, tooFast func(u *models.User) string, now func() time.Time, log zerolog.Logger, m *metrics.Metrics) *Ingestion {
	in := &Ingestion{store: st, tg: tg, log: log, now: now, metrics: m,
		flood:        newFloodGate(cfg.PressesPerSecond, cfg.PressBurst),
		floodAnswers: make(chan struct{}, 16),
		handle:       handle, tooFast: tooFast, tries: &attempts{n: map[string]int{}}}
	in.loop = &lease.Loop{Name: "inbox", Queue: lease.Bind(st, store.Inboxes), Lease: inboxLease, Workers: inboxWorkers,
		Idle: inboxIdle, Now: now, Log: log, Serve: in.drainChat}
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
	// maxUpdateAttempts is how often an update whose handler keeps failing
	// (panicking) is tried before it is given up to the dead letters,
	// rather than holding its chat forever.
	maxUpdateAttempts = 3
)

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
// flood). The answer is not rate-limited and costs the others nothing; it
// is sent aside so the fetch goes on, and dropped when many are in flight.
func (in *Ingestion) refuseFlood(u *models.Update) {
	q := u.CallbackQuery
	if q == nil {
		in.log.Debug().Int64("update", u.ID).Msg("command from a flooding user dropped")
		return
	}
	select {
	case in.floodAnswers <- struct{}{}:
	default:
		return
	}
	go func() {
		defer func() { <-in.floodAnswers }()
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		_, err := in.tg.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{
			CallbackQueryID: q.ID,
			Text:            in.tooFast(&q.From),
		})
		if err != nil {
			in.log.Debug().Err(err).Msg("answerCallbackQuery to a flood failed")
		}
	}()
}

// wakeInbox tells the local Run that chats may be due.
func (in *Ingestion) wakeInbox() { in.loop.Wake() }

// Run applies the updates waiting in the chats' inboxes until ctx is
// done. Every replica runs it; a chat is applied by one at a time.
func (in *Ingestion) Run(ctx context.Context) error {
	go in.countDeadLetters(ctx)
	return in.loop.Run(ctx)
}

// countDeadLetters shows, every ten seconds, how many updates wait in the
// dead letters (all replicas' — the store's count) for a person to look at.
func (in *Ingestion) countDeadLetters(ctx context.Context) {
	if in.metrics == nil {
		return
	}
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		if n, err := in.store.DeadLetterCount(ctx); err == nil {
			in.metrics.DeadLetters(n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
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
			applied, err := in.applyEntry(ctx, chat, e)
			if err != nil {
				log.Warn().Err(err).Int64("update", e.ID).Msg("update not applied; will retry")
				return in.now().Add(time.Second)
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

// applyEntry applies one inbox entry. An error means "try again later":
// the store could not be reached, or the handler failed in a way that may
// pass. Only the handler's own failure (a panic) counts towards giving the
// update up; one given up, or one that cannot even be read, is moved to the
// store's dead letters (inspectable, counted), never dropped — so a sick
// store, which fails every update alike, never costs a move.
func (in *Ingestion) applyEntry(ctx context.Context, chat string, e store.InboxEntry) (applied bool, err error) {
	var u models.Update
	if err := json.Unmarshal(e.Data, &u); err != nil {
		return false, in.giveUp(ctx, chat, e, &u, "unreadable: "+err.Error())
	}
	// A handler that has started is finished even when we are asked to
	// stop: it returns within handleTimeout, and nothing is half-applied.
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), handleTimeout)
	defer cancel()
	err = in.handleSafely(hctx, &u)
	key := chat + "/" + strconv.FormatInt(e.ID, 10)
	var p *panicked
	switch {
	case err == nil:
		in.tries.forget(key)
		return true, nil
	case !errors.As(err, &p):
		return false, err // the store, most likely: tried again, never given up
	}
	if n := in.tries.add(key); n < maxUpdateAttempts {
		return false, fmt.Errorf("attempt %d: %w", n, err)
	}
	in.tries.forget(key)
	return false, in.giveUp(ctx, chat, e, &u, err.Error())
}

// giveUp moves an update its handler cannot apply to the dead letters.
func (in *Ingestion) giveUp(ctx context.Context, chat string, e store.InboxEntry, u *models.Update, reason string) error {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
	defer cancel()
	if err := in.store.DeadLetter(dctx, chat, e, reason); err != nil {
		return fmt.Errorf("dead letter: %w", err)
	}
	in.metrics.DeadLetter(u)
	in.log.Error().Str("chat", chat).Int64("update", e.ID).Str("reason", reason).Msg("update given up: kept among the dead letters")
	return nil
}

// attempts counts the failures of updates that keep failing.
type attempts struct {
	mu sync.Mutex
	n  map[string]int
}

func (a *attempts) add(key string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n[key]++
	return a.n[key]
}

func (a *attempts) forget(key string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.n, key)
}
