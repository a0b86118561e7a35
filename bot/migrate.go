package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/store"
)

// migrate moves a group's table when Telegram upgrades the group to a
// supergroup with a new chat id. The group message is posted anew in the
// new chat; hand messages (in private chats) are kept and redrawn, so
// their buttons carry the new table id.
func (b *Bot) migrate(ctx context.Context, oldChat, newChat int64) error {
	oldID, newID := record.ID(oldChat, 0), record.ID(newChat, 0)
	rec, err := b.store.Load(ctx, oldID)
	if errors.Is(err, store.ErrNotFound) {
		// No table (or moved already): the group's results may still wait.
		return b.moveResults(ctx, oldID, oldChat, newChat)
	}
	if err != nil {
		return err
	}
	t, err := record.Decode(rec.Data)
	if err != nil {
		return err
	}
	t.ID, t.ChatID = newID, newChat
	data, err := t.Encode()
	if err != nil {
		return err
	}
	records, err := b.store.Messages(ctx, oldID)
	if err != nil {
		return err
	}
	for view, rec := range records {
		if strings.HasPrefix(view, "hand:") {
			if err := b.store.SetMessage(ctx, newID, view, rec); err != nil {
				return err
			}
		}
	}
	_, err = b.store.Commit(ctx, newID, store.Change{Version: 0, Data: data, Dirty: views(t), WakeAt: b.now()})
	if err != nil && !errors.Is(err, store.ErrConflict) { // conflict: migrated already
		return err
	}
	for _, s := range t.Seats {
		if s.Human() {
			if err := b.store.SetPointer(ctx, store.UserTableKey(s.UserID), newID); err != nil {
				return err
			}
		}
	}
	b.log.Info().Int64("from", oldChat).Int64("to", newChat).Msg("table migrated to supergroup")
	b.poke()
	// Results go with the group; before the old table (and any result
	// still queued in its outbox) is deleted.
	if err := b.moveResults(ctx, oldID, oldChat, newChat); err != nil {
		return err
	}
	return b.store.Delete(ctx, oldID)
}
