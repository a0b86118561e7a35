package tables

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// migrate moves a group's table when Telegram upgrades the group to a
// supergroup with a new chat id. The group message is posted anew in the
// new chat; hand messages (in private chats) are kept and redrawn, so
// their buttons carry the new table id. The group's results go with it.
func (c *core) migrate(ctx context.Context, oldChat, newChat int64) error {
	oldID, newID := record.ID(oldChat, 0), record.ID(newChat, 0)
	rec, err := c.store.Load(ctx, oldID)
	if errors.Is(err, store.ErrNotFound) {
		// No table (or moved already): the group's results may still wait.
		return c.moveResults(ctx, nil, oldID, oldChat, newChat)
	}
	if err != nil {
		return err
	}
	t, err := record.Decode(rec.Data)
	if err != nil {
		return err
	}
	old := *t
	t.ID, t.ChatID = newID, newChat
	// Finished games waiting to be recorded are recorded below under the
	// old chat, before its results move: the new table keeps only its
	// other jobs.
	t.Jobs = slices.DeleteFunc(slices.Clone(t.Jobs), func(j record.Job) bool { return j.Result != nil })
	data, err := t.Encode()
	if err != nil {
		return err
	}
	records, err := c.store.Messages(ctx, oldID)
	if err != nil {
		return err
	}
	for v, rec := range records {
		if strings.HasPrefix(v, "hand:") {
			if err := c.store.SetMessage(ctx, newID, v, rec); err != nil {
				return err
			}
		}
	}
	_, err = c.store.Commit(ctx, newID, store.Change{Version: 0, Data: data, Dirty: view.All(t), WakeAt: c.now(), TimerAt: nextDue(t, c.now())})
	if err != nil && !errors.Is(err, store.ErrConflict) { // conflict: migrated already
		return err
	}
	for _, s := range t.Seats {
		if s.Human() {
			if err := c.store.SetPointer(ctx, store.UserTableKey(s.UserID), newID); err != nil {
				return err
			}
		}
	}
	c.log.Info().Int64("from", oldChat).Int64("to", newChat).Msg("table migrated to supergroup")
	c.wake()
	// Results go with the group; before the old table (and any result
	// still waiting there) is deleted.
	if err := c.moveResults(ctx, &old, oldID, oldChat, newChat); err != nil {
		return err
	}
	return c.store.Delete(ctx, oldID)
}

// moveResults follows a group upgraded to a supergroup: results still
// waiting at the old table (its jobs, or entries an older version queued in
// its outbox) are recorded first, then the results merge the group's
// records into the new chat. Both steps are idempotent, so a migration
// retried after a crash is safe. old is the old table (nil when gone).
func (c *core) moveResults(ctx context.Context, old *record.Table, oldID string, oldChat, newChat int64) error {
	var pending []*record.Result
	if old != nil {
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
