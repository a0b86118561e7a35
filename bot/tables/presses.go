package tables

import (
	"context"
	"errors"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// presses routes a button press to what its op does. Every press is
// answered exactly once, at once, with a short toast: the reason when it
// was refused (refusal.Judge, the policy the page's replies share).
type presses struct {
	*core
	play     *play
	lobby    *lobby
	leaving  *leaving
	tips     *tips
	menus    *menus
	standing *standing
	reviews  *reviewing
}

// tableChange is what a press of an op does to the table it names, inside
// the transaction.
type tableChange func(ctx context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, admin bool) error

// changes are the ops that change the table their button names, and what
// each does; the other ops (info, tips off, rules pages, /forgetme) are
// answered in onCallback.
func (pr *presses) changes(op callback.Op) (tableChange, bool) {
	switch op {
	case callback.Action:
		return func(_ context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, _ bool) error {
			return pr.play.onAction(t, ch, p, q.From.ID)
		}, true
	case callback.Draft:
		return func(_ context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, _ bool) error {
			return pr.play.onDraft(t, ch, p, q.From.ID)
		}, true
	case callback.Back:
		return func(_ context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, _ bool) error {
			return pr.play.onBack(t, ch, p, q.From.ID)
		}, true
	case callback.Hint:
		return func(_ context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, _ bool) error {
			return pr.play.onHint(t, ch, p, q.From.ID)
		}, true
	case callback.Leave:
		return func(_ context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, _ bool) error {
			return pr.leaving.onLeave(t, ch, p, q.From.ID)
		}, true
	case callback.Choose:
		return func(_ context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, _ bool) error {
			return pr.lobby.onChooseGame(t, ch, p, q.From.ID)
		}, true
	case callback.Lobby:
		return func(ctx context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, admin bool) error {
			return pr.lobby.onLobby(ctx, t, ch, p, &q.From, admin)
		}, true
	case callback.Again:
		return func(ctx context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, _ bool) error {
			return pr.lobby.onAgain(ctx, t, ch, p, &q.From)
		}, true
	case callback.Open:
		return func(ctx context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, _ bool) error {
			if err := pr.followOwn(ctx, t); err != nil { // a table 2 and on: several.go
				return err
			}
			return pr.lobby.onOpen(t, ch, p, &q.From, pr.hasStarted(ctx, q.From.ID))
		}, true
	case callback.Lang:
		return func(_ context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, admin bool) error {
			return pr.menus.onLang(t, ch, p, q.From.ID, admin)
		}, true
	case callback.Cup:
		return pr.onCup, true // cups.go
	case callback.Stop:
		return func(_ context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, admin bool) error {
			if p.Args[0] == callback.StopAsk {
				return pr.lobby.onStopAsk(t, ch, p, &q.From, admin, q.Message.Message) // long.go
			}
			if err := pr.lobby.onStop(t, ch, p, &q.From, admin); err != nil {
				return err
			}
			// The question turns into its answer with the same commit.
			if msg := q.Message.Message; msg != nil {
				ch.outbox = append(ch.outbox, outbox.Entry{ChatID: msg.Chat.ID, Edit: msg.ID, Message: adapter.Message{Text: ch.answer}, Reply: true})
			}
			return nil
		}, true
	}
	return nil, false
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
		pr.answer(ctx, q, pr.loc(pr.userLang(&q.From)).T("error.bad_button"), false, "")
		return nil
	}
	if !fromItsMessage(q, p) {
		pr.answer(ctx, q, pr.loc(pr.userLang(&q.From)).T("error.foreign"), false, "")
		return nil
	}
	switch p.Op {
	case callback.Info:
		return pr.onInfo(ctx, q, p)
	case callback.TipsOff:
		text, err := pr.tips.onTipsOff(ctx, updateID, q.From.ID, p)
		if err != nil {
			return err
		}
		pr.answer(ctx, q, text, false, "")
		return nil
	case callback.Rules:
		return pr.menus.onRulesPage(ctx, updateID, q, p)
	case callback.Forget:
		return pr.standing.onForget(ctx, updateID, q, p)
	case callback.Review:
		return pr.reviews.onReview(ctx, updateID, q, p)
	}
	do, ok := pr.changes(p.Op)
	if !ok {
		pr.answer(ctx, q, pr.loc(pr.userLang(&q.From)).T("error.bad_button"), false, "")
		return nil
	}
	if (p.Op == callback.Open || p.Op == callback.Lang) && !pressedIn(q, p.Table) && !(p.Op == callback.Open && pressedInOwn(q, p.Table)) {
		// A menu button changes the group it was posted in, never another.
		pr.answer(ctx, q, pr.loc(pr.userLang(&q.From)).T("error.bad_button"), false, "")
		return nil
	}
	if err := pr.mayPress(ctx, q, p); err != nil { // belong.go
		a, ok := refusal.Judge(pr.loc(pr.userLang(&q.From)), "", err)
		if !ok {
			return err
		}
		pr.answer(ctx, q, a.Text, false, "")
		return nil
	}
	// Effects are read before the compare-and-set loop, which stays pure:
	// whether the presser administers the group matters only for «cancel»,
	// the language, which of two games to stop, and a /stop an anonymous
	// admin asked.
	admin := false
	if (p.Op == callback.Lobby && len(p.Args) > 0 && p.Args[0] == callback.LobbyCancel) || p.Op == callback.Lang || p.Op == callback.Stop || cupNeedsAdmin(p) {
		if chat, _, err := record.ParseID(p.Table); err == nil {
			admin = pr.isAdmin(ctx, chat, q.From.ID)
		}
	}
	// ▶️ opens at the group's next free table (several.go); with every
	// table taken, it is refused.
	id, err := pr.openTable(ctx, p)
	if err != nil {
		l := pr.loc(pr.userLang(&q.From))
		if t, _, lerr := pr.load(ctx, id); lerr == nil {
			l = pr.views.TableLoc(t)
		}
		a, _ := refusal.Judge(l, "", err)
		pr.answer(ctx, q, a.Text, false, "")
		return nil
	}
	p.Table = id
	// A seat's button on a hand message that was replaced (its buttons
	// not yet taken away) is stale even if the seat has not acted since;
	// on the current message a stale button means the move was made.
	var hand pressedHand
	t, ch, err := pr.transactSeeing(ctx, p.Table, updateID, handOf(q, p), func(t *record.Table, ch *change) error {
		if err := brokenButton(t, p); err != nil {
			return err
		}
		if err := fromItsChat(q, t, p); err != nil { // belong.go
			return err
		}
		hand = pressedOn(q, t, p, ch.viewRecord)
		if (hand.replaced || hand.orphan) && t.Phase == record.PhasePlaying && p.GameNo == t.GameNo {
			return refusal.New("error.stale")
		}
		ch.press = q.ID
		return do(ctx, t, ch, p, q, admin)
	})
	l := pr.views.TableLoc(t)
	answer := ""
	if ch != nil {
		answer = ch.answer
	}
	a, ok := refusal.Judge(l, answer, err)
	if !ok {
		return err // not answered: the redelivered update will answer it
	}
	url := ""
	switch {
	case errors.Is(err, errOpenChat):
		tok := t.Token
		if tok == "" { // a lobby from before tokens, not changed since
			if tok, err = pr.giveToken(ctx, p.Table); err != nil {
				return err
			}
		}
		url = pr.views.DeepLink(view.JoinPrefix + tok)
	case a.Refused("error.stale") && hand.current:
		// The latest message: its buttons wait for the player's turn
		// (a waiting hand is not redrawn), or are about to be redrawn.
		key := "error.stale_done_wait"
		if pr.play.toAct(t, p.Args[0]) {
			key = "error.stale_done_now"
		}
		a.Text = l.T(key)
	case a.Busy:
		pr.log.Warn().Str("table", p.Table).Int64("update", updateID).Msg("press given up: the table stayed too busy")
	}
	pr.answer(ctx, q, a.Text, false, url)
	switch {
	case p.Op == callback.Stop && err != nil:
		return pr.settleStop(ctx, updateID, q, p, err)
	case hand.orphan:
		// Found: the orphan loses its buttons (it is the bot's own
		// message: it carries this seat's button of this game).
		msg := q.Message.Message
		return pr.queue(ctx, p.Table, updateID, outbox.Entry{ChatID: msg.Chat.ID, Edit: msg.ID, Disarm: true})
	}
	return nil
}

// onInfo shows a seat's private information in an alert.
func (pr *presses) onInfo(ctx context.Context, q *models.CallbackQuery, p callback.Data) error {
	t, _, err := pr.load(ctx, p.Table)
	if err != nil {
		return err
	}
	text, err := pr.play.seatInfo(t, p, q.From.ID)
	if err != nil {
		a, ok := refusal.Judge(pr.loc(t.Lang), "", err)
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
	return pr.queue(ctx, tableIn(p.Table, msg.Chat.ID), updateID, outbox.Entry{ChatID: msg.Chat.ID, Edit: msg.ID, Disarm: true, Reply: true})
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
func fromItsMessage(q *models.CallbackQuery, p callback.Data) bool {
	if p.Op != callback.Rules && p.Op != callback.Forget && p.Op != callback.Stop {
		return true
	}
	msg := q.Message.Message
	if msg == nil {
		// Too old to be sent along: no message is changed (a /forgetme
		// answer is sent anew, a page cannot be turned).
		return p.Op != callback.Rules
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

// handOf is the hand view whose message a seat's button was pressed on,
// or "" for any other press.
func handOf(q *models.CallbackQuery, p callback.Data) string {
	if q.Message.Message == nil || len(p.Args) == 0 {
		return ""
	}
	switch p.Op {
	case callback.Action, callback.Draft, callback.Back, callback.Hint:
		return view.Hand(p.GameNo, p.Args[0])
	}
	return ""
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
	if s := t.Seat(game.Seat(p.Args[0])); s == nil || !s.Human() || s.UserID != msg.Chat.ID {
		return pressedHand{}
	}
	r := view.ParseMessageRecord(rec)
	replaced := r.Replaced(msg.ID)
	return pressedHand{replaced: replaced, current: r.ID != 0 && r.ID == msg.ID,
		orphan: !replaced && r.ID != 0 && msg.ID < r.ID}
}
