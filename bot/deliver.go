package bot

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/store"
)

// The delivery worker owns everything that happens after a commit: it fires
// turn timers, posts announcements and redraws dirty views, always from the
// latest state, so a burst of moves becomes one edit. Tables come from the
// store's wake set, so any replica can serve any table.

const (
	claimLease  = 12 * time.Second // a crashed replica's tables are taken over after this
	claimBatch  = 16
	idlePoll    = 500 * time.Millisecond // how often to look for other replicas' work
	callTimeout = 5 * time.Second        // one Bot API call; a service makes a few within its lease
)

// RunWorker delivers until ctx is done. Several workers (in one process or
// in several replicas) may run at once.
func (b *Bot) RunWorker(ctx context.Context) error {
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	defer wg.Wait()
	for ctx.Err() == nil {
		claims, err := b.store.ClaimDue(ctx, b.now(), claimLease, claimBatch)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			b.log.Error().Err(err).Msg("claim due tables")
			b.sleep(ctx, time.Second)
			continue
		}
		for _, c := range claims {
			sem <- struct{}{}
			wg.Add(1)
			go func(c store.Claim) {
				defer func() { <-sem; wg.Done() }()
				// Work already claimed is finished even when we are asked to
				// stop, so nothing is left half-delivered.
				sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimLease*2/3)
				defer cancel()
				next := b.service(sctx, c.Table)
				// Release with a fresh context: a table must not stay leased
				// just because we are shutting down.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				defer cancel()
				if err := b.store.Release(rctx, c, next); err != nil {
					b.log.Error().Err(err).Str("table", c.Table).Msg("release table")
				}
				b.poke() // the loop may be asleep on a wake time this just moved
			}(c)
		}
		if len(claims) == claimBatch {
			continue
		}
		b.waitWork(ctx)
	}
	return nil
}

// waitWork sleeps until the next wake-up is due, a local commit kicks us,
// or it is time to look for work from other replicas.
func (b *Bot) waitWork(ctx context.Context) {
	if b.metrics != nil {
		if n, err := b.store.Scheduled(ctx); err == nil {
			b.metrics.scheduled(n)
		}
	}
	d := idlePoll
	if at, ok, err := b.store.NextWake(ctx); err == nil && ok {
		if until := at.Sub(b.now()); until < d {
			d = until
		}
	}
	if d <= 0 {
		d = 5 * time.Millisecond // leased tables are due again only at the lease's end
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-b.kick:
	case <-timer.C:
	}
}

func (b *Bot) sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// service does a table's due work and returns when it wants to be woken
// next (zero: only on the next change).
func (b *Bot) service(ctx context.Context, id string) time.Time {
	log := b.log.With().Str("table", id).Logger()
	if err := b.fireTimer(ctx, id); err != nil {
		log.Error().Err(err).Msg("turn timer")
		return b.now().Add(time.Second)
	}
	t, version, err := b.load(ctx, id)
	if err != nil {
		log.Error().Err(err).Msg("load for delivery")
		return b.now().Add(time.Second)
	}
	var next time.Time
	later := func(at time.Time) {
		if !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	if t.Phase == PhasePlaying {
		later(t.nextTimer())
	}
	later(b.sendOutbox(ctx, t))
	later(b.redraw(ctx, t, version))
	// A change committed while we worked must not wait for the next
	// deadline: come back at once.
	if rec, err := b.store.Load(ctx, id); err == nil && rec.Version != version {
		return b.now()
	}
	return next
}

// sendOutbox posts queued announcements in order; it stops at the first
// that must wait and returns when to try again.
func (b *Bot) sendOutbox(ctx context.Context, t *Table) time.Time {
	for {
		envs, err := b.store.Outbox(ctx, t.ID, 8)
		if err != nil {
			b.log.Error().Err(err).Str("table", t.ID).Msg("read outbox")
			return b.now().Add(time.Second)
		}
		if len(envs) == 0 {
			return time.Time{}
		}
		for _, e := range envs {
			m, err := decodeOutMsg(e.Data)
			if err == nil {
				if wait := b.admit(ctx, m.ChatID); !wait.IsZero() {
					return wait
				}
				_, err = b.send(ctx, m.ChatID, m.Thread, m.message)
				if retry, ok := b.retryAfter(ctx, m.ChatID, err); ok {
					return retry
				}
				if err != nil && !permanent(err) {
					b.log.Warn().Err(err).Str("table", t.ID).Msg("announcement not sent, will retry")
					return b.now().Add(2 * time.Second)
				}
			}
			if err != nil {
				// The bot left the chat, or the message is malformed: drop
				// it rather than block the queue forever.
				b.log.Warn().Err(err).Str("table", t.ID).Int64("id", e.ID).Msg("announcement dropped")
			}
			if err := b.store.Ack(ctx, t.ID, e.ID); err != nil {
				b.log.Error().Err(err).Str("table", t.ID).Msg("ack outbox")
				return b.now().Add(time.Second)
			}
		}
	}
}

// permanent reports a Bot API refusal that sending again cannot fix.
func permanent(err error) bool {
	return errors.Is(err, tgbot.ErrorBadRequest) || errors.Is(err, tgbot.ErrorForbidden)
}

// redraw renders every dirty view from the table at version and sends or
// edits its message. Marks made after version survive for the next round.
func (b *Bot) redraw(ctx context.Context, t *Table, version int64) time.Time {
	marks, err := b.store.Dirty(ctx, t.ID)
	if err != nil || len(marks) == 0 {
		return time.Time{}
	}
	msgs, err := b.store.Messages(ctx, t.ID)
	if err != nil {
		b.log.Error().Err(err).Str("table", t.ID).Msg("read message ids")
		return b.now().Add(time.Second)
	}
	views := make([]string, 0, len(marks))
	for v := range marks {
		views = append(views, v)
	}
	sort.Slice(views, func(i, j int) bool { // the group table first
		ti, tj := strings.HasPrefix(views[i], "table"), strings.HasPrefix(views[j], "table")
		if ti != tj {
			return ti
		}
		return views[i] < views[j]
	})
	var next time.Time
	for _, v := range views {
		wait, err := b.redrawView(ctx, t, v, msgs[v])
		if err != nil {
			b.log.Warn().Err(err).Str("table", t.ID).Str("view", v).Msg("redraw")
			wait = b.now().Add(2 * time.Second)
		}
		if !wait.IsZero() {
			if next.IsZero() || wait.Before(next) {
				next = wait
			}
			continue
		}
		if err := b.store.Clean(ctx, t.ID, v, version); err != nil {
			b.log.Error().Err(err).Str("table", t.ID).Msg("clean view")
		}
	}
	return next
}

func digestKey(table, view string) string { return "digest:" + table + ":" + view }

// redrawView brings one view's message up to date. It returns a time to
// retry when the chat's rate limit says wait.
func (b *Bot) redrawView(ctx context.Context, t *Table, view string, msgID int) (time.Time, error) {
	kind, gameNo, seat, ok := parseView(view)
	if !ok || gameNo != t.GameNo {
		return time.Time{}, nil // an older game's view: leave its message as it was
	}
	chatID, thread := t.ChatID, t.Thread
	var m message
	switch kind {
	case "table":
		m = b.renderTable(t)
	case "hand":
		if seat >= len(t.Seats) || !t.Seats[seat].Human() || t.Seats[seat].Unreachable || t.Game == nil {
			return time.Time{}, nil
		}
		chatID, thread = t.Seats[seat].UserID, 0
		k, st, err := b.decode(t)
		if err != nil {
			return time.Time{}, err
		}
		m = k.RenderHand(b.loc(t.Lang), t, st, seat)
		b.addAutoNotice(t, seat, &m)
	}
	m.Text = clip(m.Text)
	prev, _ := b.store.Pointer(ctx, digestKey(t.ID, view))
	if msgID != 0 && prev == renderedAs(msgID, m) {
		return time.Time{}, nil
	}
	stale, hasStale := b.staleMessage(ctx, t.ID, view)
	if hasStale {
		// A replaced message is still there: delete it first.
		if wait := b.admit(ctx, chatID); !wait.IsZero() {
			return wait, nil
		}
		err := b.remove(ctx, chatID, stale)
		if retry, ok := b.retryAfter(ctx, chatID, err); ok {
			return retry, nil
		}
		if err := b.store.DeletePointer(ctx, staleKey(t.ID, view), strconv.Itoa(stale)); err != nil {
			return time.Time{}, err
		}
		if msgID != 0 && prev == renderedAs(msgID, m) {
			return time.Time{}, nil
		}
	}
	if msgID != 0 && m.Ping && !strings.HasSuffix(prev, ":ping") {
		// Turning to "your move": post a fresh message (it notifies at
		// once) and delete the old one on the next pass.
		if err := b.store.SetPointer(ctx, staleKey(t.ID, view), strconv.Itoa(msgID)); err != nil {
			return time.Time{}, err
		}
		if err := b.store.DeleteMessage(ctx, t.ID, view); err != nil {
			return time.Time{}, err
		}
		msgID = 0
	}
	if wait := b.admit(ctx, chatID); !wait.IsZero() {
		return wait, nil
	}
	if msgID != 0 {
		err := b.edit(ctx, chatID, msgID, m)
		if retry, ok := b.retryAfter(ctx, chatID, err); ok {
			return retry, nil
		}
		switch {
		case err == nil || isNotModified(err):
			return time.Time{}, b.store.SetPointer(ctx, digestKey(t.ID, view), renderedAs(msgID, m))
		case !isEditGone(err):
			return b.unreachable(ctx, t, seat, err)
		}
		// The message was deleted (by an admin, say): post it again.
		if wait := b.admit(ctx, chatID); !wait.IsZero() {
			return wait, nil
		}
	}
	sent, err := b.send(ctx, chatID, thread, m)
	if retry, ok := b.retryAfter(ctx, chatID, err); ok {
		return retry, nil
	}
	if err != nil {
		return b.unreachable(ctx, t, seat, err)
	}
	if err := b.store.SetMessage(ctx, t.ID, view, sent.ID); err != nil {
		return time.Time{}, err
	}
	if err := b.store.SetPointer(ctx, digestKey(t.ID, view), renderedAs(sent.ID, m)); err != nil {
		return time.Time{}, err
	}
	if _, ok := b.staleMessage(ctx, t.ID, view); ok {
		return b.now().Add(b.cfg.Limits.PrivateInterval), nil // come back to delete it
	}
	return time.Time{}, nil
}

func staleKey(table, view string) string { return "stale:" + table + ":" + view }

// staleMessage is a replaced message of the view still to be deleted.
func (b *Bot) staleMessage(ctx context.Context, table, view string) (int, bool) {
	v, err := b.store.Pointer(ctx, staleKey(table, view))
	if err != nil {
		return 0, false
	}
	id, err := strconv.Atoi(v)
	return id, err == nil
}

// renderedAs records what a view's message shows: its id, a digest of the
// rendering and whether it pinged.
func renderedAs(msgID int, m message) string {
	s := strconv.Itoa(msgID) + ":" + m.digest()
	if m.Ping {
		s += ":ping"
	}
	return s
}

// remove deletes a message; one that is already gone counts as removed.
func (b *Bot) remove(ctx context.Context, chatID int64, msgID int) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	_, err := b.tg.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: chatID, MessageID: msgID})
	if err != nil && errors.Is(err, tgbot.ErrorBadRequest) {
		return nil // not found, or too old to delete: the new message stands anyway
	}
	return err
}

// unreachable handles a failed send of a player's hand: a 403 means the
// player blocked the bot or never started it, so the table says so and
// offers the deep link. Other errors are returned.
func (b *Bot) unreachable(ctx context.Context, t *Table, seat int, err error) (time.Time, error) {
	if !errors.Is(err, tgbot.ErrorForbidden) {
		return time.Time{}, err
	}
	if seat < 0 {
		// The bot can't write to the group any more; my_chat_member closes
		// the table. Retrying would only hammer Telegram.
		b.log.Warn().Err(err).Str("table", t.ID).Msg("group unreachable")
		return time.Time{}, nil
	}
	user := t.Seats[seat].UserID
	_, _, uerr := b.update(ctx, t.ID, 0, func(t *Table, ch *change) error {
		s := t.SeatOf(user)
		if s < 0 || t.Seats[s].Unreachable {
			return errNoChange
		}
		t.Seats[s].Unreachable = true
		return nil
	})
	if uerr != nil && !errors.Is(uerr, errNoChange) {
		return time.Time{}, uerr
	}
	return time.Time{}, nil
}

// waitAdmit blocks until a call to the chat is within the limits (for
// direct replies to a user, which have no queue to wait in).
func (b *Bot) waitAdmit(ctx context.Context, chatID int64) {
	for i := 0; i < 20; i++ {
		wait := b.admit(ctx, chatID)
		if wait.IsZero() {
			return
		}
		b.sleep(ctx, wait.Sub(b.now()))
	}
}

// admit takes a unit of the chat's and the global rate limits. It returns
// zero when the call may go now, else when to try again.
func (b *Bot) admit(ctx context.Context, chatID int64) time.Time {
	now := b.now()
	interval := b.cfg.Limits.PrivateInterval
	if chatID < 0 {
		interval = b.cfg.Limits.GroupInterval
	}
	ok, wait, err := b.store.Allow(ctx, chatKey(chatID), 1, interval, now)
	if err != nil {
		b.log.Error().Err(err).Msg("rate limit")
		return now.Add(time.Second)
	}
	if !ok {
		return now.Add(wait)
	}
	ok, wait, err = b.store.Allow(ctx, "global", b.cfg.Limits.GlobalPerSecond, b.cfg.Limits.GlobalWindow, now)
	if err != nil {
		return now.Add(time.Second)
	}
	if !ok {
		return now.Add(wait)
	}
	return time.Time{}
}

func chatKey(chatID int64) string { return "chat:" + strconv.FormatInt(chatID, 10) }

// retryAfter handles a 429: the chat is blocked for every replica until
// Telegram's retry_after has passed.
func (b *Bot) retryAfter(ctx context.Context, chatID int64, err error) (time.Time, bool) {
	var tooMany *tgbot.TooManyRequestsError
	if !errors.As(err, &tooMany) {
		return time.Time{}, false
	}
	until := b.now().Add(time.Duration(tooMany.RetryAfter)*time.Second + 100*time.Millisecond)
	b.log.Warn().Int64("chat", chatID).Int("retry_after", tooMany.RetryAfter).Msg("telegram 429")
	if err := b.store.Block(ctx, chatKey(chatID), until); err != nil {
		b.log.Error().Err(err).Msg("block chat")
	}
	return until, true
}

func (b *Bot) send(ctx context.Context, chatID int64, thread int, m message) (*models.Message, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	sent, err := b.tg.SendMessage(ctx, &tgbot.SendMessageParams{
		ChatID:             chatID,
		MessageThreadID:    thread,
		Text:               clip(m.Text),
		ParseMode:          models.ParseModeHTML,
		ReplyMarkup:        m.markup(),
		LinkPreviewOptions: noPreview(),
	})
	if err != nil {
		return nil, fmt.Errorf("sendMessage: %w", err)
	}
	return sent, nil
}

func (b *Bot) edit(ctx context.Context, chatID int64, msgID int, m message) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	markup := m.markup()
	if markup == nil {
		markup = &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{}}
	}
	_, err := b.tg.EditMessageText(ctx, &tgbot.EditMessageTextParams{
		ChatID:             chatID,
		MessageID:          msgID,
		Text:               clip(m.Text),
		ParseMode:          models.ParseModeHTML,
		ReplyMarkup:        markup,
		LinkPreviewOptions: noPreview(),
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
