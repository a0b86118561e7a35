package deliver

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// A send Telegram does not answer within Limits.CallTimeout may have
// posted its message all the same, and the Bot API has no way to ask.
// So a send is not given up when its call time runs out: the worker stops
// waiting (the table's other work goes on), and the call goes on listening
// for its answer a while longer (sendHeard). A late answer is recorded for
// the worker that serves the table next: an announcement it posted is
// acknowledged and never posted again; a view's copy is taken as the
// view's message, or retired like a replaced one (its buttons taken, the
// message deleted later). Only a send whose answer never comes leaves the
// bot not knowing: an announcement is then sent again, marked as a
// possible repeat (at least once: never acknowledged unsent); a view is
// sent again under a cap (viewTries for one state of the table), each
// unanswered try farther apart (backoff).

// errNoAnswer says a send got no answer within the call time: it may have
// posted its message.
var errNoAnswer = errors.New("no answer within the call time")

// errNotSent says a send was not made: the serving stopped (its lease was
// lost) before it, or its try could not be recorded.
var errNotSent = errors.New("not sent")

// listening is the calls whose answers are still listened for after their
// worker stopped waiting. Run ends them (and waits for them) when it
// returns.
type listening struct {
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup
}

func newListening() *listening {
	ctx, stop := context.WithCancel(context.Background())
	return &listening{ctx: ctx, stop: stop}
}

// close ends every call still listened for and waits for their goroutines.
func (l *listening) close() {
	l.stop()
	l.wg.Wait()
}

// sendHeard posts m as send does, waiting CallTimeout for Telegram's
// answer (less when ctx ends: the serving lost its lease). Without one it
// returns errNoAnswer and goes on listening until listen has passed since
// the call began; an answer heard then goes to late (run in the
// background, with a context that ends with the listening). A ctx already
// done sends nothing (errNotSent).
func (d *Delivery) sendHeard(ctx context.Context, chatID int64, thread int, m adapter.Message, listen time.Duration,
	late func(context.Context, *models.Message, error)) (*models.Message, error) {
	if ctx.Err() != nil {
		return nil, fmt.Errorf("sendMessage: %w", errNotSent)
	}
	type answer struct {
		sent *models.Message
		err  error
	}
	var mu sync.Mutex
	waited := false // the worker stopped waiting: the answer goes to late
	answered := make(chan answer, 1)
	cctx, cancel := context.WithTimeout(d.listening.ctx, listen)
	d.listening.wg.Add(1)
	go func() {
		defer d.listening.wg.Done()
		defer cancel()
		sent, err := d.sendMessage(cctx, chatID, thread, m)
		mu.Lock()
		if !waited {
			answered <- answer{sent, err}
			mu.Unlock()
			return
		}
		mu.Unlock()
		if err != nil && unsure(err) {
			return // no answer ever came
		}
		// The listening's context, with time for the store: cctx ended
		// with the call.
		lctx, lcancel := context.WithTimeout(d.listening.ctx, 5*time.Second)
		defer lcancel()
		defer func() {
			if v := recover(); v != nil {
				d.metrics.Panic()
				d.log.Error().Str("panic", fmt.Sprint(v)).Str("stack", string(debug.Stack())).Msg("panic while hearing a late answer")
			}
		}()
		late(lctx, sent, err)
	}()
	timer := time.NewTimer(d.limits.CallTimeout)
	defer timer.Stop()
	select {
	case a := <-answered:
		return a.sent, a.err
	case <-timer.C:
	case <-ctx.Done():
	}
	mu.Lock()
	defer mu.Unlock()
	select {
	case a := <-answered: // just in time
		return a.sent, a.err
	default:
	}
	waited = true
	return nil, fmt.Errorf("sendMessage: %w", errNoAnswer)
}

// The windows and spacing of tries whose answer did not come in time.
// Views' answers are listened for until shortly before the view may be
// sent again, so a copy is known (or not) before the next is made; an
// announcement's for longer, past its next try, as acknowledging it is
// the same whichever copy is heard.
func (d *Delivery) viewListen() time.Duration { return d.sendLease() - d.limits.CallTimeout/2 }

// announceListen: the HTTP client's own timeout (a minute in
// cmd/trickchef) may end the call sooner.
func (d *Delivery) announceListen() time.Duration { return 5 * d.limits.CallTimeout }

// backoff is how long after the n-th unanswered try in a row (n ≥ 1) the
// next may be made: the send lease, doubling, at most five of it (5 min
// with the default call time).
func (d *Delivery) backoff(n int) time.Duration {
	limit := 5 * d.sendLease()
	b := d.sendLease()
	for i := 1; i < n && b < limit; i++ {
		b *= 2
	}
	return min(b, limit)
}

// viewTries caps a view's unanswered sends for one version of its table:
// past it the view waits for the table's next change (and then gets one
// try per version, each farther apart).
const viewTries = 3

// tries is what the store knows of an outbox entry's unanswered tries:
// how many may have posted it, the last made at; and how many tries
// Telegram refused (a 429, a 5xx: nothing posted), each of which frees the
// entry's send lease for the next (see takeSend).
type tries struct {
	n       int
	at      time.Time
	refused int
}

func (x tries) String() string {
	s := strconv.Itoa(x.n)
	if !x.at.IsZero() {
		s += "@" + strconv.FormatInt(x.at.UnixMilli(), 10)
	}
	if x.refused > 0 {
		s += "#" + strconv.Itoa(x.refused)
	}
	return s
}

// refusedTry is x after a try Telegram refused: it posted nothing, so it
// does not count, and the next try needs no lease of its own.
func (x tries) refusedTry() tries {
	x.refused++
	return x
}

// parseTries reads the pointer (versions before backoff wrote the count
// alone, before refusals without them).
func parseTries(v string) tries {
	v, refused, _ := strings.Cut(v, "#")
	n, at, _ := strings.Cut(v, "@")
	x := tries{}
	x.refused, _ = strconv.Atoi(refused)
	x.n, _ = strconv.Atoi(n)
	if ms, err := strconv.ParseInt(at, 10, 64); err == nil {
		x.at = time.UnixMilli(ms)
	}
	return x
}

// triesKey is the store pointer counting the unanswered tries of a call.
func triesKey(call string) string { return "tries:" + call }

// tries is how many tries of call may have taken effect, and when the
// last was made.
func (d *Delivery) tries(ctx context.Context, call string) (tries, error) {
	v, err := d.store.Pointer(ctx, triesKey(call))
	if errors.Is(err, store.ErrNotFound) {
		return tries{}, nil
	}
	if err != nil {
		return tries{}, err
	}
	return parseTries(v), nil
}

// forgetTries drops an acked entry's count (a leftover only costs a key).
func (d *Delivery) forgetTries(ctx context.Context, call string) {
	if v, err := d.store.Pointer(ctx, triesKey(call)); err == nil {
		_ = d.store.DeletePointer(ctx, triesKey(call), v)
	}
}

// markRepeat is entry m sent again when an earlier copy may be in the chat
// already: its first line says so, in the table's language.
func (d *Delivery) markRepeat(t *record.Table, m outbox.Entry) outbox.Entry {
	m.Text = adapter.NewLoc(d.tr, t.Lang).T("delivery.repeat") + "\n\n" + m.Text
	return m
}

// heardAnnouncement hears the late answer of a try of outbox entry id of
// table (its tries pointer set to mine, over before): posted after all, the
// entry is acknowledged — never posted again — and the table served again
// at once (its queue waits behind the entry); refused after all, the try
// posted nothing and no longer counts. A late refusal frees no new send
// lease: this callback does not hold the entry's lease (another try may,
// and be posting), so only the try that holds it records a refusal
// (takeSend).
func (d *Delivery) heardAnnouncement(table string, id int64, call string, before tries, mine string) func(context.Context, *models.Message, error) {
	return func(ctx context.Context, _ *models.Message, err error) {
		if err != nil {
			if v, perr := d.store.Pointer(ctx, triesKey(call)); perr == nil && v == mine {
				if err := d.store.SetPointer(ctx, triesKey(call), before.String()); err != nil {
					d.log.Warn().Err(err).Str("call", call).Msg("a try refused late stays counted")
				}
			}
			return
		}
		if err := d.store.Ack(ctx, table, id); err != nil {
			d.log.Error().Err(err).Str("table", table).Int64("id", id).Msg("ack an announcement answered late")
			return
		}
		d.forgetTries(ctx, call)
		d.log.Info().Str("table", table).Int64("id", id).Msg("announcement answered late: acknowledged, not posted again")
		if err := d.store.Schedule(ctx, store.Deliveries, table, d.now()); err != nil {
			d.log.Warn().Err(err).Str("table", table).Msg("wake a table after a late answer")
		}
	}
}

// lateCopy is a view's copy whose send was answered late: its message and
// what it shows, and the record's Await of the try that posted it.
type lateCopy struct {
	id      int
	digest  string
	ping    bool
	buttons bool
	gen     int
	await   int64
}

func (l lateCopy) String() string {
	b := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	return strconv.Itoa(l.id) + ":" + l.digest + ":" + b(l.ping) + ":" + b(l.buttons) + ":" + strconv.Itoa(l.gen) + ":" + strconv.FormatInt(l.await, 10)
}

func parseLateCopy(s string) (lateCopy, bool) {
	f := strings.Split(s, ":")
	if len(f) != 6 {
		return lateCopy{}, false
	}
	l := lateCopy{digest: f[1], ping: f[2] == "1", buttons: f[3] == "1"}
	var err1, err2, err3 error
	l.id, err1 = strconv.Atoi(f[0])
	l.gen, err2 = strconv.Atoi(f[4])
	l.await, err3 = strconv.ParseInt(f[5], 10, 64)
	return l, err1 == nil && err2 == nil && err3 == nil && l.id > 0
}

// lateKey is the store pointer where a view's copy answered late waits for
// the worker.
func lateKey(table, v string) string { return "late:" + viewCall(table, v) }

// heardView hears the late answer of a send of view v of table that shows
// l: a posted copy is recorded for the worker (which alone writes the
// view's record) and the table served at once.
func (d *Delivery) heardView(table, v string, l lateCopy) func(context.Context, *models.Message, error) {
	return func(ctx context.Context, sent *models.Message, err error) {
		if err != nil {
			return // refused: it posted nothing
		}
		l.id = sent.ID
		if err := d.store.SetPointer(ctx, lateKey(table, v), l.String()); err != nil {
			d.log.Warn().Err(err).Str("table", table).Str("view", v).Int("message_id", sent.ID).Msg("a view's copy answered late is not recorded")
			return
		}
		if err := d.store.Schedule(ctx, store.Deliveries, table, d.now()); err != nil {
			d.log.Warn().Err(err).Str("table", table).Msg("wake a table after a late answer")
		}
	}
}

// hearLate folds into rec what the late answers to view j's sends said,
// while one may still come (rec.Await): the copy of its last try is taken
// as the view's message; a copy of an older try (answered too late to be
// awaited) is retired like a replaced message. Once the last try's answer
// can no longer come, the record stops awaiting it. changed says whether
// rec must be saved.
func (d *Delivery) hearLate(ctx context.Context, t *record.Table, j redrawJob, rec view.MessageRecord) (view.MessageRecord, bool, error) {
	key := lateKey(t.ID, j.view)
	raw, err := d.store.Pointer(ctx, key)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return rec, false, err
	}
	changed := false
	if err == nil {
		if err := d.store.DeletePointer(ctx, key, raw); err != nil {
			return rec, false, err
		}
		l, ok := parseLateCopy(raw)
		switch {
		case !ok:
		case l.await == rec.Await:
			// The view's message after all (in place of the one an edit
			// found gone, if any).
			rec.ID, rec.Digest, rec.Ping, rec.Buttons, rec.Gen = l.id, l.digest, l.ping, l.buttons, l.gen
			rec.Tries, rec.TriedAt, rec.Await = 0, 0, 0
			changed = true
			d.log.Info().Str("table", t.ID).Str("view", j.view).Int("message_id", l.id).Msg("view's send answered late: its copy kept")
		case l.id != rec.ID && !rec.Replaced(l.id):
			rec = retire(rec, j.seat, l.id, l.buttons, d.now())
			changed = true
		}
	}
	if rec.Await != 0 && !d.now().Before(time.UnixMilli(rec.Await)) {
		rec.Await = 0 // its answer can no longer come
		changed = true
	}
	return rec, changed, nil
}

// retire records message id as one the view showed before: it loses its
// buttons (a group's table says where the table went), and a hand's is
// deleted with the next batch.
func retire(rec view.MessageRecord, seat, id int, buttons bool, now time.Time) view.MessageRecord {
	if buttons || seat < 0 {
		rec.Strip = append(rec.Strip, id)
	}
	if seat >= 0 {
		if len(rec.Stale) == 0 {
			rec.StaleSince = now.UnixMilli()
		}
		rec.Stale = append(rec.Stale, id)
	}
	return rec
}

// errGaveUp says a view's sends went unanswered viewTries times for this
// version of its table: it waits for the next change.
var errGaveUp = errors.New("sends unanswered: the view waits for the table's next change")

// holdSend says whether view j may be sent now, by its unanswered tries:
// it waits until at for the last one's answer, or gives up this version.
func (d *Delivery) holdSend(rec view.MessageRecord, version int64) (at time.Time, gaveUp bool) {
	if rec.Await != 0 && d.now().Before(time.UnixMilli(rec.Await)) {
		return time.UnixMilli(rec.Await), false
	}
	return time.Time{}, rec.Tries >= viewTries && rec.TriedAt == version
}
