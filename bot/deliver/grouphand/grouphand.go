// Package grouphand draws the hand in the group for delivery. A seated
// person who presses «🖐 Мои карты» under the group's table gets their
// hand right there as an ephemeral message (bot/ephemeral): seen by them
// alone, below the table, with the buttons of their private hand. The send
// answers their press (Telegram allows it within 15 seconds of one), so it
// is an outbox entry of the table (outbox.Hand), drawn when it goes; what
// it sent is kept as the view record view.GroupHand, and from then on the
// seat's hand view is drawn there too — but only when it asks for
// something: their turn, a choice being built, the game's end. A waiting
// hand is not redrawn (its buttons are refused as stale, «ждите своего
// хода», until the next turn edits it), so a move played from the group
// costs two calls: the table's edit and the hand of whoever moves next.
//
// Telegram does not promise the message arrives, so the private hand goes
// on as before until a press on the group's hand proves the person sees it
// (record.Seat.Group); then their private hand turns into a note that says
// so, without buttons, and stays quiet for the game but for a turn left
// waiting (Hands.Private), which comes to the private chat as it always
// did. A hand the server no longer has (deleted, expired) is forgotten and
// the private hand takes over. A server that does not know ephemeral
// messages turns them off at its first answer (ephemeral.Available).
//
// It is a package of its own so that delivery's role stays about the
// messages every table has; it reaches delivery's budget, the store and
// the views through the small interfaces below, and delivery keeps the
// private hand's job, which it asks Hands about.
package grouphand

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deliver/internal/message"
	"github.com/trickchef/trickchef/bot/ephemeral"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// Client is the part of the Bot API's ephemeral messages the hands call
// (ephemeral.Client).
type Client interface {
	Probe(ctx context.Context, chatID, receiverID int64) error
	Send(ctx context.Context, m ephemeral.Message) (ephemeral.Ref, error)
	EditText(ctx context.Context, r ephemeral.Ref, c ephemeral.Content) error
	Delete(ctx context.Context, r ephemeral.Ref) error
}

// Store is the part of the store the hands use: the hands' message
// records, and the chat's block after a 429, which every replica obeys.
type Store interface {
	Messages(ctx context.Context, table string) (map[string]string, error)
	SetMessage(ctx context.Context, table, view, record string) error
	DeleteMessages(ctx context.Context, table string, views ...string) error
	Block(ctx context.Context, key string, until time.Time) error
}

// Views draws a seat's hand as the group shows it, and the private note
// meanwhile (view.HandInGroup has them).
type Views interface {
	GroupSeat(t *record.Table, seat int) (adapter.Message, error)
	PlaysFromGroup(t *record.Table) adapter.Message
}

// Turns is the table's time for a move (view.Renderer has it), which says
// when a turn left waiting is told in private.
type Turns interface {
	TurnTime(t *record.Table) time.Duration
}

// Chats deletes messages of a chat through delivery's Bot API calls: a
// hand a server posted for everyone goes at once.
type Chats interface {
	DeleteMessages(ctx context.Context, chatID int64, ids []int) error
}

// Budget admits the hands' calls against the group's and the token's
// limits, which delivery keeps for every call of the bot. Admit returns
// zero when the call may go now, else when to try again; the call's name
// keeps its place in the token's line ("" keeps none), Withdraw gives
// that place up.
type Budget interface {
	Admit(ctx context.Context, chatID int64, c Call, name string) time.Time
	Withdraw(ctx context.Context, name string)
}

// Call is what a hand's call is, for the budget: how urgent, and which
// share of the group's calls it takes.
type Call int

const (
	// Answer is a hand sent in answer to a press: as urgent as a turn,
	// and a reply's share of the group's calls.
	Answer Call = iota
	// Turn is an edit that asks for a move, Update any other edit: the
	// hands' own share of the group's calls.
	Turn
	Update
	// Forget deletes a forgotten person's hand, as an announcement.
	Forget
	// Cleanup deletes a hand sent before a newer one, with spare budget.
	Cleanup
)

// pressWindow is how long after a press Telegram lets a bot that is not
// the group's administrator answer it with an ephemeral message.
const pressWindow = 15 * time.Second

// nudgeAfter is how long a turn waits at most on a person who plays from
// the group before their private chat is told, as it is for everyone else
// (half the time for a move, when that is shorter).
const nudgeAfter = time.Minute

// Stall is how long the hand in the group may wait for the group's calls
// to show a turn: past it, the turn goes to the private chat at once
// (its own budget), the hand in the group still drawn when it can.
const Stall = 3 * time.Second

// Hands draws the hands in groups for one replica's delivery. A nil
// *Hands draws none: the hands stay in private chats.
type Hands struct {
	p Params
}

// Params are what the hands are built from.
type Params struct {
	Client    Client
	Available *ephemeral.Available // the server knows ephemeral messages
	Store     Store
	Views     Views
	Turns     Turns
	Chats     Chats
	Budget    Budget
	Now       func() time.Time
	Log       zerolog.Logger
}

// New builds the hands; nil (none) without a client.
func New(p Params) *Hands {
	if p.Client == nil {
		return nil
	}
	return &Hands{p: p}
}

// on reports whether hands may be drawn in groups at all.
func (h *Hands) on() bool { return h != nil && h.p.Available.On() }

// call names a hand's call in the token's line, as delivery names a
// view's: the same on every try.
func call(table, gv string) string { return table + "/" + gv }

// Send sends the hand an outbox entry asks for (see the package's doc).
// It returns when to try again if the group's budget says wait; zero when
// the entry is done, sent or not: a hand that cannot be sent within the
// press's window is given up (the press was answered; the private hand
// stays).
func (h *Hands) Send(ctx context.Context, t *record.Table, e outbox.Entry) time.Time {
	hand := e.Hand
	if !h.on() || hand.GameNo != t.GameNo || t.Phase != record.PhasePlaying || t.State == nil ||
		hand.Seat < 0 || hand.Seat >= len(t.Seats) || t.Seats[hand.Seat].UserID != hand.User {
		return time.Time{} // nothing to show any more
	}
	log := h.p.Log.With().Str("table", t.ID).Int("seat", hand.Seat).Logger()
	deadline := time.UnixMilli(hand.At).Add(pressWindow)
	gv := view.GroupHand(t.GameNo, hand.Seat)
	name := call(t.ID, gv)
	if at := h.p.Budget.Admit(ctx, t.ChatID, Answer, name); !at.IsZero() {
		if at.After(deadline) {
			h.p.Budget.Withdraw(ctx, name)
			log.Warn().Msg("hand in the group not sent: the group's calls are spent past the press's 15 s")
			return time.Time{}
		}
		return at
	}
	if !h.p.Available.Asked() {
		// Once a process: a server that predates ephemeral messages
		// would post the hand for everyone. The probe takes the call
		// admitted above; the hand comes back for another.
		err := h.p.Client.Probe(ctx, t.ChatID, hand.User)
		h.p.Available.Answered(err)
		if !h.p.Available.On() {
			return time.Time{}
		}
		if err == nil {
			return h.p.Now()
		}
		at, ok := h.retry(ctx, t, err)
		if !ok {
			at = h.p.Now().Add(time.Second)
		}
		if at.After(deadline) {
			log.Warn().Err(err).Msg("could not ask the server about ephemeral messages within the press's 15 s: hand not sent")
			return time.Time{}
		}
		return at
	}
	m, err := h.p.Views.GroupSeat(t, hand.Seat)
	if err != nil {
		return time.Time{} // the hand view reports an unreadable state itself
	}
	ref, err := h.p.Client.Send(ctx, ephemeral.Message{ChatID: t.ChatID, ThreadID: t.Thread, ReceiverID: hand.User,
		CallbackQueryID: hand.Query, Content: content(m)})
	if err != nil {
		if until, ok := h.retry(ctx, t, err); ok && until.Before(deadline) {
			return until
		}
		h.refused(ctx, t, err, log)
		return time.Time{}
	}
	old := h.record(ctx, t.ID, gv)
	rec := view.MessageRecord{ID: ref.ID, Digest: message.Digest(m, false), Ping: m.Ping, Buttons: len(m.Keyboard) > 0}
	if err := h.p.Store.SetMessage(context.WithoutCancel(ctx), t.ID, gv, rec.String()); err != nil {
		log.Error().Err(err).Msg("record the hand in the group")
	}
	if old.ID != 0 && old.ID != ref.ID {
		// The hand sent before this one would keep live-looking buttons
		// (a press on it cannot be told from one on the new one): it goes,
		// if the group's calls allow it now.
		if at := h.p.Budget.Admit(ctx, t.ChatID, Cleanup, ""); at.IsZero() {
			if err := h.p.Client.Delete(ctx, ephemeral.Ref{ChatID: t.ChatID, ReceiverID: hand.User, ID: old.ID}); err != nil {
				log.Info().Err(err).Msg("an older hand in the group not deleted")
			}
		}
	}
	return time.Time{}
}

// record reads a hand's record in the group (empty when none).
func (h *Hands) record(ctx context.Context, table, gv string) view.MessageRecord {
	recs, err := h.p.Store.Messages(ctx, table)
	if err != nil {
		return view.MessageRecord{}
	}
	return view.ParseMessageRecord(recs[gv])
}

// Drop deletes a seat's hand in the group for a person who forgot
// themselves (outbox.Entry.HandGone). It returns when to try again if the
// group's budget says wait.
func (h *Hands) Drop(ctx context.Context, t *record.Table, hand *outbox.Hand) time.Time {
	if h == nil {
		return time.Time{}
	}
	gv := view.GroupHand(hand.GameNo, hand.Seat)
	rec := h.record(ctx, t.ID, gv)
	if rec.ID == 0 {
		return time.Time{}
	}
	if at := h.p.Budget.Admit(ctx, t.ChatID, Forget, call(t.ID, gv)); !at.IsZero() {
		return at
	}
	err := h.p.Client.Delete(ctx, ephemeral.Ref{ChatID: t.ChatID, ReceiverID: hand.User, ID: rec.ID})
	if until, ok := h.retry(ctx, t, err); ok {
		return until
	}
	if err != nil {
		h.p.Log.Info().Err(err).Str("table", t.ID).Msg("a forgotten person's hand in the group not deleted")
	}
	if err := h.p.Store.DeleteMessages(context.WithoutCancel(ctx), t.ID, gv); err != nil {
		h.p.Log.Error().Err(err).Str("table", t.ID).Msg("forget the hand in the group")
		return h.p.Now().Add(time.Second)
	}
	return time.Time{}
}

// refused handles a refused send or edit of a hand in the group: a
// server that does not know ephemeral messages turns them off (and a
// message it posted for everyone is deleted at once); anything else is
// logged, and the private hand stays.
func (h *Hands) refused(ctx context.Context, t *record.Table, err error, log zerolog.Logger) {
	if !h.p.Available.Learn(err) {
		log.Warn().Err(err).Msg("hand in the group refused: the private hand stays")
		return
	}
	var public *ephemeral.PublicError
	if errors.As(err, &public) {
		if derr := h.p.Chats.DeleteMessages(ctx, public.ChatID, []int{public.MessageID}); derr != nil {
			log.Error().Err(derr).Int("message", public.MessageID).Msg("a hand the server posted for everyone could not be deleted")
		}
	}
}

// retry handles a 429 of an ephemeral call as delivery does any other's:
// the group waits, on every replica.
func (h *Hands) retry(ctx context.Context, t *record.Table, err error) (time.Time, bool) {
	var e *ephemeral.Error
	if !errors.As(err, &e) || e.Code != http.StatusTooManyRequests {
		return time.Time{}, false
	}
	until := h.p.Now().Add(e.RetryAfter + 100*time.Millisecond)
	h.p.Log.Warn().Int64("chat", t.ChatID).Dur("retry_after", e.RetryAfter).Msg("telegram 429 (hand in the group)")
	if err := h.p.Store.Block(ctx, store.ChatRateKey(t.ChatID), until); err != nil {
		h.p.Log.Error().Err(err).Msg("block chat")
	}
	return until, true
}

// Job is a seat's hand to draw again in the group: its record there and
// what it is to show.
type Job struct {
	view string
	rec  view.MessageRecord
	m    adapter.Message
}

// Urgent reports whether the hand asks for a move: it goes as a turn does.
func (j *Job) Urgent() bool { return j.m.Ping }

// Job is the drawing a dirty hand view v needs in the group, if its seat
// has a hand there that does not show what it should. A waiting hand is
// left as it is (see the package's doc). proved reports that the person
// plays from the group (their private hand then stays quiet: Private).
func (h *Hands) Job(t *record.Table, v string, records map[string]string) (j *Job, proved bool) {
	kind, gameNo, seat, ok := view.Parse(v)
	if !ok || kind != "hand" || gameNo != t.GameNo || seat >= len(t.Seats) || t.State == nil || !h.on() {
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
	m, err := h.p.Views.GroupSeat(t, seat)
	if err != nil {
		return nil, proved
	}
	m.Text = adapter.Clip(m.Text)
	if message.Shows(rec, m, false) || m.Lazy && t.Phase == record.PhasePlaying && !view.PlatformState(t, seat) {
		return nil, proved
	}
	return &Job{view: gv, rec: rec, m: m}, proved
}

// Redraw edits a seat's hand in the group. It returns when to try again
// if the group's budget says wait; zero when done. A hand the server no
// longer has is forgotten: the private hand takes over.
func (h *Hands) Redraw(ctx context.Context, t *record.Table, seat int, j *Job) time.Time {
	c := Update
	if j.Urgent() {
		c = Turn
	}
	if at := h.p.Budget.Admit(ctx, t.ChatID, c, call(t.ID, j.view)); !at.IsZero() {
		return at
	}
	ref := ephemeral.Ref{ChatID: t.ChatID, ReceiverID: t.Seats[seat].UserID, ID: j.rec.ID}
	err := h.p.Client.EditText(ctx, ref, content(j.m))
	if until, ok := h.retry(ctx, t, err); ok {
		return until
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err == nil || errors.Is(err, ephemeral.ErrNotModified) {
		j.rec.Digest, j.rec.Ping, j.rec.Buttons = message.Digest(j.m, false), j.m.Ping, len(j.m.Keyboard) > 0
		if err := h.p.Store.SetMessage(sctx, t.ID, j.view, j.rec.String()); err != nil {
			h.p.Log.Error().Err(err).Str("table", t.ID).Msg("record the hand in the group")
			return h.p.Now().Add(time.Second)
		}
		return time.Time{}
	}
	h.refused(ctx, t, err, h.p.Log.With().Str("table", t.ID).Int("seat", seat).Logger())
	if err := h.p.Store.DeleteMessages(sctx, t.ID, j.view); err != nil {
		h.p.Log.Error().Err(err).Str("table", t.ID).Msg("forget the hand in the group")
		return h.p.Now().Add(time.Second)
	}
	return time.Time{}
}

// Quiet is what the private hand of a person who plays from the group
// does now: their turn comes there only when it has waited (Nudge); else
// it shows Note once, or stays as it is (Quiet). Hold is until when a
// private hand that asks for a move waits.
type Quiet struct {
	Nudge bool
	Quiet bool
	Note  adapter.Message
	Hold  time.Time
}

// Private is what the private hand of seat does while its person plays
// from the group, m being what it would show, rec its record and gen the
// view's repost count: their turn comes to the private chat when half
// their time has gone by (quietUntil), or at once when the hand in the
// group cannot show it within a few seconds (stalled: the group's calls
// are spent); a turn told there stays told. Else the hand turns into a
// note without buttons, which says so and is drawn once.
func (h *Hands) Private(t *record.Table, seat int, m adapter.Message, rec view.MessageRecord, gen int, stalled bool) Quiet {
	until := h.quietUntil(t, seat)
	told := rec.Ping && rec.Gen == gen && message.Shows(rec, m, view.PlatformState(t, seat))
	if m.Ping && (stalled || told || !h.p.Now().Before(until)) {
		return Quiet{Nudge: true}
	}
	var q Quiet
	if m.Ping {
		q.Hold = until
	}
	note := h.p.Views.PlaysFromGroup(t)
	if rec.ID == 0 || message.Shows(rec, note, false) && rec.Gen == gen {
		q.Quiet = true // nothing to change in private
		return q
	}
	q.Note = note
	return q
}

// quietUntil is until when a person who plays from the group is not told
// of their turn in private: a minute into it, or half their time for a
// move if that comes first; with no deadline, a minute after the table's
// last change.
func (h *Hands) quietUntil(t *record.Table, seat int) time.Time {
	due := t.Seats[seat].Due
	if due.IsZero() {
		return t.Updated.Add(nudgeAfter)
	}
	turn := h.p.Turns.TurnTime(t)
	return due.Add(-turn + min(nudgeAfter, turn/2))
}

// content is a rendering as an ephemeral message shows it.
func content(m adapter.Message) ephemeral.Content {
	c := ephemeral.Content{Text: adapter.Clip(m.Text), ParseMode: models.ParseModeHTML, NoPreview: true}
	if kb, ok := message.Markup(m).(*models.InlineKeyboardMarkup); ok {
		c.Markup = kb
	}
	return c
}
