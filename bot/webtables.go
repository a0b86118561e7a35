package bot

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
)

// The tables' side of the «Стол» page: the changes a page causes (a press from
// it, its being open), and the page's links on the chat's messages.

// webRatings keeps a recorded result's rating changes for the page, by
// player id (nil when they are not known: a retried recording).
func webRatings(e *resultEntry, changes []ratingChange) map[string][2]float64 {
	if len(changes) == 0 {
		return nil
	}
	out := map[string][2]float64{}
	for i, s := range e.Seats {
		if i < len(changes) && !s.Unrated && s.Player != "" {
			out[s.Player] = [2]float64{changes[i].Before, changes[i].After}
		}
	}
	return out
}

// seatPlayer is a seat's results player id: the person (or the one who
// left it), or the robot's level.
func seatPlayer(s record.Seat) string {
	switch {
	case s.Leaver != nil:
		return humanPlayer(s.Leaver.UserID)
	case !s.Human():
		return robotPlayer(s.AI)
	}
	return humanPlayer(s.UserID)
}

// webShown reports whether the seat's page is open and visible now.
func (b *Bot) webShown(t *record.Table, seat int) bool {
	s := t.Seats[seat]
	return t.Phase == record.PhasePlaying && s.Leaver == nil && s.Web.After(b.now())
}

// webExpiry is the earliest lease of an open page, zero when none.
func webExpiry(t *record.Table) time.Time {
	var at time.Time
	for _, s := range t.Seats {
		if !s.Web.IsZero() && (at.IsZero() || s.Web.Before(at)) {
			at = s.Web
		}
	}
	return at
}

// expireWeb ends the leases that ran out, so those hands are drawn again.
func (b *Bot) expireWeb(ctx context.Context, id string) error {
	_, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		now, changed := b.now(), false
		for i := range t.Seats {
			if s := &t.Seats[i]; !s.Web.IsZero() && !now.Before(s.Web) {
				s.Web, changed = time.Time{}, true
			}
		}
		if !changed {
			return errNoChange
		}
		return nil
	})
	if errors.Is(err, errNoChange) {
		return nil
	}
	return err
}

// webAppButton opens the page from a seat's private message (Telegram
// allows web_app buttons in private chats only); none when no page is
// served, or the table has no token yet.
func (b *Bot) webAppButton(l adapter.Loc, t *record.Table) (adapter.Button, bool) {
	if b.cfg.WebAppURL == "" || t.WebToken == "" {
		return adapter.Button{}, false
	}
	return adapter.Button{Text: l.T("web.button"), WebApp: b.cfg.WebAppURL + "?table=" + url.QueryEscape(t.WebToken)}, true
}

// webAppLink opens the page from the group: a direct link to the Mini App
// by its short name, the table in its start parameter.
func (b *Bot) webAppLink(l adapter.Loc, t *record.Table) (adapter.Button, bool) {
	if b.cfg.WebAppURL == "" || b.cfg.WebAppShortName == "" || b.cfg.Username == "" || t.WebToken == "" {
		return adapter.Button{}, false
	}
	return adapter.Button{Text: l.T("web.button"), URL: "https://t.me/" + b.cfg.Username + "/" + b.cfg.WebAppShortName + "?startapp=" + url.QueryEscape(t.WebToken)}, true
}

// mintWebToken gives a table about to be committed its web token, when the
// page is served and it has none yet (tables from before tokens get one on
// their next change). The pointer is written before the commit, so a
// committed token always resolves; a commit that loses its race leaves a
// pointer nobody was shown, to the same table.
func (b *Bot) mintWebToken(ctx context.Context, t *record.Table) {
	if t.WebToken != "" || b.cfg.WebAppURL == "" {
		return
	}
	tok := newWebToken()
	if err := b.store.SetPointer(ctx, webTokenKey(tok), t.ID); err != nil {
		b.log.Warn().Err(err).Str("table", t.ID).Msg("web token not minted")
		return
	}
	t.WebToken = tok
}

// pagePress applies a press the page sent for user (WebAct checked it is
// one the page may send): the same change as the same press in the chat,
// committed under the request's update id, so a retry is a no-op.
func (b *Bot) pagePress(ctx context.Context, id string, updateID int64, user models.User, p callback.Data) (*record.Table, *change, error) {
	return b.transact(ctx, id, updateID, func(t *record.Table, ch *change) error {
		switch p.Op {
		case 'a':
			return b.onAction(t, ch, p, user.ID)
		case 'm':
			return b.onDraft(t, ch, p, user.ID)
		case 'b':
			return b.onBack(t, ch, p, user.ID)
		case 'h':
			return b.onHint(t, ch, p, user.ID)
		}
		if t.SeatOf(user.ID) < 0 {
			// «Once more» from the page is for those who played: anyone
			// may open a table's page, only the group sees its lobby.
			return refuse("error.not_yours")
		}
		return b.onAgain(ctx, t, ch, p, &user)
	})
}

// pageSeen records whether user's page of table id is open and visible
// (see WebSeen): the seat's lease (Seat.Web) is renewed, or ended.
func (b *Bot) pageSeen(ctx context.Context, id string, user int64, visible bool) error {
	_, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		seat := t.SeatOf(user)
		if t.Phase != record.PhasePlaying || seat < 0 {
			return errNoChange
		}
		s := &t.Seats[seat]
		now := b.now()
		switch {
		case visible && s.Web.Sub(now) > b.cfg.WebLease*2/3:
			// Renewed when a third of the lease is used: an open page
			// (saying so every 25 s) costs a commit every half minute or
			// so, and one closed without a word frees its hand within
			// the lease.
			return errNoChange
		case visible:
			s.Web = now.Add(b.cfg.WebLease)
		case s.Web.IsZero():
			return errNoChange
		default:
			s.Web = time.Time{}
		}
		return nil
	})
	if errors.Is(err, errNoChange) {
		return nil
	}
	return err
}

// giveWebToken mints table id's web token when it has none (WebToken),
// and returns the token.
func (b *Bot) giveWebToken(ctx context.Context, id string) (string, error) {
	t, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		if t.WebToken != "" {
			return errNoChange
		}
		tok := newWebToken()
		if err := b.store.SetPointer(ctx, webTokenKey(tok), t.ID); err != nil {
			return err
		}
		t.WebToken = tok
		return nil
	})
	if err != nil && !errors.Is(err, errNoChange) {
		return "", err
	}
	return t.WebToken, nil
}
