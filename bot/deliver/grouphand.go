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
// (record.Seat.Group); then their private hand turns into a note that says
// so, without buttons, and stays quiet for the game but for a turn left
// waiting (quietUntil), which comes to the private chat as it always did. A hand the server no longer has
// (deleted, expired) is forgotten and the private hand takes over. A
// server that does not know ephemeral messages turns them off at its
// first answer (ephemeral.Available).

// GroupHands is the part of the Bot API's ephemeral messages delivery
// calls (ephemeral.Client).
type GroupHands interface {
	Probe(ctx context.Context, chatID, receiverID int64) error
	Send(ctx context.Context, m ephemeral.Message) (ephemeral.Ref, error)
	EditText(ctx context.Context, r ephemeral.Ref, c ephemeral.Content) error
	Delete(ctx context.Context, r ephemeral.Ref) error
}

// pressWindow is how long after a press Telegram lets a bot that is not
// the group's administrator answer it with an ephemeral message.
const pressWindow = 15 * time.Second

// nudgeAfter is how long a turn waits at most on a person who plays from
// the group before their private chat is told, as it is for everyone else
// (half the time for a move, when that is shorter).
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
		if !d.available.On() {
			return time.Time{}
		}
		if err == nil {
			return d.now()
		}
		at, ok := d.groupRetry(ctx, t, err)
		if !ok {
			at = d.now().Add(time.Second)
		}
		if at.After(deadline) {
			log.Warn().Err(err).Msg("could not ask the server about ephemeral messages within the press's 15 s: hand not sent")
			return time.Time{}
		}
		return at
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
	gv := view.GroupHand(t.GameNo, h.Seat)
	old := d.groupRecord(ctx, t.ID, gv)
	rec := view.MessageRecord{ID: ref.ID, Digest: digest(m, false), Ping: m.Ping, Buttons: len(m.Keyboard) > 0}
	if err := d.store.SetMessage(context.WithoutCancel(ctx), t.ID, gv, rec.String()); err != nil {
		log.Error().Err(err).Msg("record the hand in the group")
	}
	if old.ID != 0 && old.ID != ref.ID {
		// The hand sent before this one would keep live-looking buttons
		// (a press on it cannot be told from one on the new one): it goes,
		// if the group's calls allow it now.
		if at := d.budget.admitAs(ctx, t.ChatID, prioCleanup, classView, "", d.now().Add(cleanupPatience)); at.IsZero() {
			if err := d.hands.Delete(ctx, ephemeral.Ref{ChatID: t.ChatID, ReceiverID: h.User, ID: old.ID}); err != nil {
				log.Info().Err(err).Msg("an older hand in the group not deleted")
			}
		}
	}
	return time.Time{}
}

// groupRecord reads a hand's record in the group (empty when none).
func (d *Delivery) groupRecord(ctx context.Context, table, gv string) view.MessageRecord {
	recs, err := d.store.Messages(ctx, table)
	if err != nil {
		return view.MessageRecord{}
	}
	return view.ParseMessageRecord(recs[gv])
}

// dropGroupHand deletes a seat's hand in the group for a person who
// forgot themselves (outbox.Entry.HandGone). It returns when to try again
// if the group's budget says wait.
func (d *Delivery) dropGroupHand(ctx context.Context, t *record.Table, h *outbox.Hand) time.Time {
	gv := view.GroupHand(h.GameNo, h.Seat)
	rec := d.groupRecord(ctx, t.ID, gv)
	if rec.ID == 0 || d.hands == nil {
		return time.Time{}
	}
	if at := d.budget.admitAs(ctx, t.ChatID, prioAnnounce, classAnnounce, t.ID+"/"+gv, d.now().Add(announcePatience)); !at.IsZero() {
		return at
	}
	err := d.hands.Delete(ctx, ephemeral.Ref{ChatID: t.ChatID, ReceiverID: h.User, ID: rec.ID})
	if until, ok := d.groupRetry(ctx, t, err); ok {
		return until
	}
	if err != nil {
		d.log.Info().Err(err).Str("table", t.ID).Msg("a forgotten person's hand in the group not deleted")
	}
	if err := d.store.DeleteMessages(context.WithoutCancel(ctx), t.ID, gv); err != nil {
		d.log.Error().Err(err).Str("table", t.ID).Msg("forget the hand in the group")
		return d.now().Add(time.Second)
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
	if rec.ID == 0 || !s.Human() || s.UserID <= 0 {
		// Nobody to draw it for: a robot's seat now (the person left),
		// or a person forgotten (/forgetme deleted their hand).
		return nil, false
	}
	proved = s.Group
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
	if at := d.budget.admitAs(ctx, t.ChatID, j.prio, classHand, call, d.now().Add(promptPatience)); !at.IsZero() {
		return at
	}
	ref := ephemeral.Ref{ChatID: t.ChatID, ReceiverID: t.Seats[seat].UserID, ID: j.rec.ID}
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
// of their turn in private: a minute into it, or half their time for a
// move if that comes first; with no deadline, a minute after the table's
// last change.
func (d *Delivery) quietUntil(t *record.Table, seat int) time.Time {
	due := t.Seats[seat].Due
	if due.IsZero() {
		return t.Updated.Add(nudgeAfter)
	}
	turn := d.views.TurnTime(t)
	return due.Add(-turn + min(nudgeAfter, turn/2))
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
// hand has something to send) the seat's hand in the group, and turns the
// private hand of a person who plays from the group into a note without
// buttons, which says so and is drawn once; their turn comes to the
// private chat only when half their time has gone by (quietUntil).
func (d *Delivery) withGroupHand(t *record.Table, v string, records map[string]string, j redrawJob, ok bool) (redrawJob, bool) {
	g, proved := d.groupHand(t, v, records)
	if g == nil && !proved {
		return j, ok
	}
	_, _, seat, _ := view.Parse(v)
	s := t.Seats[seat]
	private := proved && !s.Unreachable && s.Leaver == nil
	if !ok {
		j = redrawJob{view: v, chatID: s.UserID, seat: seat, prio: prioTable, quiet: true, patience: handPatience,
			gen: t.Reposts[v], rec: view.ParseMessageRecord(records[v])}
		if private {
			m, err := d.views.Seat(t, seat)
			if err != nil {
				private = false
			}
			j.m = m
		}
	}
	j.group = g
	if g != nil && g.prio < j.prio {
		j.prio = g.prio
	}
	if !private {
		if !ok {
			j.rec = view.MessageRecord{} // the quiet path leaves an empty record as it is
		}
		return j, true
	}
	until := d.quietUntil(t, seat)
	if j.m.Ping && !d.now().Before(until) {
		j.quiet, j.platform = false, view.PlatformState(t, seat) // the nudge
		return j, true
	}
	if j.m.Ping {
		j.hold = until
	}
	note := d.views.PlaysFromGroup(t)
	if j.rec.ID == 0 || shows(j.rec, note, false) && j.rec.Gen == j.gen {
		j.quiet = true // nothing to change in private
		return j, true
	}
	j.m, j.platform, j.quiet, j.patience = note, false, false, handPatience
	return j, true
}
