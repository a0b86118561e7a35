package tables

import (
	"context"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
)

// The seasons' side of the tables (the logic is bot/results' and
// bot/season's): a group's own table holds its zone, language and thread,
// and the month last recapped (record.Season), which the recap's commit
// sets, so a month is posted once however many replicas try.

// SeasonTable is chat's own table, as stored (a fresh one when none is).
func (t *Tables) SeasonTable(ctx context.Context, chat int64) (*record.Table, error) {
	tab, _, err := t.load(ctx, record.ID(chat, 0))
	return tab, err
}

// PostSeason posts a month's recap to chat and keeps s as its Season, in
// one commit; nothing when the table has that month (or a later one)
// already.
func (t *Tables) PostSeason(ctx context.Context, chat int64, s record.Season, msgs []adapter.Message) error {
	_, _, err := t.transact(ctx, record.ID(chat, 0), 0, func(tab *record.Table, ch *change) error {
		if tab.Season != nil && tab.Season.Month >= s.Month {
			return refusal.ErrNoChange
		}
		tab.Season = &s
		for _, m := range msgs {
			ch.postGroup(tab, m)
		}
		return nil
	})
	return refusal.Settle(err)
}

// privateSeason is /season in private: the person's seasons in every
// group.
func (sd *standing) privateSeason(ctx context.Context, r request, l adapter.Loc) error {
	group := func(chat int64) *record.Table {
		tab, _, err := sd.load(ctx, record.ID(chat, 0))
		if err != nil {
			return nil
		}
		return tab
	}
	msg, err := sd.results.PrivateSeasons(ctx, l, r.msg.From.ID, sd.names.person(r.msg.From), group)
	if err != nil {
		return err
	}
	return sd.reply(ctx, r.updateID, r.msg.Chat.ID, msg)
}
