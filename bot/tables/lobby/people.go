package lobby

import (
	"context"
	"errors"
	"strings"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// People is a person's private chat with the bot as the tables see it:
// /start (joining by link, the rules by link, the hand again), and whether
// the bot can write to them at all.
type People struct {
	store   PeopleStore
	tx      *txn.Txn
	games   view.Games
	menus   *Menus
	lobby   *Lobby
	members *members.Cache
	log     zerolog.Logger
}

// PeopleStore is where a person's start and seat are kept, and a join
// link's table.
type PeopleStore interface {
	Pointer(ctx context.Context, key string) (string, error)
	SetPointer(ctx context.Context, key, value string) error
}

// NewPeople builds a person's private chat; members says who is in a
// group.
func NewPeople(st PeopleStore, tx *txn.Txn, views *view.Renderer, menus *Menus, lobby *Lobby, mc *members.Cache, log zerolog.Logger) *People {
	return &People{store: st, tx: tx, games: views.Games(), menus: menus, lobby: lobby, members: mc, log: log}
}

// OnStart greets a user in private, seats them when they came through a
// table's deep link, shows a game's rules through the lobby's link, and
// otherwise finds the table they sit at: their hand comes back when they
// are in a game, and a lobby that could not write to them learns it can.
func (pp *People) OnStart(ctx context.Context, r txn.Request, l adapter.Loc) error {
	m, updateID := r.Msg, r.UpdateID
	user := m.From.ID
	if err := pp.store.SetPointer(ctx, store.StartedKey(user), "1"); err != nil {
		return err
	}
	if len(r.Args) > 0 && strings.HasPrefix(r.Args[0], view.JoinPrefix) {
		id, err := pp.linkedTable(ctx, strings.TrimPrefix(r.Args[0], view.JoinPrefix), user)
		if errors.Is(err, errBadLink) {
			return pp.tx.Reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T("start.bad_link")})
		}
		if err != nil {
			return err
		}
		t, _, err := pp.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
			return pp.lobby.joinFromLink(t, ch, m.From)
		})
		var rf *refusal.Refusal
		switch {
		case errors.As(err, &rf):
			return pp.tx.Reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: rf.Text(l)})
		case err != nil:
			return err
		}
		if t.Phase == record.PhaseLobby {
			return pp.tx.Reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T("start.joined", "Title", adapter.Esc(t.Title))})
		}
		return nil
	}
	if len(r.Args) > 0 && strings.HasPrefix(r.Args[0], view.RulesPrefix) {
		if g, ok := pp.games.Get(strings.TrimPrefix(r.Args[0], view.RulesPrefix)); ok {
			if err := pp.tx.Reply(ctx, updateID, m.Chat.ID, pp.menus.RulesPage(l, record.ID(m.Chat.ID, 0), g, 0)); err != nil {
				return err
			}
			if t, ok := pp.seatedTable(ctx, user); ok {
				return refusal.Settle(pp.tx.Reachable(ctx, t.ID, user, false))
			}
			return nil
		}
	}
	t, ok := pp.seatedTable(ctx, user)
	switch {
	case ok && t.Phase == record.PhasePlaying:
		// A player coming back: show their hand again at the bottom of the chat.
		return refusal.Settle(pp.tx.Reachable(ctx, t.ID, user, true))
	case ok && t.Phase == record.PhaseLobby:
		if err := refusal.Settle(pp.tx.Reachable(ctx, t.ID, user, false)); err != nil {
			return err
		}
		return pp.tx.Reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T("start.joined", "Title", adapter.Esc(t.Title))})
	}
	return pp.tx.Reply(ctx, updateID, m.Chat.ID, pp.menus.Greeting(l, record.ID(m.Chat.ID, 0)))
}

// errBadLink: a join link names no table this person may join. A made-up
// token, a table gone, and a group the person is not in all get this one
// answer, so a stranger holding a link learns nothing, not even a title.
var errBadLink = errors.New("bad join link")

// linkedTable is the id of the table a join link's token names, when user
// may sit there: Telegram says they are in its group (cached,
// members.Cache.Belongs: the same question as the lobby's buttons ask).
func (pp *People) linkedTable(ctx context.Context, token string, user int64) (string, error) {
	if !record.ValidTableToken(token) {
		return "", errBadLink
	}
	id, err := pp.store.Pointer(ctx, store.TableTokenKey(token))
	if errors.Is(err, store.ErrNotFound) {
		return "", errBadLink
	}
	if err != nil {
		return "", err
	}
	t, version, err := pp.tx.Load(ctx, id)
	if err != nil {
		return "", err
	}
	if version == 0 || t.Token != token {
		return "", errBadLink
	}
	member, err := pp.members.Belongs(ctx, t.ChatID, user) // the one check, as for a press (bot/tables, belong.go)
	if err != nil {
		return "", err
	}
	if !member {
		pp.log.Info().Str("table", id).Int64("user", user).Msg("join link refused: not in the group")
		return "", errBadLink
	}
	return id, nil
}

// seatedTable is the table the user's pointer names, when they sit at it
// and it is open or playing.
func (pp *People) seatedTable(ctx context.Context, user int64) (*record.Table, bool) {
	id, err := pp.store.Pointer(ctx, store.UserTableKey(user))
	if err != nil {
		return nil, false
	}
	t, _, err := pp.tx.Load(ctx, id)
	if err != nil || t.Phase == record.PhaseIdle || t.SeatOf(user) < 0 {
		return nil, false
	}
	return t, true
}

// MarkUnreachable notes that the bot cannot write to user at table id (they
// blocked it, or never started it): the table shows ⚠️ and offers the deep
// link until they press /start.
func (pp *People) MarkUnreachable(ctx context.Context, id string, user int64) error {
	_, _, err := pp.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		s := t.SeatOf(user)
		if s < 0 || t.Seats[s].Unreachable {
			return refusal.ErrNoChange
		}
		t.Seats[s].Unreachable = true
		return nil
	})
	if err != nil && !errors.Is(err, refusal.ErrNoChange) {
		return err
	}
	return nil
}
