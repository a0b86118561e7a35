package tables

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
)

// TestGoldenPrivateHistory pins /history in private: a person's kept games,
// newest first — a group's, a practice table's, a game whose group has no
// title — each with its review button, a game of a game that is not
// reviewed left out, and the answer when none is kept (go test
// ./bot/tables -run Golden -update; read it as a player on a phone).
func TestGoldenPrivateHistory(t *testing.T) {
	tb := goldenTables(t)
	// Every game the bot offers, each kept once, the menu's first the
	// longest ago; where each was played, newest first (a game past the
	// fourth a day older each).
	where := []struct {
		ago   time.Duration
		chat  int64
		title string
	}{
		{5 * time.Minute, -100123, "Друзья"},
		{3 * time.Hour, 1, ""},
		{4 * time.Hour, -100123, "Друзья"},
		{50 * time.Hour, -100777, ""},
	}
	gs := testGames()
	gs = append(gs[1:len(gs):len(gs)], gs[0])
	var kept []*record.Table
	for i, g := range gs {
		c := where[min(i, len(where)-1)]
		if extra := i - len(where) + 1; extra > 0 {
			c.ago += time.Duration(extra) * 24 * time.Hour
		}
		tab, st := golden.Table(t, g, 3, 1, "", uint64(41+i), nil)
		golden.PlayRandom(t, g, tab, st, 100000, uint64(3+i))
		data, err := st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		tab.State, tab.ChatID, tab.Title = data, c.chat, c.title
		tab.ID = record.ID(c.chat, 0)
		tab.Started = golden.Clock.Add(-c.ago - time.Hour)
		f := tab.Finished()
		f.Updated = golden.Clock.Add(-c.ago)
		kept = append(kept, f)
	}
	var sb strings.Builder
	for _, lang := range tb.views.Langs() {
		l := tb.views.Loc(lang)
		fmt.Fprintf(&sb, "════ %s: /history in private, four games kept (Чехарда is not reviewed)\n%s\n", lang, golden.Show(tb.reviews.History(l, 1, kept)))
		fmt.Fprintf(&sb, "════ %s: /history in private, nothing kept\n%s\n", lang, golden.Show(tb.reviews.History(l, 1, nil)))
	}
	golden.Check(t, "history_private", sb.String())
}
