package lobby

import (
	"context"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/txn"
)

// A group's tables. A group (or a forum topic) holds up to Limit tables at
// once, each a record of its own (record.TableID: table 1 is the chat's
// own id, table n that with a letter), so every button, link, timer,
// delivery and result names the table it belongs to and nothing treats
// one of them specially. A command names no table, so the commands'
// router (bot/tables) picks the one it means from these.

// Group finds a group's tables.
type Group struct {
	tx        *txn.Txn
	maxTables int
}

// NewGroup builds it: maxTables is a group's limit (0: 4).
func NewGroup(tx *txn.Txn, maxTables int) *Group { return &Group{tx: tx, maxTables: maxTables} }

// Limit is how many tables a group may hold at once.
func (c *Group) Limit() int { return record.Limit(c.maxTables) }

// ChatTables are the tables 1…limit of own's chat (and topic), idle ones
// included: a record is read for each (a table never used reads as a
// fresh idle one). A table that cannot be read is left out. It only reads
// the store.
func (c *Group) ChatTables(ctx context.Context, own string) []*record.Table {
	return c.tables(ctx, own, c.Limit())
}

// tables are the tables 1…upTo of own's chat (and topic), as ChatTables.
func (c *Group) tables(ctx context.Context, own string, upTo int) []*record.Table {
	var out []*record.Table
	for n := 1; n <= upTo; n++ {
		id := record.Sibling(own, n)
		if id == "" {
			break // a private chat holds its one table
		}
		if t, _, err := c.tx.Load(ctx, id); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// BusyTables are the tables of own's chat with a lobby open or a game on.
// Past today's limit the cup's tables live (a cup answers for them); a
// game there that is not a cup's was opened before the limit was lowered,
// and is still the group's: /stop and /table find it (a new game never
// goes there: NewGameTable keeps to the limit).
func (c *Group) BusyTables(ctx context.Context, own string) []*record.Table {
	var out []*record.Table
	for _, t := range c.tables(ctx, own, record.MaxTables) {
		if t.Phase != record.PhaseIdle && !c.CupsOwn(t) {
			out = append(out, t)
		}
	}
	return out
}

// CupsOwn reports whether t is a cup's: a table playing a cup's round,
// wherever the limit is now (one raised since the round began puts it
// within), or the cups' host (no lobby or game: a cup lives in its
// record). A cup's table whose round is over is the group's again (no
// new game goes there past the limit), and so is a lobby or game at the
// host's table 26 that the previous version opened under MAX_TABLES=26:
// /stop and /table find it.
func (c *Group) CupsOwn(t *record.Table) bool {
	n := record.TableNo(t.ID)
	return t.CupOf != nil && t.Phase != record.PhaseIdle || n > c.Limit() && n == record.CupHost && t.Phase != record.PhaseLobby && t.Phase != record.PhasePlaying
}

// NewGameTable is the table of a group where a new game goes, given the
// group's table 1 own: a lobby open at any of its tables (where /newgame
// says what is open), else the first idle one; ok is false when every
// table is taken. A practice table is its own. It only reads the store.
func (c *Group) NewGameTable(ctx context.Context, own string) (id string, ok bool) {
	if chat, _, err := record.ParseID(own); err != nil || chat > 0 {
		return own, true
	}
	ts := c.ChatTables(ctx, own)
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

// FollowOwn gives a group's table 2 and on, about to open a lobby, the
// group's language, title, zone and season (its champions carry 🏆): the
// group's settings live at its table 1. Table 1 learns whether it opens beside another table taken, so
// its messages name it too (record.Table.Numbered). It runs inside the
// change that opens the lobby, so a refused press or command changes
// nothing; it only reads the store.
func (c *Group) FollowOwn(ctx context.Context, t *record.Table) error {
	if t.Phase != record.PhaseIdle {
		return nil // its lobby or game goes on as it is
	}
	if record.TableNo(t.ID) == 1 {
		t.Numbered = false
		for _, other := range c.BusyTables(ctx, t.ID) {
			t.Numbered = t.Numbered || other.ID != t.ID
		}
		return nil
	}
	own, _, err := c.tx.Load(ctx, record.Sibling(t.ID, 1))
	if err != nil {
		return err
	}
	t.Lang, t.Title, t.Zone, t.Season = own.Lang, own.Title, own.Zone, own.Season
	return nil
}

// TableIn is the table of chat that a button naming table id belongs to:
// id itself when it is in that chat (its topic kept), else the chat's own
// table — a forged id never reaches another chat's record.
func TableIn(id string, chat int64) string {
	if c, _, err := record.ParseID(id); err == nil && c == chat {
		return id
	}
	return record.ID(chat, 0)
}
