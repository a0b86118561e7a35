package web

import (
	"context"
	"errors"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/store"
)

// Who may see a table on the «Стол» page: the members of its group (a
// practice table: its person), the same question a lobby's buttons and a
// join link ask (members.Cache.Belongs). The page names the table by an unguessable token (never
// the chat id, which would let anyone scan for the groups that use the
// bot), and a request for a table the viewer may not see is answered
// exactly as one for a token that does not exist.

// Token is the token of table id for the page's links, minted now when
// the table has none. Tools and tests use it; the bot's own links carry
// the token minted with the table's commits.
func (w *Web) Token(ctx context.Context, id string) (string, error) {
	if _, _, err := record.ParseID(id); err != nil {
		return "", ErrBadRequest
	}
	t, version, err := w.tables.Load(ctx, id)
	if err != nil {
		return "", err
	}
	if version == 0 {
		return "", ErrNotFound
	}
	if t.Token != "" {
		return t.Token, nil
	}
	return w.tables.GiveToken(ctx, id)
}

// webTableID resolves a page's token to its table's id; ErrNotFound
// for anything else.
func (w *Web) webTableID(ctx context.Context, token string) (string, error) {
	if !record.ValidTableToken(token) {
		return "", ErrNotFound
	}
	id, err := w.store.Pointer(ctx, store.TableTokenKey(token))
	if errors.Is(err, store.ErrNotFound) {
		return "", ErrNotFound
	}
	return id, err
}

// webLoad is the table a token names, as user may see it: ErrNotFound
// when there is none or the user is not a member of its group.
func (w *Web) webLoad(ctx context.Context, token string, user int64) (*record.Table, int64, error) {
	id, err := w.webTableID(ctx, token)
	if err != nil {
		return nil, 0, err
	}
	t, version, err := w.tables.Load(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	if version == 0 || t.Token != token {
		return nil, 0, ErrNotFound
	}
	ok, err := w.webAllowed(ctx, t, user)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0, ErrNotFound
	}
	return t, version, nil
}

// webAllowed reports whether user may see table t: Telegram says they are
// in its group (asked once per user and group per members.MemberTTL, and
// asked again at once when Telegram told the bot they left or joined). A
// seated player is asked too: someone who left the group keeps no view of
// its table, seat or not.
func (w *Web) webAllowed(ctx context.Context, t *record.Table, user int64) (bool, error) {
	return w.members.Belongs(ctx, t.ChatID, user)
}
