package tables

import (
	"context"
	"errors"
	"strconv"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
)

// A group's tables. A group (or a forum topic) holds up to limit tables at
// once, each a record of its own (record.TableID: table 1 is the chat's
// own id, table n that with a letter), so every button, link, timer,
// delivery and result names the table it belongs to and nothing treats
// one of them specially. A command names no table, so route picks the one
// it means: /newgame the next free table (a lobby already open somewhere
// is where it is), /table and /stop the one running game or, with several
// on, all of them (/stop asks which; /table 2 and /stop 2 name one), and
// everything else — the group's settings and results — table 1. A long
// game at table 1 with a quick one beside it is just two of them.

// route is the table a group's command acts on, and what it does there
// (see the top of this file).
func (c *commands) route(ctx context.Context, r txn.Request, fn func(t *record.Table, ch *txn.Change) error) (string, func(t *record.Table, ch *txn.Change) error, error) {
	own := record.ID(r.Msg.Chat.ID, threadOf(r.Msg))
	switch r.Name {
	case "newgame":
		id, ok := c.group.NewGameTable(ctx, own)
		if !ok {
			return own, func(t *record.Table, ch *txn.Change) error {
				ch.PostGroup(t, adapter.Message{Text: c.views.Loc(t.Lang).T("newgame.full")})
				return nil
			}, nil
		}
		return id, func(t *record.Table, ch *txn.Change) error {
			if err := c.group.FollowOwn(ctx, t); err != nil {
				return err
			}
			return fn(t, ch)
		}, nil
	case "table", "stop":
		if len(r.Args) > 0 {
			return c.named(ctx, own, r.Args[0], fn)
		}
	case "rules":
	default:
		return own, fn, nil
	}
	busy := c.group.BusyTables(ctx, own)
	switch {
	case len(busy) == 0:
		return own, fn, nil
	case len(busy) == 1 || r.Name == "rules":
		return busy[0].ID, fn, nil
	case r.Name == "table":
		// All are posted anew: the others first, then the first one with
		// the command.
		for _, other := range busy[1:] {
			_, _, err := c.tx.Transact(ctx, other.ID, 0, func(t *record.Table, ch *txn.Change) error {
				if t.Phase == record.PhaseIdle {
					return refusal.ErrNoChange
				}
				t.Repost(view.Table(t.GameNo))
				return nil
			})
			if err := refusal.Settle(err); err != nil {
				return "", nil, err
			}
		}
		return busy[0].ID, fn, nil
	}
	// /stop with several games on: which one? Asked at table 1, with the
	// tables as they are now (one may have ended meanwhile).
	return own, func(t *record.Table, ch *txn.Change) error {
		var still []*record.Table
		for _, other := range c.group.BusyTables(ctx, own) {
			if other.ID == t.ID {
				other = t
			}
			if other.Phase != record.PhaseIdle {
				still = append(still, other)
			}
		}
		if len(still) == 0 || len(still) == 1 && still[0].ID == t.ID {
			return fn(t, ch)
		}
		ch.PostGroup(t, c.views.StopChoice(c.views.Loc(t.Lang), still...))
		return nil
	}, nil
}

// named is the table «/table 2» or «/stop 2» acts on; a number that names
// no table of the group is answered at its table 1. A number past today's
// limit still reaches a table of the chat that is busy: a game opened
// before the limit was lowered can be shown and stopped. A cup's table
// is the cup's, whatever its number (only /cup stop stops it).
func (c *commands) named(ctx context.Context, own, arg string, fn func(t *record.Table, ch *txn.Change) error) (string, func(t *record.Table, ch *txn.Change) error, error) {
	n, err := strconv.Atoi(arg)
	id := record.Sibling(own, n)
	if id != "" && err == nil {
		t, _, lerr := c.tx.Load(ctx, id)
		if lerr != nil {
			// The store did not answer: the command is tried again, not
			// told «no such table».
			return own, nil, lerr
		}
		if c.group.CupsOwn(t) || n > c.group.Limit() && t.Phase == record.PhaseIdle {
			id = ""
		}
	}
	if err != nil || id == "" {
		return own, func(t *record.Table, ch *txn.Change) error {
			ch.PostGroup(t, adapter.Message{Text: c.views.Loc(t.Lang).T("table.bad_number", "Max", c.group.Limit())})
			return nil
		}, nil
	}
	return id, fn, nil
}

// openTable is the table a ▶️ button (/help, a picker) opens its lobby at:
// where a new game goes (newGameTable; a table 2 and on follows its group
// in the press's change, onOpen), refused when every table is taken. Any
// other press acts on the table it names; a ▶️ naming a table past the
// group's limit (forged, or from before the limit was lowered) opens
// nothing there.
func (pr *presses) openTable(ctx context.Context, p callback.Data) (string, error) {
	chat, _, err := record.ParseID(p.Table)
	if p.Op != callback.Open || err != nil || chat > 0 {
		return p.Table, nil
	}
	if n := record.TableNo(p.Table); n > pr.group.Limit() {
		return p.Table, refusal.New("error.stale")
	} else if n > 1 {
		return p.Table, nil
	}
	id, ok := pr.group.NewGameTable(ctx, p.Table)
	if !ok {
		return id, refusal.New("newgame.full")
	}
	return id, nil
}

// closeOthers closes the tables 2 and on of a group the bot was removed
// from, as its table 1 is closed: every one a group can hold, whatever
// the limit is now.
func (c *commands) closeOthers(ctx context.Context, chat int64) error {
	for n := 2; n <= record.MaxTables; n++ {
		_, _, err := c.tx.Transact(ctx, record.TableID(chat, 0, n), 0, func(t *record.Table, ch *txn.Change) error {
			if t.Phase == record.PhaseIdle {
				return refusal.ErrNoChange
			}
			txn.CloseTable(t)
			return nil
		})
		if err != nil && !errors.Is(err, refusal.ErrNoChange) {
			return err
		}
	}
	return nil
}
