package play

import (
	"context"
	"errors"
	"time"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
)

// Pages keeps the «Стол» page's lease on a seat: a visible page spares
// the seat's hand in the chat. (A press from the page is the same change
// as the same press in the chat: bot/tables routes both.)
type Pages struct {
	tx       *txn.Txn
	now      func() time.Time
	webLease time.Duration
}

// NewPages builds the pages' lease: webLease is how long a page that said
// it is visible counts as visible without saying it again.
func NewPages(tx *txn.Txn, webLease time.Duration, now func() time.Time) *Pages {
	return &Pages{tx: tx, now: now, webLease: webLease}
}

// Seen records whether user's page of table id is open and visible: the
// seat's lease (Seat.Web) is renewed, or ended.
func (pg *Pages) Seen(ctx context.Context, id string, user int64, visible bool) error {
	_, _, err := pg.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		seat := t.SeatOf(user)
		if t.Phase != record.PhasePlaying || seat < 0 {
			return refusal.ErrNoChange
		}
		s := &t.Seats[seat]
		now := pg.now()
		switch {
		case visible && s.Web.Sub(now) > pg.webLease*2/3:
			// Renewed when a third of the lease is used: an open page
			// (saying so every 25 s) costs a commit every half minute or
			// so, and one closed without a word frees its hand within
			// the lease.
			return refusal.ErrNoChange
		case visible:
			s.Web = now.Add(pg.webLease)
		case s.Web.IsZero():
			return refusal.ErrNoChange
		default:
			s.Web = time.Time{}
		}
		return nil
	})
	if errors.Is(err, refusal.ErrNoChange) {
		return nil
	}
	return err
}
