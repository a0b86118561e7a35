package deliver

import (
	"context"
	"time"

	"github.com/trickchef/trickchef/bot/deliver/grouphand"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
)

// The hand in the group is drawn by bot/deliver/grouphand; what stays
// here is the private hand's side of it (withGroupHand) and the two
// things the hands borrow from delivery: the budget and the deletion of a
// chat's messages.

// handBudget is the budget as the hands ask it (grouphand.Budget): each
// kind of their calls with its priority, its share of the group's calls
// and its patience.
type handBudget struct{ b *budget }

// Admit takes a unit of the chat's and the token's limits for a hand's
// call of kind c (see budget.admitAs).
func (h handBudget) Admit(ctx context.Context, chatID int64, c grouphand.Call, name string) time.Time {
	p, class, patience := prioCleanup, classView, cleanupPatience
	switch c {
	case grouphand.Answer:
		p, class, patience = prioPrompt, classReply, promptPatience
	case grouphand.Turn:
		p, class, patience = prioPrompt, classHand, promptPatience
	case grouphand.Update:
		p, class, patience = prioTable, classHand, promptPatience
	case grouphand.Forget:
		p, class, patience = prioAnnounce, classAnnounce, announcePatience
	}
	return h.b.admitAs(ctx, chatID, p, class, name, h.b.now().Add(patience))
}

// Withdraw gives up a call's place in the token's line.
func (h handBudget) Withdraw(ctx context.Context, name string) { h.b.withdraw(ctx, name) }

// chats deletes a chat's messages for the hands (grouphand.Chats).
type chats struct{ d *Delivery }

// DeleteMessages deletes messages of one chat (Delivery.deleteMessages).
func (c chats) DeleteMessages(ctx context.Context, chatID int64, ids []int) error {
	return c.d.deleteMessages(ctx, chatID, ids)
}

// withGroupHand adds to the job of a dirty hand view v (ok: its private
// hand has something to send) the seat's hand in the group, and turns the
// private hand of a person who plays from the group into a note without
// buttons, which says so and is drawn once; their turn comes to the
// private chat only when half their time has gone by
// (grouphand.Hands.Private), or at once when the group's calls would
// keep their hand there waiting past grouphand.Stall.
func (d *Delivery) withGroupHand(ctx context.Context, t *record.Table, v string, records map[string]string, j redrawJob, ok bool) (redrawJob, bool) {
	g, proved := d.hands.Job(t, v, records)
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
	if g != nil {
		p := prioTable
		if g.Urgent() {
			p = prioPrompt
		}
		j.prio = min(j.prio, p)
	}
	if !private {
		if !ok {
			j.rec = view.MessageRecord{} // the quiet path leaves an empty record as it is
		}
		return j, true
	}
	stalled := g != nil && g.Urgent() && d.budget.chatWait(ctx, t.ChatID, classHand) > grouphand.Stall
	q := d.hands.Private(t, seat, j.m, j.rec, j.gen, stalled)
	j.hold = q.Hold
	j.nudge = q.Nudge
	switch {
	case q.Nudge && !ok:
		j.quiet = true // their turn, in the private chat already
	case q.Nudge:
		j.quiet, j.platform = false, view.PlatformState(t, seat) // their turn, told in private
	case q.Quiet:
		j.quiet = true // nothing to change in private
	default:
		j.m, j.platform, j.quiet, j.patience = q.Note, false, false, handPatience
	}
	return j, true
}
