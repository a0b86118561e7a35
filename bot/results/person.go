package results

import (
	"context"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// What results say to and of one person, wherever they played.

// Played reports whether user has a recorded game of gameID in any chat:
// their first game of it gets first-game tips. A failed read says yes (no
// tips rather than a stalled game).
func (res *Results) Played(ctx context.Context, user int64, gameID string) bool {
	rs := res.store
	if rs == nil {
		return true
	}
	player := record.PersonPlayer(user)
	chats, err := rs.PlayerChats(ctx, player)
	if err != nil {
		return true
	}
	for _, chat := range chats {
		games, err := rs.PlayerGames(ctx, chat, player)
		if err != nil || games[gameID].Games > 0 {
			return true
		}
	}
	return false
}

// PrivateStats answers /stats in private: the user's results summed over
// every group they played in, and their practice games on a line of their
// own.
func (res *Results) PrivateStats(ctx context.Context, l adapter.Loc, user int64, name string) (adapter.Message, error) {
	rs := res.store
	if rs == nil {
		return adapter.Message{Text: l.T("stats.unavailable")}, nil
	}
	player := record.PersonPlayer(user)
	chats, err := rs.PlayerChats(ctx, player)
	if err != nil {
		return adapter.Message{}, err
	}
	sums, practice := map[string]store.PlayerStats{}, map[string]store.PlayerStats{}
	groups := 0
	for _, chat := range chats {
		games, err := rs.PlayerGames(ctx, chat, player)
		if err != nil {
			return adapter.Message{}, err
		}
		if view.PracticeChat(chat) {
			for id, s := range games {
				practice[id] = addStats(practice[id], s)
			}
			continue
		}
		if len(games) > 0 {
			groups++
		}
		for id, s := range games {
			sums[id] = addStats(sums[id], s)
		}
	}
	msg := res.renderStats(l, adapter.Esc(name), true, groups, sums)
	if line := res.practiceLine(l, practice); line != "" {
		if groups == 0 {
			msg.Text = l.T("practice.stats_no_groups", "Name", adapter.Esc(name))
		}
		msg.Text += "\n\n" + line
	}
	return msg, nil
}

// practiceLine is /stats's line for practice games, or "" when none.
func (res *Results) practiceLine(l adapter.Loc, stats map[string]store.PlayerStats) string {
	var parts []string
	for _, id := range res.gameOrder(stats) {
		s := stats[id]
		if s.Games == 0 {
			continue
		}
		parts = append(parts, l.T("practice.stats_game", "Game", res.gameTitle(l, id),
			"Games", l.T("count.games", "Count", s.Games), "Wins", l.T("count.wins", "Count", s.Wins)))
	}
	if len(parts) == 0 {
		return ""
	}
	return l.T("practice.stats", "Games", strings.Join(parts, "; "))
}

// Forget deletes a person's results and ratings everywhere (their name in
// the histories becomes «игрок удалён»), and everything else the store
// keeps of them: their practice table, their private chat's inbox, their
// pointers. Forgetting twice is harmless.
func (res *Results) Forget(ctx context.Context, user int64) error {
	if res.store == nil {
		return nil
	}
	return res.store.ForgetUser(ctx, user)
}

// MoveChat merges a group's results into the supergroup it became, whose
// month then ends as the group's would have (its season came along).
func (res *Results) MoveChat(ctx context.Context, from, to int64) error {
	if res.store == nil {
		return nil
	}
	if err := res.store.MoveChat(ctx, from, to); err != nil {
		return err
	}
	return res.scheduleSeason(ctx, to, res.now())
}
