package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/store"
)

// ingestion is the role that takes updates in: fetched (Poll) or pushed
// (WebhookHandler), each is put into its chat's inbox in the store, and
// RunInbox applies each chat's inbox in update order, one replica at a time
// per chat, chats in parallel, through the handlers (HandleUpdate). A
// handler commits its change and returns: whatever it has to say goes
// through a table's outbox and the delivery worker, so ingestion never
// sends and never waits for Telegram's limits, and a chat is held only for
// its own updates. A flooding user is refused here, before the store.
type ingestion struct {
	store ingestStore
	tg    floodAnswerer
	tr    adapter.Translator
	log   zerolog.Logger
	now   func() time.Time
	// metrics counts updates and floods; nil: not measured.
	metrics *Metrics
	// flood refuses a flooding user's updates before they are stored;
	// floodAnswers bounds the answers to them in flight.
	flood        *floodGate
	floodAnswers chan struct{}
	// kick wakes the local RunInbox after an ingest.
	kick chan struct{}
	// handlers apply an update (HandleUpdate) and know a person's language.
	handlers updateHandlers
}

// ingestStore is the part of the store ingestion uses: the chats' inboxes.
type ingestStore interface {
	Ingest(ctx context.Context, chat string, entries []store.InboxEntry, now time.Time) error
	Inbox(ctx context.Context, chat string, n int) ([]store.InboxEntry, error)
	Handled(ctx context.Context, chat string, id int64) error
	ClaimChats(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.Claim, error)
	ReleaseChat(ctx context.Context, c store.Claim, next, now time.Time) error
	NextChat(ctx context.Context) (time.Time, bool, error)
}

// floodAnswerer answers a flooding user's press: the one Bot API call
// ingestion makes, outside every budget (it costs the others nothing).
type floodAnswerer interface {
	AnswerCallbackQuery(ctx context.Context, p *tgbot.AnswerCallbackQueryParams) (bool, error)
}

// updateHandlers is what ingestion hands an update to.
type updateHandlers interface {
	HandleUpdate(ctx context.Context, u *models.Update) error
	userLang(u *models.User) string
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
	// maxUpdateAttempts is how often an update that keeps failing is tried
	// before it is given up (logged), rather than holding its chat forever.
	maxUpdateAttempts = 5
)

// ingest puts updates into their chats' inboxes, except presses and
// commands of a user who floods the bot: those are refused at once (a
// press gets «not so fast») and never reach the store.
func (in *ingestion) ingest(ctx context.Context, ups []*models.Update) error {
	now := in.now()
	byChat := map[int64][]store.InboxEntry{}
	var order []int64
	for _, u := range ups {
		if !in.flood.allow(sender(u), time.Now()) {
			in.metrics.flooded(u)
			in.refuseFlood(u)
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
func (in *ingestion) refuseFlood(u *models.Update) {
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
			Text:            adapter.NewLoc(in.tr, in.handlers.userLang(&q.From)).T("error.too_fast"),
		})
		if err != nil {
			in.log.Debug().Err(err).Msg("answerCallbackQuery to a flood failed")
		}
	}()
}

// wakeInbox tells the local RunInbox that chats may be due.
func (in *ingestion) wakeInbox() {
	select {
	case in.kick <- struct{}{}:
	default:
	}
}

// RunInbox applies the updates waiting in the chats' inboxes until ctx is
// done. Every replica runs it; a chat is applied by one at a time.
func (b *Bot) RunInbox(ctx context.Context) error { return b.ingestion.run(ctx) }

// run applies the chats' inboxes until ctx is done.
func (in *ingestion) run(ctx context.Context) error {
	sem := make(chan struct{}, inboxWorkers)
	var wg sync.WaitGroup
	defer wg.Wait()
	tries := &attempts{n: map[string]int{}}
	for ctx.Err() == nil {
		if free := cap(sem) - len(sem); free > 0 {
			claims, err := in.store.ClaimChats(ctx, in.now(), inboxLease, free)
			if err != nil {
				if ctx.Err() != nil {
					break
				}
				in.log.Error().Err(err).Msg("claim chats")
				sleep(ctx, time.Second)
				continue
			}
			for _, c := range claims {
				sem <- struct{}{}
				wg.Add(1)
				go func(c store.Claim) {
					defer func() { <-sem; wg.Done(); in.wakeInbox() }()
					in.drainChat(ctx, c, tries)
				}(c)
			}
			if len(claims) == free {
				continue // there may be more
			}
		}
		in.waitInbox(ctx)
	}
	return nil
}

// waitInbox sleeps until an ingest or a finished chat kicks us, a chat
// given back falls due, or it is time to look for other replicas' chats.
func (in *ingestion) waitInbox(ctx context.Context) {
	d := inboxIdle
	if at, ok, err := in.store.NextChat(ctx); err == nil && ok {
		if until := at.Sub(in.now()); until < d {
			d = max(until, 5*time.Millisecond) // a leased chat is due only at its lease's end
		}
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-in.kick:
	case <-timer.C:
	}
}

// drainChat applies a claimed chat's updates in order until its inbox is
// empty (or it has held the chat for inboxHold), then gives it back.
func (in *ingestion) drainChat(ctx context.Context, c store.Claim, tries *attempts) {
	log := in.log.With().Str("chat", c.Table).Logger()
	next := time.Time{} // when the chat is due again; zero: when updates come
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
		defer cancel()
		if err := in.store.ReleaseChat(rctx, c, next, in.now()); err != nil {
			log.Error().Err(err).Msg("release chat")
		}
	}()
	start := time.Now()
	for {
		entries, err := in.store.Inbox(ctx, c.Table, 16)
		if err != nil {
			if ctx.Err() == nil {
				log.Error().Err(err).Msg("read inbox")
			}
			next = in.now().Add(time.Second)
			return
		}
		if len(entries) == 0 {
			return
		}
		for _, e := range entries {
			if ctx.Err() != nil || time.Since(start) > inboxHold {
				// Given back due at once: a replica (this one, usually)
				// claims it again; when stopping, the next one does.
				next = in.now()
				return
			}
			if err := in.applyEntry(ctx, c.Table, e, tries); err != nil {
				log.Warn().Err(err).Int64("update", e.ID).Msg("update not applied; will retry")
				next = in.now().Add(time.Second)
				return
			}
			hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
			err := in.store.Handled(hctx, c.Table, e.ID)
			cancel()
			if err != nil {
				log.Error().Err(err).Int64("update", e.ID).Msg("mark update handled")
				next = in.now().Add(time.Second)
				return
			}
		}
	}
}

// applyEntry applies one inbox entry. An error means "try again later";
// an update that cannot be read, or failed too often, is given up (logged).
func (in *ingestion) applyEntry(ctx context.Context, chat string, e store.InboxEntry, tries *attempts) error {
	var u models.Update
	if err := json.Unmarshal(e.Data, &u); err != nil {
		in.log.Error().Err(err).Int64("update", e.ID).Msg("stored update unreadable; dropped")
		return nil
	}
	// A handler that has started is finished even when we are asked to
	// stop: it returns within handleTimeout, and nothing is half-applied.
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), handleTimeout)
	defer cancel()
	err := in.handleSafely(hctx, &u)
	key := chat + "/" + strconv.FormatInt(e.ID, 10)
	if err == nil {
		tries.forget(key)
		return nil
	}
	if n := tries.add(key); n < maxUpdateAttempts {
		return fmt.Errorf("attempt %d: %w", n, err)
	}
	tries.forget(key)
	in.log.Error().Err(err).Int64("update", e.ID).Msg("update given up after repeated failures")
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
