package deliver

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/ephemeral"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// The hand in the group. A seated person who presses «🖐 Мои карты» under
// the group's table gets their hand right there as an ephemeral message
// (bot/ephemeral): seen by them alone, below the table, with the buttons of
// their private hand. The send answers their press (Telegram allows it
// within 15 seconds of one), so it is an outbox entry of the table
// (outbox.Hand), drawn when it goes; what it sent is kept as the view
// record GroupHand, and from then on the seat's hand view is drawn there
// too — but only when it asks for something: their turn, a choice being
// built, the game's end. A waiting hand is not redrawn (its buttons are
// refused as stale, «ждите своего хода», until the next turn edits it), so
// a move played from the group costs two calls: the table's edit and the
// hand of whoever moves next.
//
// Telegram does not promise the message arrives, so the private hand goes
// on as before until a press on the group's hand proves the person sees it
// (record.Seat.Group); then their private chat stays quiet for the game,
// but for a turn left waiting for a minute (nudgeAfter), which comes to
// the private chat as it always did. A hand the server no longer has
// (deleted, expired) is forgotten and the private hand takes over. A
// server that does not know ephemeral messages turns them off at its
// first answer (ephemeral.Available).

// GroupHands is the part of the Bot API's ephemeral messages delivery
// calls (ephemeral.Client).
type GroupHands interface {
	Probe(ctx context.Context, chatID, receiverID int64) error
	Send(ctx context.Context, m ephemeral.Message) (ephemeral.Ref, error)
	EditText(ctx context.Context, r ephemeral.Ref, c ephemeral.Content) error
}

// pressWindow is how long after a press Telegram lets a bot that is not
// the group's administrator answer it with an ephemeral message.
const pressWindow = 15 * time.Second

// nudgeAfter is how long a turn waits on a person who plays from the group
// before their private chat is told, as it is for everyone else.
const nudgeAfter = time.Minute

// groupOn reports whether hands may be drawn in groups at all.
func (d *Delivery) groupOn() bool { return d.hands != nil && d.available.On() }

// sendGroupHand sends the hand an outbox entry asks for (see above). It
// returns when to try again if the group's budget says wait; zero when the
// entry is done, sent or not: a hand that cannot be sent within the press's
// window is given up (the press was answered; the private hand stays).
func (d *Delivery) sendGroupHand(ctx context.Context, t *record.Table, e outbox.Entry) time.Time {
	h := e.Hand
	log := d.log.With().Str("table", t.ID).Int("seat", h.Seat).Logger()
	if !d.groupOn() || h.GameNo != t.GameNo || t.Phase != record.PhasePlaying || t.State == nil ||
		h.Seat < 0 || h.Seat >= len(t.Seats) || t.Seats[h.Seat].UserID != h.User {
		return time.Time{} // nothing to show any more
	}
	deadline := time.UnixMilli(h.At).Add(pressWindow)
	call := viewCall(t.ID, view.GroupHand(t.GameNo, h.Seat))
	if at := d.budget.admitAs(ctx, t.ChatID, prioPrompt, classReply, call, d.now().Add(promptPatience)); !at.IsZero() {
		if at.After(deadline) {
			d.budget.withdraw(ctx, call)
			log.Warn().Msg("hand in the group not sent: the group's calls are spent past the press's 15 s")
			return time.Time{}
		}
		return at
	}
	if !d.available.Asked() {
		// Once a process: a server that predates ephemeral messages
		// would post the hand for everyone. The probe takes the call
		// admitted above; the hand comes back for another.
		err := d.hands.Probe(ctx, t.ChatID, h.User)
		d.available.Answered(err)
		switch {
		case !d.available.On():
			return time.Time{}
		case err != nil:
			log.Warn().Err(err).Msg("could not ask the server about ephemeral messages; will ask again")
		}
		return d.now()
	}
	m, err := d.views.GroupSeat(t, h.Seat)
	if err != nil {
		return time.Time{} // the hand view reports an unreadable state itself
	}
	ref, err := d.hands.Send(ctx, ephemeral.Message{ChatID: t.ChatID, ThreadID: t.Thread, ReceiverID: h.User,
		CallbackQueryID: h.Query, Content: content(m)})
	if err != nil {
		if until, ok := d.groupRetry(ctx, t, err); ok && until.Before(deadline) {
			return until
		}
		d.refusedHand(ctx, t, err, log)
		return time.Time{}
	}
	rec := view.MessageRecord{ID: ref.ID, Digest: digest(m, false), Ping: m.Ping, Buttons: len(m.Keyboard) > 0}
	if err := d.store.SetMessage(context.WithoutCancel(ctx), t.ID, view.GroupHand(t.GameNo, h.Seat), rec.String()); err != nil {
		log.Error().Err(err).Msg("record the hand in the group")
	}
	return time.Time{}
}

// refusedHand handles a refused send or edit of a hand in the group: a
// server that does not know ephemeral messages turns them off (and a
// message it posted for everyone is deleted at once); anything else is
// logged, and the private hand stays.
func (d *Delivery) refusedHand(ctx context.Context, t *record.Table, err error, log zerolog.Logger) {
	if !d.available.Learn(err) {
		log.Warn().Err(err).Msg("hand in the group refused: the private hand stays")
		return
	}
	var public *ephemeral.PublicError
	if errors.As(err, &public) {
		if derr := d.deleteMessages(ctx, public.ChatID, []int{public.MessageID}); derr != nil {
			log.Error().Err(derr).Int("message", public.MessageID).Msg("a hand the server posted for everyone could not be deleted")
		}
	}
}

// groupRetry handles a 429 of an ephemeral call as retryAfter does any
// other's: the group waits, on every replica.
func (d *Delivery) groupRetry(ctx context.Context, t *record.Table, err error) (time.Time, bool) {
	var e *ephemeral.Error
	if !errors.As(err, &e) || e.Code != http.StatusTooManyRequests {
		return time.Time{}, false
	}
	until := d.now().Add(e.RetryAfter + 100*time.Millisecond)
	d.log.Warn().Int64("chat", t.ChatID).Dur("retry_after", e.RetryAfter).Msg("telegram 429 (hand in the group)")
	if err := d.store.Block(ctx, store.ChatRateKey(t.ChatID), until); err != nil {
		d.log.Error().Err(err).Msg("block chat")
	}
	return until, true
}

// groupJob is a seat's hand to draw again in the group: its record there
// and what it is to show.
type groupJob struct {
	view string
	rec  view.MessageRecord
	m    adapter.Message
	prio priority
}

// groupHand is the drawing a dirty hand view v needs in the group, if its
// seat has a hand there that does not show what it should. A waiting
// hand is left as it is (see above). proved reports that the person plays
// from the group (their private hand then stays quiet).
func (d *Delivery) groupHand(t *record.Table, v string, records map[string]string) (j *groupJob, proved bool) {
	kind, gameNo, seat, ok := view.Parse(v)
	if !ok || kind != "hand" || gameNo != t.GameNo || seat >= len(t.Seats) || t.State == nil || !d.groupOn() {
		return nil, false
	}
	gv := view.GroupHand(gameNo, seat)
	rec := view.ParseMessageRecord(records[gv])
	s := t.Seats[seat]
	if rec.ID == 0 || !s.Human() && s.Leaver == nil {
		return nil, false
	}
	proved = s.Group && s.Leaver == nil
	m, err := d.views.GroupSeat(t, seat)
	if err != nil {
		return nil, proved
	}
	m.Text = adapter.Clip(m.Text)
	if shows(rec, m, false) || m.Lazy && t.Phase == record.PhasePlaying && !view.PlatformState(t, seat) {
		return nil, proved
	}
	j = &groupJob{view: gv, rec: rec, m: m, prio: prioTable}
	if m.Ping {
		j.prio = prioPrompt
	}
	return j, proved
}

// redrawGroupHand edits a seat's hand in the group. It returns when to try
// again if the group's budget says wait; zero when done. A hand the server
// no longer has is forgotten: the private hand takes over.
func (d *Delivery) redrawGroupHand(ctx context.Context, t *record.Table, seat int, j *groupJob) time.Time {
	call := viewCall(t.ID, j.view)
	if at := d.budget.admitAs(ctx, t.ChatID, j.prio, classAnnounce, call, d.now().Add(promptPatience)); !at.IsZero() {
		return at
	}
	ref := ephemeral.Ref{ChatID: t.ChatID, ReceiverID: t.Seats[seat].UserID, ID: j.rec.ID}
	if l := t.Seats[seat].Leaver; l != nil {
		ref.ReceiverID = l.UserID
	}
	err := d.hands.EditText(ctx, ref, content(j.m))
	if until, ok := d.groupRetry(ctx, t, err); ok {
		return until
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err == nil || errors.Is(err, ephemeral.ErrNotModified) {
		j.rec.Digest, j.rec.Ping, j.rec.Buttons = digest(j.m, false), j.m.Ping, len(j.m.Keyboard) > 0
		if err := d.store.SetMessage(sctx, t.ID, j.view, j.rec.String()); err != nil {
			d.log.Error().Err(err).Str("table", t.ID).Msg("record the hand in the group")
			return d.now().Add(time.Second)
		}
		return time.Time{}
	}
	d.refusedHand(ctx, t, err, d.log.With().Str("table", t.ID).Int("seat", seat).Logger())
	if err := d.store.DeleteMessages(sctx, t.ID, j.view); err != nil {
		d.log.Error().Err(err).Str("table", t.ID).Msg("forget the hand in the group")
		return d.now().Add(time.Second)
	}
	return time.Time{}
}

// quietUntil is until when a person who plays from the group is not told
// of their turn in private: a minute into it (their turn's last change).
func quietUntil(t *record.Table) time.Time {
	return t.Updated.Add(nudgeAfter)
}

// content is a rendering as an ephemeral message shows it.
func content(m adapter.Message) ephemeral.Content {
	c := ephemeral.Content{Text: adapter.Clip(m.Text), ParseMode: models.ParseModeHTML, NoPreview: true}
	if kb, ok := markup(m).(*models.InlineKeyboardMarkup); ok {
		c.Markup = kb
	}
	return c
}

// withGroupHand adds to the job of a dirty hand view v (ok: its private
// hand has something to send) the seat's hand in the group, and quiets the
// private hand of a person who plays from the group: it waits for the
// minute of nudgeAfter on their turn, and shows nothing else.
func (d *Delivery) withGroupHand(t *record.Table, v string, records map[string]string, j redrawJob, ok bool) (redrawJob, bool) {
	g, proved := d.groupHand(t, v, records)
	if g == nil && (!proved || !ok) {
		return j, ok
	}
	if !ok {
		// Only the group's hand to draw: the private record is left as
		// it is (the quiet path changes nothing in an empty one).
		_, _, seat, _ := view.Parse(v)
		j = redrawJob{view: v, chatID: t.Seats[seat].UserID, seat: seat, prio: g.prio, quiet: true}
	}
	j.group = g
	if g != nil && g.prio < j.prio {
		j.prio = g.prio
	}
	if proved && !j.quiet {
		if until := quietUntil(t); !j.m.Ping || d.now().Before(until) {
			j.quiet = true
			if j.m.Ping {
				j.hold = until
			}
		}
	}
	return j, true
}
