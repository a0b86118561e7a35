package tables

import (
	"context"
	"errors"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
)

// pages are the changes the «Стол» page causes: a press from it (the same
// change as the same press in the chat), its being open (a visible page
// spares the seat's hand in the chat), and a table's web token.
type pages struct {
	*core
	play  *play
	lobby *lobby
}

// press applies a press the page sent for user (the web role checked it is
// one the page may send), committed under the request's update id, so a
// retry is a no-op.
func (pg *pages) press(ctx context.Context, id string, updateID int64, user models.User, p callback.Data) (*record.Table, string, error) {
	t, ch, err := pg.transact(ctx, id, updateID, func(t *record.Table, ch *change) error {
		if err := brokenButton(t, p); err != nil {
			return err
		}
		switch p.Op {
		case callback.Action:
			return pg.play.onAction(t, ch, p, user.ID)
		case callback.Draft:
			return pg.play.onDraft(t, ch, p, user.ID)
		case callback.Back:
			return pg.play.onBack(t, ch, p, user.ID)
		case callback.Hint:
			return pg.play.onHint(t, ch, p, user.ID)
		case callback.Again:
			if t.SeatOf(user.ID) < 0 {
				// «Once more» from the page is for those who played: anyone
				// may open a table's page, only the group sees its lobby.
				return refusal.New("error.not_yours")
			}
			return pg.lobby.onAgain(ctx, t, ch, p, &user)
		}
		return refusal.New("error.bad_button")
	})
	answer := ""
	if ch != nil {
		answer = ch.answer
	}
	return t, answer, err
}

// seen records whether user's page of table id is open and visible: the
// seat's lease (Seat.Web) is renewed, or ended.
func (pg *pages) seen(ctx context.Context, id string, user int64, visible bool) error {
	_, _, err := pg.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		seat := t.SeatOf(user)
		if t.Phase != record.PhasePlaying || seat < 0 {
			return refusal.ErrNoChange
		}
		s := &t.Seats[seat]
		now := pg.now()
		switch {
		case visible && s.Web.Sub(now) > pg.cfg.WebLease*2/3:
			// Renewed when a third of the lease is used: an open page
			// (saying so every 25 s) costs a commit every half minute or
			// so, and one closed without a word frees its hand within
			// the lease.
			return refusal.ErrNoChange
		case visible:
			s.Web = now.Add(pg.cfg.WebLease)
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

// giveToken mints table id's token when it has none (a commit mints it),
// and returns the token.
func (c *core) giveToken(ctx context.Context, id string) (string, error) {
	t, _, err := c.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		if t.Token != "" {
			return refusal.ErrNoChange
		}
		return nil
	})
	if err != nil && !errors.Is(err, refusal.ErrNoChange) {
		return "", err
	}
	return t.Token, nil
}
