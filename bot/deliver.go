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
	// A commit wakes its table at once, so the table may be claimed again
	// while this worker is still serving it. Two services of one table at
	// once would each post its messages: instead the running one serves it
	// again when it is done, and releases the latest claim.
	var mu sync.Mutex
	serving := map[string]*servingTable{}
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
			mu.Lock()
			if s, ok := serving[c.Table]; ok {
				s.latest, s.again = c, true
				mu.Unlock()
				continue
			}
			s := &servingTable{latest: c}
			serving[c.Table] = s
			mu.Unlock()
			sem <- struct{}{}
			wg.Add(1)
			go func(s *servingTable) {
				defer func() { <-sem; wg.Done() }()
				for {
					// Work already claimed is finished even when we are asked
					// to stop, so nothing is left half-delivered.
					sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimLease*2/3)
					next := b.service(sctx, c.Table)
					cancel()
					mu.Lock()
					if s.again && ctx.Err() == nil {
						s.again = false
						mu.Unlock()
						continue
					}
					claim := s.latest
					delete(serving, c.Table)
					mu.Unlock()
					// Release with a fresh context: a table must not stay
					// leased just because we are shutting down.
					rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
					if err := b.store.Release(rctx, claim, next); err != nil {
						b.log.Error().Err(err).Str("table", c.Table).Msg("release table")
					}
					cancel()
					b.poke() // the loop may be asleep on a wake time this just moved
					return
				}
			}(s)
		}
		if len(claims) == claimBatch {
			continue
		}
		b.waitWork(ctx)
	}
	return nil
}

// servingTable is a table a worker goroutine is serving: the latest claim
// taken on it, and whether it was claimed again meanwhile.
type servingTable struct {
	latest store.Claim
	again  bool
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
// Message records of earlier games are pruned: only the current game's
// views are kept.
func (b *Bot) redraw(ctx context.Context, t *Table, version int64) time.Time {
	marks, err := b.store.Dirty(ctx, t.ID)
	if err != nil {
		// Releasing the table now would stall its delivery until the next
		// move: come back soon instead.
		b.log.Error().Err(err).Str("table", t.ID).Msg("read dirty views")
		return b.now().Add(time.Second)
	}
	if len(marks) == 0 {
		return time.Time{}
	}
	records, err := b.store.Messages(ctx, t.ID)
	if err != nil {
		b.log.Error().Err(err).Str("table", t.ID).Msg("read message records")
		return b.now().Add(time.Second)
	}
	var old []string
	for v := range records {
		if _, gameNo, _, ok := parseView(v); !ok || gameNo != t.GameNo {
			old = append(old, v)
		}
	}
	if err := b.store.DeleteMessages(ctx, t.ID, old...); err != nil {
		b.log.Warn().Err(err).Str("table", t.ID).Msg("prune message records")
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
	later := func(at time.Time) {
		if !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	for _, v := range views {
		wait, err := b.redrawView(ctx, t, v, parseMsgRecord(records[v]))
		if err != nil {
			b.log.Warn().Err(err).Str("table", t.ID).Str("view", v).Msg("redraw")
			wait = b.now().Add(2 * time.Second)
		}
		if !wait.IsZero() {
			later(wait)
			continue
		}
		if err := b.store.Clean(ctx, t.ID, v, version); err != nil {
			b.log.Error().Err(err).Str("table", t.ID).Msg("clean view")
			later(b.now().Add(time.Second))
		}
	}
	return next
}

// msgRecord is what the store keeps about a view's message: its id, a
// digest of what it shows, whether it pinged, and a replaced message still
// to delete. Kept in the table's message hash, so it goes with the table.
type msgRecord struct {
	ID     int
	Digest string
	Ping   bool
	Stale  int
}

func (r msgRecord) String() string {
	ping := "0"
	if r.Ping {
		ping = "1"
	}
	return strconv.Itoa(r.ID) + ":" + r.Digest + ":" + ping + ":" + strconv.Itoa(r.Stale)
}

// parseMsgRecord reads a record; anything unreadable is an empty record
// (the view is then posted anew).
func parseMsgRecord(s string) msgRecord {
	f := strings.Split(s, ":")
	if len(f) != 4 {
		return msgRecord{}
	}
	id, err1 := strconv.Atoi(f[0])
	stale, err2 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil {
		return msgRecord{}
	}
	return msgRecord{ID: id, Digest: f[1], Ping: f[2] == "1", Stale: stale}
}

// shows reports whether the record's message already shows m.
func (r msgRecord) shows(m message) bool {
	return r.ID != 0 && r.Digest == m.digest() && r.Ping == m.Ping
}

// redrawView brings one view's message up to date. It returns a time to
// retry when the chat's rate limit says wait.
func (b *Bot) redrawView(ctx context.Context, t *Table, view string, rec msgRecord) (time.Time, error) {
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
		g, st, err := b.decode(t)
		if err != nil {
			return time.Time{}, err
		}
		m = g.RenderSeat(b.loc(t.Lang), t, st, seat)
		b.addAutoNotice(t, seat, &m)
	}
	m.Text = clip(m.Text)
	if rec.shows(m) && rec.Stale == 0 {
		return time.Time{}, nil
	}
	save := func(r msgRecord) error { return b.store.SetMessage(ctx, t.ID, view, r.String()) }
	if rec.Stale != 0 {
		// A replaced message is still there: delete it first.
		if wait := b.admit(ctx, chatID); !wait.IsZero() {
			return wait, nil
		}
		err := b.remove(ctx, chatID, rec.Stale)
		if retry, ok := b.retryAfter(ctx, chatID, err); ok {
			return retry, nil
		}
		rec.Stale = 0
		if err := save(rec); err != nil {
			return time.Time{}, err
		}
		if rec.shows(m) {
			return time.Time{}, nil
		}
	}
	if rec.ID != 0 && m.Ping && !rec.Ping {
		// Turning to "your move": post a fresh message (it notifies at
		// once) and delete the old one on the next pass. The old id is
		// recorded first, so a crash cannot leave it undeleted.
		rec = msgRecord{Stale: rec.ID}
		if err := save(rec); err != nil {
			return time.Time{}, err
		}
	}
	if wait := b.admit(ctx, chatID); !wait.IsZero() {
		return wait, nil
	}
	if rec.ID != 0 {
		err := b.edit(ctx, chatID, rec.ID, m)
		if retry, ok := b.retryAfter(ctx, chatID, err); ok {
			return retry, nil
		}
		switch {
		case err == nil || isNotModified(err):
			rec.Digest, rec.Ping = m.digest(), m.Ping
			return time.Time{}, save(rec)
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
	rec.ID, rec.Digest, rec.Ping = sent.ID, m.digest(), m.Ping
	if err := save(rec); err != nil {
		return time.Time{}, err
	}
	if rec.Stale != 0 {
		return b.now().Add(b.cfg.Limits.PrivateInterval), nil // come back to delete it
	}
	return time.Time{}, nil
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
	ok, wait, err := b.store.Allow(ctx, store.ChatRateKey(chatID), 1, interval, now)
	if err != nil {
		b.log.Error().Err(err).Msg("rate limit")
		return now.Add(time.Second)
	}
	if !ok {
		return now.Add(wait)
	}
	ok, wait, err = b.store.Allow(ctx, store.GlobalRateKey, b.cfg.Limits.GlobalPerSecond, b.cfg.Limits.GlobalWindow, now)
	if err != nil {
		return now.Add(time.Second)
	}
	if !ok {
		return now.Add(wait)
	}
	return time.Time{}
}

// retryAfter handles a 429: the chat is blocked for every replica until
// Telegram's retry_after has passed.
func (b *Bot) retryAfter(ctx context.Context, chatID int64, err error) (time.Time, bool) {
	var tooMany *tgbot.TooManyRequestsError
	if !errors.As(err, &tooMany) {
		return time.Time{}, false
	}
	until := b.now().Add(time.Duration(tooMany.RetryAfter)*time.Second + 100*time.Millisecond)
	b.log.Warn().Int64("chat", chatID).Int("retry_after", tooMany.RetryAfter).Msg("telegram 429")
	if err := b.store.Block(ctx, store.ChatRateKey(chatID), until); err != nil {
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
