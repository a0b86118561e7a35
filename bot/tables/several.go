package tables

import (
	"context"
	"errors"
	"strconv"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
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

// defaultMaxTables is a group's limit unless configured.
const defaultMaxTables = 4

// limit is how many tables a group may hold at once.
func (c *core) limit() int {
	if c.cfg.MaxTables <= 0 {
		return defaultMaxTables
	}
	return min(c.cfg.MaxTables, record.MaxTables)
}

// chatTables are the tables 1…limit of own's chat (and topic), idle ones
// included: a record is read for each (a table never used reads as a
// fresh idle one). A table that cannot be read is left out. It only reads
// the store.
func (c *core) chatTables(ctx context.Context, own string) []*record.Table {
	var out []*record.Table
	for n := 1; n <= c.limit(); n++ {
		id := record.Sibling(own, n)
		if id == "" {
			break // a private chat holds its one table
		}
		if t, _, err := c.load(ctx, id); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// busyTables are the tables of own's chat with a lobby open or a game on.
func (c *core) busyTables(ctx context.Context, own string) []*record.Table {
	var out []*record.Table
	for _, t := range c.chatTables(ctx, own) {
		if t.Phase != record.PhaseIdle {
			out = append(out, t)
		}
	}
	return out
}

// newGameTable is the table of a group where a new game goes, given the
// group's table 1 own: a lobby open at any of its tables (where /newgame
// says what is open), else the first idle one; ok is false when every
// table is taken. A practice table is its own. It only reads the store.
func (c *core) newGameTable(ctx context.Context, own string) (id string, ok bool) {
	if chat, _, err := record.ParseID(own); err != nil || chat > 0 {
		return own, true
	}
	ts := c.chatTables(ctx, own)
	for _, t := range ts {
		if t.Phase == record.PhaseLobby {
			return t.ID, true
		}
	}
	for _, t := range ts {
		if t.Phase == record.PhaseIdle {
			return t.ID, true
		}
	}
	return own, false
}

// followOwn gives a group's table 2 and on, about to open a lobby, the
// group's language, title, zone and season (its champions carry 🏆): the
// group's settings live at its table 1. Table 1 learns whether it opens beside another table taken, so
// its messages name it too (record.Table.Numbered). It runs inside the
// change that opens the lobby, so a refused press or command changes
// nothing; it only reads the store.
func (c *core) followOwn(ctx context.Context, t *record.Table) error {
	if t.Phase != record.PhaseIdle {
		return nil // its lobby or game goes on as it is
	}
	if record.TableNo(t.ID) == 1 {
		t.Numbered = false
		for _, other := range c.busyTables(ctx, t.ID) {
			t.Numbered = t.Numbered || other.ID != t.ID
		}
		return nil
	}
	own, _, err := c.load(ctx, record.Sibling(t.ID, 1))
	if err != nil {
		return err
	}
	t.Lang, t.Title, t.Zone, t.Season = own.Lang, own.Title, own.Zone, own.Season
	return nil
}

// route is the table a group's command acts on, and what it does there
// (see the top of this file).
func (c *commands) route(ctx context.Context, r request, fn func(t *record.Table, ch *change) error) (string, func(t *record.Table, ch *change) error, error) {
	own := record.ID(r.msg.Chat.ID, threadOf(r.msg))
	switch r.name {
	case "newgame":
		id, ok := c.newGameTable(ctx, own)
		if !ok {
			return own, func(t *record.Table, ch *change) error {
				ch.postGroup(t, adapter.Message{Text: c.loc(t.Lang).T("newgame.full")})
				return nil
			}, nil
		}
		return id, func(t *record.Table, ch *change) error {
			if err := c.followOwn(ctx, t); err != nil {
				return err
			}
			return fn(t, ch)
		}, nil
	case "table", "stop":
		if len(r.args) > 0 {
			return c.named(own, r.args[0], fn)
		}
	case "rules":
	default:
		return own, fn, nil
	}
	busy := c.busyTables(ctx, own)
	switch {
	case len(busy) == 0:
		return own, fn, nil
	case len(busy) == 1 || r.name == "rules":
		return busy[0].ID, fn, nil
	case r.name == "table":
		// All are posted anew: the others first, then the first one with
		// the command.
		for _, other := range busy[1:] {
			_, _, err := c.transact(ctx, other.ID, 0, func(t *record.Table, ch *change) error {
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
	return own, func(t *record.Table, ch *change) error {
		var still []*record.Table
		for _, other := range c.busyTables(ctx, own) {
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
		ch.postGroup(t, c.views.StopChoice(c.loc(t.Lang), still...))
		return nil
	}, nil
}

// named is the table «/table 2» or «/stop 2» acts on; a number that names
// no table of the group is answered at its table 1.
func (c *commands) named(own, arg string, fn func(t *record.Table, ch *change) error) (string, func(t *record.Table, ch *change) error, error) {
	n, err := strconv.Atoi(arg)
	if id := record.Sibling(own, n); err != nil || n < 1 || n > c.limit() || id == "" {
		return own, func(t *record.Table, ch *change) error {
			ch.postGroup(t, adapter.Message{Text: c.loc(t.Lang).T("table.bad_number", "Max", c.limit())})
			return nil
		}, nil
	}
	return record.Sibling(own, n), fn, nil
}

// nameTable begins what a change of table 2 and on (or of a Numbered
// table 1) posts to its group with the table's name (view.Named): «Стол
// 2», then the text. What is the group's (postGroup) is not named.
func (c *core) nameTable(t *record.Table, ch *change) {
	l := c.loc(t.Lang)
	if view.TableName(l, t) == "" {
		return
	}
	for i := range ch.outbox {
		if e := &ch.outbox[i]; e.ChatID == t.ChatID && !ch.group[i] {
			e.Text = view.Named(l, t, e.Text)
		}
	}
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
	if n := record.TableNo(p.Table); n > pr.limit() {
		return p.Table, refusal.New("error.stale")
	} else if n > 1 {
		return p.Table, nil
	}
	id, ok := pr.newGameTable(ctx, p.Table)
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
		_, _, err := c.transact(ctx, record.TableID(chat, 0, n), 0, func(t *record.Table, ch *change) error {
			if t.Phase == record.PhaseIdle {
				return refusal.ErrNoChange
			}
			closeTable(t)
			return nil
		})
		if err != nil && !errors.Is(err, refusal.ErrNoChange) {
			return err
		}
	}
	return nil
}
