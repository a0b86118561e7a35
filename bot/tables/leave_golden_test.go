package tables

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/store"
)

// TestGoldenLeaveAndPrivate pins the texts of leaving a game, of the bot
// playing for someone, of the private results and of /history's marks, in
// every language (go test ./bot/... -run Golden -update; read the diff as
// a player would).
//
// /history is the results' answer to a group's query: its games are
// recorded in the tables' store (one group with both, one with only the
// older) and the answer read from there, as the tables' jobs do.
func TestGoldenLeaveAndPrivate(t *testing.T) {
	st := testBolt(t)
	tb := newTables(t, st, clockAt(golden.Clock))
	ctx := context.Background()
	g := testGame(t, "trickchef")
	at := golden.Clock
	hist := []store.Result{{ID: "-100123:7:1", Game: "trickchef", Chat: -100123, Ended: at, Seats: []store.ResultSeat{
		{Player: "u1", Name: "Оля", Place: 1, Score: 19}, {Player: "u2", Name: "Серёжа", Place: 2, Score: 11, Unrated: true},
		{Player: "rshef", Name: "Робот 2", Place: 3, Score: 8}, {Player: "u4", Name: "Дима", Place: 4, Left: true}}},
		{ID: "-100123:6:1", Game: "sausages", Chat: -100123, Ended: at.Add(-time.Hour), Seats: []store.ResultSeat{
			{Player: "u1", Name: "Оля", Place: 1, Score: 2}, {Player: "u4", Name: "Дима", Place: 2, Left: true}}}}
	const onlyLeaver = -100124                                                          // a group whose history is hist[1:]
	for _, r := range []store.Result{hist[1], hist[0], withChat(hist[1], onlyLeaver)} { // oldest first
		if ok, err := st.RecordResult(ctx, r, nil); err != nil || !ok {
			t.Fatalf("record %s in %d: %v, %v", r.ID, r.Chat, ok, err)
		}
	}
	var sb strings.Builder
	for _, lang := range tb.views.Langs() {
		tab, gs := golden.Table(t, g, 4, 1, "novice", 7, nil)
		tab.Lang, tab.AILevel = lang, "shef"
		tab.Seats[1].LeaveAsked = true
		tab.Seats[2].Timeouts = 2
		for seat := 1; seat <= 2; seat++ {
			m, err := tb.views.Seat(tab, seat)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sb, "════ %s: %s (seat %d)\n%s\n", lang, map[int]string{1: "confirm leaving", 2: "the bot plays"}[seat], seat, golden.Show(m))
		}
		ch := &txn.Change{}
		if err := tb.leaving.Leave(tab, ch, g, gs, 0); err != nil {
			t.Fatal(err)
		}
		for _, m := range ch.Outbox {
			fmt.Fprintf(&sb, "════ %s: the group is told\n%s\n", lang, golden.Show(m.Message))
		}
		m, err := tb.views.Seat(tab, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "════ %s: the leaver's message\n%s\n", lang, golden.Show(m))
		for _, seat := range []int{1, 2} {
			tab.Seats[seat].LeaveAsked = false
			if err := tb.leaving.Leave(tab, &txn.Change{}, g, gs, seat); err != nil {
				t.Fatal(err)
			}
		}
		fmt.Fprintf(&sb, "════ %s: everyone left\n%s\n", lang, golden.Show(tb.views.Group(tab)))

		e := &record.Result{ID: "-100123:1:7", Game: "trickchef", GameNo: 1, Players: 5, Seats: []record.ResultSeat{
			{Player: "u1", Name: "Оля", Place: 1, Score: 19}, {Player: "u2", Name: "Серёжа", Place: 2, Score: 12},
			{Player: "u3", Name: "Маша", Place: 2, Score: 12}, {Player: "u4", Name: "Дима", Place: 4, Score: -3, Unrated: true},
			{Player: "u5", Name: "Катя", Place: 5, Left: true}}}
		changes := []record.RatingChange{{Before: 1.23, After: 3.01}, {Before: 0, After: -0.41}, {Before: 2.5, After: 2.52}, {}, {}}
		fmt.Fprintf(&sb, "════ %s: private, first, rating up\n%s\n", lang, golden.Show(tb.results.PrivateResult(tab, e, 0, &changes[0], true)))
		fmt.Fprintf(&sb, "════ %s: private, shared second, rating down\n%s\n", lang, golden.Show(tb.results.PrivateResult(tab, e, 1, &changes[1], true)))
		fmt.Fprintf(&sb, "════ %s: private, rating unchanged\n%s\n", lang, golden.Show(tb.results.PrivateResult(tab, e, 2, &changes[2], true)))
		fmt.Fprintf(&sb, "════ %s: private, unrated\n%s\n", lang, golden.Show(tb.results.PrivateResult(tab, e, 3, &changes[3], true)))
		fmt.Fprintf(&sb, "════ %s: private, the change unknown (recorded before a crash)\n%s\n", lang, golden.Show(tb.results.PrivateResult(tab, e, 0, nil, true)))

		history := func(chat int64) string {
			return golden.Show(tb.results.Answer(ctx, &record.Table{ID: record.ID(chat, 0), ChatID: chat, Lang: lang}, &record.Query{Cmd: "history"}))
		}
		fmt.Fprintf(&sb, "════ %s: history with marks\n%s\n", lang, history(-100123))
		fmt.Fprintf(&sb, "════ %s: history, only a leaver\n%s\n", lang, history(onlyLeaver))
	}
	golden.Check(t, "leave", sb.String())
}

// withChat is result r as recorded in another group.
func withChat(r store.Result, chat int64) store.Result {
	r.Chat = chat
	return r
}
