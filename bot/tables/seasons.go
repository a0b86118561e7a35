package tables

import (
	"context"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
)

// SeasonTable is chat's own table, as stored (a fresh one when none is).
func (t *Tables) SeasonTable(ctx context.Context, chat int64) (*record.Table, error) {
	tab, _, err := t.tx.Load(ctx, record.ID(chat, 0))
	return tab, err
}

// PostSeason posts a month's recap to chat and keeps s as its Season, in
// one commit; nothing when the table has that month (or a later one)
// already.
func (t *Tables) PostSeason(ctx context.Context, chat int64, s record.Season, msgs []adapter.Message) error {
	_, _, err := t.tx.Transact(ctx, record.ID(chat, 0), 0, func(tab *record.Table, ch *txn.Change) error {
		if tab.Season != nil && tab.Season.Month >= s.Month {
			return refusal.ErrNoChange
		}
		tab.Season = &s
		for _, m := range msgs {
			ch.PostGroup(tab, m)
		}
		return nil
	})
	return refusal.Settle(err)
}
