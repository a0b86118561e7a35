package bot

import (
	"context"
	"errors"
	"slices"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// onCallback routes a button press. Every press is answered exactly once,
// at once, with a short toast: the reason when it was refused.
func (b *Bot) onCallback(ctx context.Context, updateID int64, q *models.CallbackQuery) error {
	start := time.Now()
	defer func() {
		took := time.Since(start)
		b.answered(took)
		b.metrics.observeAnswer(took)
	}()
	p, err := callback.Parse(q.Data)
	if err != nil {
		b.answer(ctx, q, b.loc(b.userLang(&q.From)).T("error.bad_button"), false, "")
		return nil
	}
	if !fromItsMessage(q, p) {
		b.answer(ctx, q, b.loc(b.userLang(&q.From)).T("error.foreign"), false, "")
		return nil
	}
	switch p.Op {
	case 'i':
		return b.onInfo(ctx, q, p)
	case 't':
		text, err := b.onTipsOff(ctx, updateID, q.From.ID, p)
		if err != nil {
			return err
		}
		b.answer(ctx, q, text, false, "")
		return nil
	case 'r':
		return b.onRulesPage(ctx, updateID, q, p)
	case 'f':
		return b.onForget(ctx, updateID, q, p)
	}
	if (p.Op == 'o' || p.Op == 'g') && !pressedIn(q, p.Table) && !(p.Op == 'o' && pressedInOwn(q, p.Table)) {
		// A menu button changes the group it was posted in, never another.
		b.answer(ctx, q, b.loc(b.userLang(&q.From)).T("error.bad_button"), false, "")
		return nil
	}
	// Effects are read before the compare-and-set loop, which stays pure:
	// whether the presser administers the group matters only for «cancel»
	// and the language.
	admin := false
	if (p.Op == 'l' && len(p.Args) > 0 && p.Args[0] == lobbyCancel) || p.Op == 'g' {
		if chat, _, err := record.ParseID(p.Table); err == nil {
			admin = b.isAdmin(ctx, chat, q.From.ID)
		}
	}
	// A seat's button on a hand message that was replaced (its buttons
	// not yet taken away) is stale even if the seat has not acted since;
	// on the current message a stale button means the move was made.
	var hand pressedHand
	t, ch, err := b.transactSeeing(ctx, p.Table, updateID, handOf(q, p), func(t *record.Table, ch *change) error {
		hand = pressedOn(q, t, p, ch.viewRecord)
		if hand.replaced && t.Phase == record.PhasePlaying && p.GameNo == t.GameNo {
			return refuse("error.stale")
		}
		switch p.Op {
		case 'a':
			return b.onAction(t, ch, p, q.From.ID)
		case 'm':
			return b.onDraft(t, ch, p, q.From.ID)
		case 'k':
			return b.onChooseGame(t, ch, p, q.From.ID)
		case 'l':
			return b.onLobby(ctx, t, ch, p, &q.From, admin)
		case 's':
			if err := b.onStop(t, ch, p, &q.From); err != nil {
				return err
			}
			// The question turns into its answer with the same commit.
			if msg := q.Message.Message; msg != nil {
				ch.outbox = append(ch.outbox, outMsg{ChatID: msg.Chat.ID, Edit: msg.ID, Message: adapter.Message{Text: ch.answer}, Reply: true})
			}
			return nil
		case 'b':
			return b.onBack(t, ch, p, q.From.ID)
		case 'x':
			return b.onLeave(t, ch, p, q.From.ID)
		case 'h':
			return b.onHint(t, ch, p, q.From.ID)
		case 'n':
			return b.onAgain(ctx, t, ch, p, &q.From)
		case 'o':
			return b.onOpen(t, ch, p, &q.From, b.hasStarted(ctx, q.From.ID))
		case 'g':
			return b.onLang(t, ch, p, q.From.ID, admin)
		}
		return refuse("error.bad_button")
	})
	l := b.tableLoc(t)
	a, ok := judgePress(l, ch, err)
	if !ok {
		return err // not answered: the redelivered update will answer it
	}
	url := ""
	switch {
	case errors.Is(err, errOpenChat):
		url = b.deepLink(joinPrefix + p.Table)
	case a.refused("error.stale") && hand.current:
		// The latest message: its buttons wait for the player's turn
		// (a waiting hand is not redrawn), or are about to be redrawn.
		key := "error.stale_done_wait"
		if b.toAct(t, p.Args[0]) {
			key = "error.stale_done_now"
		}
		a.text = l.T(key)
	case a.busy:
		b.log.Warn().Str("table", p.Table).Int64("update", updateID).Msg("press given up: the table stayed too busy")
	}
	b.answer(ctx, q, a.text, false, url)
	if p.Op == 's' && err != nil {
		return b.settleStop(ctx, updateID, q, p, err)
	}
	return nil
}

// pressedIn reports whether a press came from the chat of table id (its
// topic aside): what a forged payload naming another group fails.
func pressedIn(q *models.CallbackQuery, id string) bool {
	chat, _, err := record.ParseID(id)
	return err == nil && q.Message.Message != nil && q.Message.Message.Chat.ID == chat && chat < 0
}

// fromItsMessage reports whether a press that changes the very message it
// came from (a rules page turned, a question answered) came from a message
// made for it: one that carries a button of the same kind. Telegram sends
// the message as it is now, keyboard included, so a forged press (a page
// turn sent against the winner's message) is refused and changes nothing.
// Other presses change the table, whose messages the bot keeps itself.
func fromItsMessage(q *models.CallbackQuery, p callback.Data) bool {
	if p.Op != 'r' && p.Op != 'f' && p.Op != 's' {
		return true
	}
	msg := q.Message.Message
	if msg == nil {
		// Too old to be sent along: no message is changed (a /forgetme
		// answer is sent anew, a page cannot be turned).
		return p.Op != 'r'
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
// the view replaced, or on its current one.
type pressedHand struct{ replaced, current bool }

// handOf is the hand view whose message a seat's button was pressed on,
// or "" for any other press.
func handOf(q *models.CallbackQuery, p callback.Data) string {
	if q.Message.Message == nil || len(p.Args) == 0 || (p.Op != 'a' && p.Op != 'm' && p.Op != 'b' && p.Op != 'h') {
		return ""
	}
	return handView(p.GameNo, p.Args[0])
}

// pressedOn tells where a seat's button was pressed from the hand's message
// record (read with the table). Message ids count per chat, so only a
// message in the seat's own private chat can be its hand; no record knows
// nothing.
func pressedOn(q *models.CallbackQuery, t *record.Table, p callback.Data, record string) pressedHand {
	msg := q.Message.Message
	if msg == nil || record == "" || len(p.Args) == 0 {
		return pressedHand{}
	}
	if s := t.Seat(game.Seat(p.Args[0])); s == nil || !s.Human() || s.UserID != msg.Chat.ID {
		return pressedHand{}
	}
	rec := parseMsgRecord(record)
	return pressedHand{replaced: rec.replaced(msg.ID), current: rec.ID != 0 && rec.ID == msg.ID}
}

// toAct reports whether a seat has to act in the table's game now.
func (b *Bot) toAct(t *record.Table, seat int) bool {
	if t == nil || t.Phase != record.PhasePlaying {
		return false
	}
	_, st, err := b.decode(t)
	return err == nil && slices.Contains(st.ToAct(), game.Seat(seat))
}

// settleStop takes the buttons off a /stop question that was already
// settled (answered on another copy, or its game over) when it is pressed.
// (An answer that counts edits the question in its own change.)
func (b *Bot) settleStop(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data, err error) error {
	msg := q.Message.Message
	key, _ := RefusalKey(err)
	if msg == nil || (key != "stop.answered" && key != "error.stale_game") {
		return nil
	}
	return b.queue(ctx, tableIn(p.Table, msg.Chat.ID), updateID, outMsg{ChatID: msg.Chat.ID, Edit: msg.ID, Unbutton: true, Reply: true})
}

func (b *Bot) answer(ctx context.Context, q *models.CallbackQuery, text string, alert bool, url string) {
	_, err := b.tg.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{
		CallbackQueryID: q.ID,
		Text:            text,
		ShowAlert:       alert,
		URL:             url,
	})
	if err != nil {
		b.log.Debug().Err(err).Msg("answerCallbackQuery failed")
	}
}

// buttonSeat is the seat a seat's button names in the table's current
// game, or the refusal: a button of another game, or of one no longer
// played, is stale; a seat the table lacks makes a bad button. Whether the
// presser may press it is the caller's question (seatFor, onLeave).
func buttonSeat(t *record.Table, p callback.Data) (int, *record.Seat, error) {
	if t.Phase != record.PhasePlaying || p.GameNo != t.GameNo {
		return 0, nil, refuse("error.stale_game")
	}
	seat := p.Args[0]
	s := t.Seat(game.Seat(seat))
	if s == nil {
		return 0, nil, refuse("error.bad_button")
	}
	return seat, s, nil
}

// seatFor checks that a game button belongs to the current game and to the
// presser, and (unless the game's buttons stay live) was drawn after the
// seat's last action.
func (b *Bot) seatFor(t *record.Table, p callback.Data, who int64) (int, error) {
	seat, s, err := buttonSeat(t, p)
	if err != nil {
		return 0, err
	}
	if !s.Human() || s.UserID != who {
		return 0, refuse("error.not_yours")
	}
	if len(p.Args) > 1 && p.Args[1] != s.Nonce {
		if g, ok := b.games.get(t.GameID); !ok || !adapter.LiveButtons(g) {
			return 0, refuse("error.stale")
		}
	}
	return seat, nil
}

// seatGame is the seat a press or a page's request is for (seatFor) with
// the table's game decoded, or the refusal why the presser may not act
// there: what every seat's button but «I'm back» and «leave» opens with.
func (b *Bot) seatGame(t *record.Table, p callback.Data, who int64) (int, adapter.Game, game.State, error) {
	seat, err := b.seatFor(t, p, who)
	if err != nil {
		return 0, nil, nil, err
	}
	g, st, err := b.decode(t)
	if err != nil {
		return 0, nil, nil, err
	}
	return seat, g, st, nil
}

func (b *Bot) onAction(t *record.Table, ch *change, p callback.Data, who int64) error {
	seat, g, st, err := b.seatGame(t, p, who)
	if err != nil {
		return err
	}
	t.Seats[seat].Timeouts = 0 // the player is back
	if err := b.apply(t, ch, g, st, game.Seat(seat), game.Action(p.Args[2]), false); err != nil {
		return err
	}
	if t.Event != nil && t.Event.Seat == seat && t.Event.Key == "event.timeout" {
		t.Event = nil
	}
	ch.answer = moveToast(b.loc(t.Lang), t.Seats[seat].Moved)
	return nil
}

// onBack ends auto-play for a player who had let their turns run out.
func (b *Bot) onBack(t *record.Table, ch *change, p callback.Data, who int64) error {
	seat, err := b.seatFor(t, p, who)
	if err != nil {
		return err
	}
	if t.Seats[seat].Timeouts == 0 {
		return refuse("auto.not_auto")
	}
	t.Seats[seat].Timeouts = 0
	if t.Event != nil && t.Event.Seat == seat {
		t.Event = nil
	}
	if g, st, err := b.decode(t); err == nil {
		t.Seats[seat].Due = time.Time{} // the player gets a full turn again
		b.schedule(t, g, st, false)
	}
	ch.answer = b.loc(t.Lang).T("auto.welcome_back")
	return nil
}

// onDraft records one press of a multi-press choice on a seat's keyboard.
func (b *Bot) onDraft(t *record.Table, ch *change, p callback.Data, who int64) error {
	seat, g, st, err := b.seatGame(t, p, who)
	if err != nil {
		return err
	}
	d, ok := g.(adapter.DraftGame)
	if !ok {
		return refuse("error.bad_button")
	}
	next, ok := d.Draft(st, game.Seat(seat), t.Seats[seat].Draft, p.Args[2])
	if !ok {
		return refuse("error.bad_choice")
	}
	if slices.Equal(next, t.Seats[seat].Draft) {
		return errNoChange
	}
	t.Seats[seat].Draft = next
	return nil
}

// seatInfo is a seat's private information (InfoGame) for the person who
// asked, or the refusal why not: the chat's alert and the page's are one.
// The button carries no nonce, so it is never stale within its game.
func (b *Bot) seatInfo(t *record.Table, p callback.Data, who int64) (string, error) {
	seat, g, st, err := b.seatGame(t, callback.Data{Op: p.Op, Table: p.Table, GameNo: p.GameNo, Args: p.Args[:1]}, who)
	if err != nil {
		return "", err
	}
	info, ok := g.(adapter.InfoGame)
	if !ok {
		return "", refuse("error.bad_button")
	}
	return info.Info(b.loc(t.Lang), b.adapterView(t), st, seat), nil
}

// onInfo shows a seat's private information in an alert.
func (b *Bot) onInfo(ctx context.Context, q *models.CallbackQuery, p callback.Data) error {
	t, _, err := b.load(ctx, p.Table)
	if err != nil {
		return err
	}
	text, err := b.seatInfo(t, p, q.From.ID)
	if err != nil {
		a, ok := judgePress(b.loc(t.Lang), nil, err)
		if !ok {
			return err
		}
		b.answer(ctx, q, a.text, false, "")
		return nil
	}
	b.answer(ctx, q, text, true, "")
	return nil
}

func (b *Bot) decode(t *record.Table) (adapter.Game, game.State, error) {
	g, ok := b.games.get(t.GameID)
	if !ok {
		return nil, nil, errUnknownGame(t)
	}
	st, err := g.Decode(t.State)
	return g, st, err
}

// apply runs one engine action for a seat (or the system) and records
// everything it causes: the log, the seat's nonce, announcements and the
// timers. A rule violation becomes a refusal with the engine's reason.
// A system move a person's move leaves due at once follows in the same
// change.
func (b *Bot) apply(t *record.Table, ch *change, g adapter.Game, st game.State, seat game.Seat, a game.Action, auto bool) error {
	before, err := g.Decode(t.State)
	if err != nil {
		return err
	}
	if err := st.Apply(seat, a); err != nil {
		if code := game.CodeOf(err); code != "" {
			return b.ruleRefusal(t, g, before, seat, a, code)
		}
		return err
	}
	data, err := st.MarshalBinary()
	if err != nil {
		return err
	}
	t.State = data
	if m, ok := g.(adapter.MemoryGame); ok {
		t.Memory = m.Observe(t.Memory, st)
	}
	t.Log = append(t.Log, record.Move{Seat: seat, Action: a, Auto: auto})
	l := b.loc(t.Lang)
	if s := t.Seat(seat); s != nil {
		s.Nonce++
		s.Draft = nil
		if !auto {
			s.Tip = "" // read: the person moved since
		}
		if !auto {
			s.Acted = b.now()
		}
		s.Due = time.Time{} // acting again later means a fresh timer
		if s.Human() {
			s.Moved = &record.SeatMove{Nonce: s.Nonce, Name: moveName(l, b.adapterView(t), g, before, seat, a), Auto: auto}
		}
	}
	msgs := g.Announce(l, b.adapterView(t), before, st)
	if st.Over() {
		// The result is queued ahead of the final announcement, which gets
		// the «play again» button (results.go).
		msgs = b.finish(t, ch, g, st, msgs)
	}
	for _, m := range msgs {
		ch.post(t, m)
	}
	acting := st.ToAct()
	for i := range t.Seats {
		if game.Seat(i) != seat && slices.Contains(acting, game.Seat(i)) {
			// Their turn: a waiting view of theirs is no longer about
			// their last move (the confirmation, moved.go).
			t.Seats[i].Moved = nil
		}
	}
	if !st.Over() {
		b.teach(t, g, before, st)
	}
	if st.Over() {
		t.Phase = record.PhaseIdle
		t.StopTimers()
		if t.Event != nil && t.Event.Key == "event.timeout" {
			t.Event = nil // the finished table shows the result, not a timeout long past
		}
		ch.finished = true
		return nil
	}
	b.schedule(t, g, st, true)
	if !auto && !t.SystemAt.IsZero() && !t.SystemAt.After(b.now()) {
		// A person's move left the system's move due at once (in real
		// time: nobody can act, so the dealer deals): it is made in this
		// change rather than in one of its own once the delivery worker
		// gets to the table, which under load means after other tables'
		// deliveries, while the players wait.
		return b.actFor(t, ch, g, st, game.System)
	}
	return nil
}

// ruleRefusal explains an illegal action in the player's terms: the game's
// own text for the code, with details when the game can give them.
func (b *Bot) ruleRefusal(t *record.Table, g adapter.Game, st game.State, seat game.Seat, a game.Action, code game.Code) error {
	l := b.loc(t.Lang)
	if ex, ok := g.(adapter.ExplainGame); ok && seat >= 0 {
		if text, ok := ex.Explain(l, b.adapterView(t), st, int(seat), a, code); ok {
			return &refusal{rendered: text}
		}
	}
	return refuse(adapter.ErrorKey(l, g, code))
}

// PressDraft applies one press of a DraftButton (its callback data) by
// user to the table in memory, exactly as the platform does for the press
// in Telegram, with no store and no Telegram: the seat's checks, the
// staleness check and DraftGame.Draft. A refused press returns an error
// that RefusalKey reads and leaves the table as it was. It lets a game's
// tests, and other front ends, drive its drafts.
func (b *Bot) PressDraft(t *record.Table, data string, user int64) error {
	p, err := callback.Parse(data)
	if err != nil || p.Op != 'm' || p.Table != t.ID {
		return refuse("error.bad_button")
	}
	return b.onDraft(t, &change{}, p, user)
}
