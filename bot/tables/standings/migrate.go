package standings

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// Migration moves a group's tables and results to the supergroup it
// became.
type Migration struct {
	store   MigrateStore
	results Mover
	tx      *txn.Txn
	now     func() time.Time
	log     zerolog.Logger
	rehome  Rehomer
}

// Rehomer rewrites what a table keeps of other tables' ids (a cup's host
// and its round's tables name each other) when the group's chat id
// changes; id maps an old table id to its new one.
type Rehomer func(t *record.Table, id func(string) string) error

// MigrateStore is what a group's upgrade moves in the store itself.
type MigrateStore interface {
	Load(ctx context.Context, table string) (store.Record, error)
	Commit(ctx context.Context, table string, c store.Change) (int64, error)
	Delete(ctx context.Context, table string) error
	SetPointer(ctx context.Context, key, value string) error
	Messages(ctx context.Context, table string) (map[string]string, error)
	SetMessage(ctx context.Context, table, view, record string) error
	Outbox(ctx context.Context, table string, n int) ([]store.Envelope, error)
}

// Mover is what a group's upgrade asks of the results role.
type Mover interface {
	Record(ctx context.Context, e *record.Result) ([]record.RatingChange, error)
	// MoveChat merges a group's results into the supergroup it became.
	MoveChat(ctx context.Context, from, to int64) error
}

// NewMigration builds a group's upgrade; rehome (nil: nothing to rewrite)
// follows the ids tables keep of each other.
func NewMigration(st MigrateStore, res Mover, tx *txn.Txn, rehome Rehomer, now func() time.Time, log zerolog.Logger) *Migration {
	return &Migration{store: st, results: res, tx: tx, rehome: rehome, now: now, log: log}
}

// Migrate moves a group's tables — every one it may hold — when Telegram upgrades the group to
// a supergroup with a new chat id. The group messages are posted anew in
// the new chat; hand messages (in private chats) are kept and redrawn, so
// their buttons carry the new table id. The group's results go with it.
func (c *Migration) Migrate(ctx context.Context, oldChat, newChat int64) error {
	var olds []*record.Table
	var oldIDs []string
	for n := 1; n <= record.MaxTables; n++ {
		ids := [2]string{record.TableID(oldChat, 0, n), record.TableID(newChat, 0, n)}
		old, err := c.moveTable(ctx, ids[0], ids[1], oldChat, newChat)
		if err != nil {
			return err
		}
		if old != nil {
			olds = append(olds, old)
			oldIDs = append(oldIDs, ids[0])
		}
	}
	c.log.Info().Int64("from", oldChat).Int64("to", newChat).Int("tables", len(olds)).Msg("group migrated to supergroup")
	c.tx.Wake()
	// Results go with the group; before the old tables (and any result
	// still waiting there) are deleted.
	if err := c.moveResults(ctx, olds, record.ID(oldChat, 0), oldChat, newChat); err != nil {
		return err
	}
	for _, id := range oldIDs {
		if err := c.store.Delete(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// moveTable writes table oldID anew as newID in chat newChat, and returns
// the old table as it was (nil when there is none, or it moved already).
func (c *Migration) moveTable(ctx context.Context, oldID, newID string, oldChat, newChat int64) (*record.Table, error) {
	rec, err := c.store.Load(ctx, oldID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t, err := record.Decode(rec.Data)
	if err != nil {
		return nil, err
	}
	old := *t
	t.ID, t.ChatID = newID, newChat
	if c.rehome != nil {
		if err := c.rehome(t, func(id string) string { return rehomed(id, oldChat, newChat) }); err != nil {
			return nil, err
		}
	}
	// Finished games waiting to be recorded are recorded under the old
	// chat, before its results move (migrate): the new table keeps only
	// its other jobs.
	t.Jobs = slices.DeleteFunc(slices.Clone(t.Jobs), func(j record.Job) bool { return j.Result != nil })
	data, err := t.Encode()
	if err != nil {
		return nil, err
	}
	records, err := c.store.Messages(ctx, oldID)
	if err != nil {
		return nil, err
	}
	for v, rec := range records {
		if strings.HasPrefix(v, "hand:") {
			if err := c.store.SetMessage(ctx, newID, v, rec); err != nil {
				return nil, err
			}
		}
	}
	_, err = c.store.Commit(ctx, newID, store.Change{Version: 0, Data: data, Dirty: view.All(t), WakeAt: c.now(), TimerAt: txn.NextDue(t, c.now())})
	if err != nil && !errors.Is(err, store.ErrConflict) { // conflict: migrated already
		return nil, err
	}
	for _, s := range t.Seats {
		if s.Human() && s.UserID > 0 { // not a person forgotten
			if err := c.store.SetPointer(ctx, store.UserTableKey(s.UserID), newID); err != nil {
				return nil, err
			}
		}
	}
	return &old, nil
}

// moveResults follows a group upgraded to a supergroup: results still
// waiting at the old table (its jobs, or entries an older version queued in
// its outbox) are recorded first, then the results merge the group's
// records into the new chat. Both steps are idempotent, so a migration
// retried after a crash is safe. olds are the old tables (none when gone).
func (c *Migration) moveResults(ctx context.Context, olds []*record.Table, oldID string, oldChat, newChat int64) error {
	var pending []*record.Result
	for _, old := range olds {
		for _, j := range old.Jobs {
			if j.Result != nil {
				pending = append(pending, j.Result)
			}
		}
	}
	envs, err := c.store.Outbox(ctx, oldID, 100)
	if err != nil {
		return err
	}
	for _, e := range envs {
		if _, legacy, err := outbox.Decode(e.Data); err == nil && legacy {
			if r := legacyResult(e.Data); r != nil {
				pending = append(pending, r)
			}
		}
	}
	for _, r := range pending {
		if _, err := c.results.Record(ctx, r); err != nil {
			return err
		}
	}
	return c.results.MoveChat(ctx, oldChat, newChat)
}

// rehomed is table id of chat from as the same table of chat to; an id of
// another chat is kept.
func rehomed(id string, from, to int64) string {
	chat, thread, n, err := record.ParseTable(id)
	if err != nil || chat != from {
		return id
	}
	return record.TableID(to, thread, n)
}
