package bot

import (
	"context"
	"errors"

	"github.com/trickchef/trickchef/bot/record"
)

// markUnreachable notes that the bot cannot write to user at table id (they
// blocked it, or never started it): the table shows ⚠️ and offers the deep
// link (addUnreachable) until they press /start.
func (b *Bot) markUnreachable(ctx context.Context, id string, user int64) error {
	_, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		s := t.SeatOf(user)
		if s < 0 || t.Seats[s].Unreachable {
			return errNoChange
		}
		t.Seats[s].Unreachable = true
		return nil
	})
	if err != nil && !errors.Is(err, errNoChange) {
		return err
	}
	return nil
}
