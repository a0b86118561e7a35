package tables

import (
	"context"
	"errors"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/cupplay"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/play"
	"github.com/trickchef/trickchef/bot/tables/standings"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// presses routes a button press to what its op does (ops.go). Every
// press is answered exactly once, at once, with a short toast: the reason
// when it was refused (refusal.Judge, the policy the page's replies
// share).
type presses struct {
	tx      *txn.Txn
	views   *view.Renderer
	calls   *calls
	members *members.Cache
	log     zerolog.Logger
	now     func() time.Time
	metrics *metrics.Metrics // nil: not measured
	// answered observes how long a button press took from its update to
	// its answer (for measurements).
	answered func(time.Duration)
	ops      map[callback.Op]op

	seats   *play.Seats
	leaving *play.Leaving
	tips    *play.Tips
	lobby   *lobby.Lobby
	menus   *lobby.Menus
	group   *lobby.Group
	forget  *standings.Forgetting
	reviews *standings.Reviews
	cups    *cupplay.Cups
}

// answer answers a press.
func (pr *presses) answer(ctx context.Context, q *models.CallbackQuery, text string, alert bool, url string) {
	pr.calls.answer(ctx, q, text, alert, url)
}

// onCallback routes a button press.
func (pr *presses) onCallback(ctx context.Context, updateID int64, q *models.CallbackQuery) error {
	start := time.Now()
	defer func() {
		took := time.Since(start)
		pr.answered(took)
		pr.metrics.ObserveAnswer(took)
	}()
	p, err := callback.Parse(q.Data)
	if err != nil {
		pr.answer(ctx, q, pr.views.Loc(pr.tx.UserLang(&q.From)).T("error.bad_button"), false, "")
		return nil
	}
	o, known := pr.ops[p.Op]
	if !fromItsMessage(q, p, o) {
		pr.answer(ctx, q, pr.views.Loc(pr.tx.UserLang(&q.From)).T("error.foreign"), false, "")
		return nil
	}
	switch {
	case o.answer != nil:
		return o.answer(ctx, updateID, q, p)
	case !known || o.change == nil || o.menu && !pressedIn(q, p.Table) && !(o.practice && pressedInOwn(q, p.Table)):
		// A menu button changes the group it was posted in, never another.
		pr.answer(ctx, q, pr.views.Loc(pr.tx.UserLang(&q.From)).T("error.bad_button"), false, "")
		return nil
	}
	if err := pr.mayPress(ctx, q, p, o.seat); err != nil { // belong.go
		a, ok := refusal.Judge(pr.views.Loc(pr.tx.UserLang(&q.From)), "", err)
		if !ok {
			return err
		}
		pr.answer(ctx, q, a.Text, false, "")
		return nil
	}
	// ▶️ opens at the group's next free table (route.go); with every
	// table taken, it is refused.
	id, err := pr.openTable(ctx, p)
	if err != nil {
		l := pr.views.Loc(pr.tx.UserLang(&q.From))
		if t, _, lerr := pr.tx.Load(ctx, id); lerr == nil {
			l = pr.views.TableLoc(t)
		}
		a, _ := refusal.Judge(l, "", err)
		pr.answer(ctx, q, a.Text, false, "")
		return nil
	}
	p.Table = id
	return pr.change(ctx, updateID, q, p, o)
}

// change applies a press of an op that changes the table its button
// names, and answers it.
func (pr *presses) change(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data, o op) error {
	// Effects are read before the compare-and-set loop, which stays pure:
	// whether the presser administers the group matters only for «cancel»,
	// the language, which of two games to stop, and a /stop an anonymous
	// admin asked.
	admin := false
	if o.admin != nil && o.admin(p) {
		if chat, _, err := record.ParseID(p.Table); err == nil {
			admin = pr.calls.isAdmin(ctx, chat, q.From.ID)
		}
	}
	// A seat's button on a hand message that was replaced (its buttons
	// not yet taken away) is stale even if the seat has not acted since;
	// on the current message a stale button means the move was made.
	var hand pressedHand
	seeing := ""
	if o.hand {
		seeing = handOf(q, p)
	}
	t, ch, err := pr.tx.TransactSeeing(ctx, p.Table, updateID, seeing, func(t *record.Table, ch *txn.Change) error {
		if err := txn.BrokenButton(t, p); err != nil {
			return err
		}
		if err := fromItsChat(q, t, p, o.seat); err != nil { // belong.go
			return err
		}
		hand = pressedOn(q, t, p, ch.ViewRecord)
		if (hand.replaced || hand.orphan) && t.Phase == record.PhasePlaying && p.GameNo == t.GameNo {
			return refusal.New("error.stale")
		}
		ch.Press = q.ID
		if err := o.change(ctx, t, ch, press{p: p, who: &q.From, q: q, admin: admin}); err != nil {
			return err
		}
		if o.seat {
			notePlace(q, t, p) // grouphand.go: only a press that counted
		}
		return nil
	})
	answer := ""
	if ch != nil {
		answer = ch.Answer
	}
	a, ok := refusal.Judge(pr.views.TableLoc(t), answer, err)
	if !ok {
		return err // not answered: the redelivered update will answer it
	}
	if err := pr.answerChange(ctx, updateID, q, p, t, hand, a, err); err != nil {
		return err
	}
	switch {
	case o.settle != nil && err != nil:
		return o.settle(ctx, updateID, q, p, err)
	case hand.orphan:
		// Found: the orphan loses its buttons (it is the bot's own
		// message: it carries this seat's button of this game).
		msg := q.Message.Message
		return pr.tx.Queue(ctx, p.Table, updateID, outbox.Entry{ChatID: msg.Chat.ID, Edit: msg.ID, Disarm: true})
	}
	return nil
}

// answerChange answers a press that changed its table (or was refused
// doing so): a join that needs the private chat opened gets its link, a
// stale press on the current hand says why.
func (pr *presses) answerChange(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data, t *record.Table, hand pressedHand, a refusal.Answer, err error) error {
	url := ""
	switch {
	case errors.Is(err, lobby.ErrOpenChat):
		tok := t.Token
		if tok == "" { // a lobby from before tokens, not changed since
			var terr error
			if tok, terr = pr.tx.GiveToken(ctx, p.Table); terr != nil {
				return terr
			}
		}
		url = pr.views.DeepLink(view.JoinPrefix + tok)
	case a.Refused("error.stale") && hand.current:
		// The latest message: its buttons wait for the player's turn
		// (a waiting hand is not redrawn), or are about to be redrawn.
		key := "error.stale_done_wait"
		if pr.seats.ToAct(t, p.Args[0]) {
			key = "error.stale_done_now"
		}
		a.Text = pr.views.TableLoc(t).T(key)
		switch s := t.Seat(game.Seat(p.Args[0])); {
		case fromGroupHand(q):
			if wait := pr.waitText(t); key == "error.stale_done_wait" && wait != "" {
				a.Text = wait // the hand in the group: whose turn it is
			}
		case s != nil && s.Group:
			// They play from the group: this chat's hand is not redrawn.
			a.Text = pr.views.TableLoc(t).T("grouphand.stale_private")
		}
	case a.Busy:
		pr.log.Warn().Str("table", p.Table).Int64("update", updateID).Msg("press given up: the table stayed too busy")
	}
	pr.answer(ctx, q, a.Text, false, url)
	return nil
}

// pagePress applies a press the page sent for user (the web role checked
// it is one the page may send): the same change as the same press in the
// chat, from the same op table, committed under the request's update id,
// so a retry is a no-op.
func (pr *presses) pagePress(ctx context.Context, id string, updateID int64, user models.User, p callback.Data) (*record.Table, string, error) {
	t, ch, err := pr.tx.Transact(ctx, id, updateID, func(t *record.Table, ch *txn.Change) error {
		if err := txn.BrokenButton(t, p); err != nil {
			return err
		}
		o, ok := pr.ops[p.Op]
		if !ok || !o.page {
			return refusal.New("error.bad_button")
		}
		return o.change(ctx, t, ch, press{p: p, who: &user})
	})
	answer := ""
	if ch != nil {
		answer = ch.Answer
	}
	return t, answer, err
}

// onInfo shows a seat's private information in an alert.
func (pr *presses) onInfo(ctx context.Context, _ int64, q *models.CallbackQuery, p callback.Data) error {
	t, _, err := pr.tx.Load(ctx, p.Table)
	if err != nil {
		return err
	}
	text, err := pr.seats.SeatInfo(t, p, q.From.ID)
	if err != nil {
		a, ok := refusal.Judge(pr.views.Loc(t.Lang), "", err)
		if !ok {
			return err
		}
		pr.answer(ctx, q, a.Text, false, "")
		return nil
	}
	pr.answer(ctx, q, text, true, "")
	return nil
}

// settleStop takes the buttons off a /stop question that was already
// settled (answered on another copy, or its game over) when it is pressed.
// (An answer that counts edits the question in its own change.)
func (pr *presses) settleStop(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data, err error) error {
	msg := q.Message.Message
	key, _ := refusal.Key(err)
	if msg == nil || (key != "stop.answered" && key != "error.stale_game") {
		return nil
	}
	return pr.tx.Queue(ctx, lobby.TableIn(p.Table, msg.Chat.ID), updateID, outbox.Entry{ChatID: msg.Chat.ID, Edit: msg.ID, Disarm: true, Reply: true})
}

// pressedIn reports whether a press came from the chat of table id (its
// topic aside): what a forged payload naming another group fails.
func pressedIn(q *models.CallbackQuery, id string) bool {
	chat, _, err := record.ParseID(id)
	return err == nil && q.Message.Message != nil && q.Message.Message.Chat.ID == chat && chat < 0
}

// pressedInOwn reports whether a press came from the private chat of the
// practice table id, by that chat's person: the only one whose menu
// buttons may open a lobby there.
func pressedInOwn(q *models.CallbackQuery, id string) bool {
	chat, _, err := record.ParseID(id)
	return err == nil && view.PracticeChat(chat) && q.Message.Message != nil && q.Message.Message.Chat.ID == chat && q.From.ID == chat
}

// fromItsMessage reports whether a press that changes the very message it
// came from (a rules page turned, a question answered) came from a message
// made for it: one that carries a button of the same kind. Telegram sends
// the message as it is now, keyboard included, so a forged press (a page
// turn sent against the winner's message) is refused and changes nothing.
// Other presses change the table, whose messages the bot keeps itself.
func fromItsMessage(q *models.CallbackQuery, p callback.Data, o op) bool {
	if !o.ownMessage {
		return true
	}
	msg := q.Message.Message
	if msg == nil {
		// Too old to be sent along: no message is changed (a /forgetme
		// answer is sent anew, a page cannot be turned).
		return !o.needsMessage
	}
	if msg.ReplyMarkup == nil {
		return false
	}
	for _, row := range msg.ReplyMarkup.InlineKeyboard {
		for _, bt := range row {
			if o, err := callback.Parse(bt.CallbackData); err == nil && o.Op == p.Op {
				return true
			}
		}
	}
	return false
}

// pressedHand is where a seat's button was pressed: on a hand message
// the view replaced, on its current one, or on an orphan — a message older
// than the current one that the view never recorded: a copy posted by a
// send whose answer never came (the send was tried again). An orphan's
// buttons are refused like a replaced message's, and it loses them, so a
// hand is never live twice.
type pressedHand struct{ replaced, current, orphan bool }

// handOf is the hand view whose message a hand's button (op.hand) was
// pressed on, or "" for none.
func handOf(q *models.CallbackQuery, p callback.Data) string {
	if q.Message.Message == nil || len(p.Args) == 0 {
		return ""
	}
	return view.Hand(p.GameNo, p.Args[0])
}

// pressedOn tells where a seat's button was pressed from the hand's message
// record (read with the table). Message ids count per chat, so only a
// message in the seat's own private chat can be its hand; no record knows
// nothing.
func pressedOn(q *models.CallbackQuery, t *record.Table, p callback.Data, rec string) pressedHand {
	msg := q.Message.Message
	if msg == nil || rec == "" || len(p.Args) == 0 {
		return pressedHand{}
	}
	s := t.Seat(game.Seat(p.Args[0]))
	if s != nil && s.Human() && s.UserID == q.From.ID && msg.Chat.ID == t.ChatID && fromGroupHand(q) {
		// The hand in the group: one message, always the current one.
		return pressedHand{current: true}
	}
	if s == nil || !s.Human() || s.UserID != msg.Chat.ID {
		return pressedHand{}
	}
	r := view.ParseMessageRecord(rec)
	replaced := r.Replaced(msg.ID)
	return pressedHand{replaced: replaced, current: r.ID != 0 && r.ID == msg.ID,
		orphan: !replaced && r.ID != 0 && msg.ID < r.ID}
}
