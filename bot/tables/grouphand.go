package tables

import (
	"context"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/game"
)

// The hand in the group (docs/bot.md «The hand in the group»): «🖐 Мои
// карты» under a running game's table sends the presser their hand as an
// ephemeral message only they see (bot/deliver/grouphand); a press on
// it is a seat's press like one in their private chat, and tells where the
// person plays (record.Seat.Group).

// myHand answers «🖐 Мои карты»: the presser's hand goes to the group, in
// answer to this very press (Telegram takes it within 15 seconds).
func (pr *presses) myHand(_ context.Context, t *record.Table, ch *txn.Change, ps press) error {
	if ps.q == nil {
		return refusal.New("error.bad_button")
	}
	if t.Phase != record.PhasePlaying || ps.p.GameNo != t.GameNo {
		return refusal.New("error.stale_game")
	}
	seat := t.SeatOf(ps.who.ID)
	if seat < 0 || !t.Seats[seat].Human() {
		return refusal.New("grouphand.not_seated")
	}
	if !pr.views.HandInGroup().GroupHands(t) {
		return refusal.New("grouphand.unavailable")
	}
	s := &t.Seats[seat]
	if now := pr.now(); now.Sub(s.HandAsked) < askAgainAfter {
		// Pressed again at once: the hand is on its way, or there.
		return refusal.New("grouphand.shown")
	} else {
		s.HandAsked = now
	}
	ch.Outbox = append(ch.Outbox, outbox.Entry{ChatID: t.ChatID, Thread: t.Thread, Reply: true,
		Hand: &outbox.Hand{Seat: seat, User: ps.who.ID, GameNo: t.GameNo, Query: ps.q.ID, At: pr.now().UnixMilli()}})
	ch.Answer = pr.views.Loc(t.Lang).T("grouphand.shown")
	return nil
}

// askAgainAfter is how soon a person may ask for their hand in the group
// again: each ask is a message against the group's 20 a minute.
const askAgainAfter = 10 * time.Second

// fromGroupHand reports whether a press came from an ephemeral message: a
// group's message with id 0, which only its receiver sees and presses.
func fromGroupHand(q *models.CallbackQuery) bool {
	msg := q.Message.Message
	return msg != nil && msg.ID == 0 && msg.Chat.ID < 0
}

// notePlace records where the person of a seat's button plays: from the
// group, once a press on their hand there proves their app shows it, or in
// private again after a press there.
func notePlace(q *models.CallbackQuery, t *record.Table, p callback.Data) {
	if len(p.Args) == 0 {
		return
	}
	s := t.Seat(game.Seat(p.Args[0]))
	if s == nil || s.UserID != q.From.ID {
		return
	}
	chat, _ := pressChat(q)
	switch {
	case chat == t.ChatID && fromGroupHand(q):
		s.Group = true
	case chat == q.From.ID:
		s.Group = false
	}
}

// waitText is what a stale press on a hand in the group says while
// someone else is to move: who.
func (pr *presses) waitText(t *record.Table) string {
	_, st, err := txn.Decode(pr.views, t)
	if err != nil {
		return ""
	}
	var names []string
	for _, s := range st.ToAct() {
		if seat := t.Seat(s); seat != nil {
			names = append(names, seat.Name)
		}
	}
	l := pr.views.Loc(t.Lang)
	switch len(names) {
	case 0:
		return ""
	case 1:
		return l.T("grouphand.wait_one", "Name", names[0])
	}
	return l.T("grouphand.wait_many", "Names", strings.Join(names, ", "))
}
