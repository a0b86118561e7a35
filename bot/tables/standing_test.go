package tables

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/play"
	"github.com/trickchef/trickchef/game"
)

// leftGame is a finished game of g for four people, robots of one level
// at seats 2 and 3, where the person at seat 1 left mid-game (a robot
// finished for them).
func leftGame(t *testing.T, g adapter.Game, seed uint64) (*record.Table, game.State, game.State) {
	t.Helper()
	tab, st := golden.Table(t, g, 4, 0, "", seed, nil)
	before := golden.PlayRandom(t, g, tab, st, 100000, seed+1)
	if !st.Over() {
		t.Fatal("the game did not end")
	}
	level := adapter.Levels(g)[0]
	tab.Seats[1] = record.Seat{Name: "Робот 1", AI: level, Leaver: &record.Leaver{UserID: 2, Name: golden.Names[1]}}
	return tab, before, st
}

// TestOneResultList: the group's result, the stored record (and so the
// private results and /history) place everyone alike: those who stayed
// by the engine among themselves, the leaver last and marked; the winner
// announced is first on the list.
func TestOneResultList(t *testing.T) {
	tb := newTables(t, nil, nil)
	for i, g := range testGames() {
		tab, _, st := leftGame(t, g, uint64(60+i))
		list := adapter.FinalList(adapter.View(tab), st.Result(), true)
		if last := list[len(list)-1]; !last.Left || last.User != 2 || last.Place != 4 || last.Score != 0 {
			t.Errorf("%s: the leaver is not last: %+v", g.ID(), list)
		}
		for k := 1; k < len(list); k++ {
			if list[k].Place < list[k-1].Place {
				t.Errorf("%s: the list is not best first: %+v", g.ID(), list)
			}
		}
		placeOf := map[string]int{}
		for _, f := range list {
			placeOf[f.Name] = f.Place
		}
		r := play.ResultOf(tab, g, st, golden.Clock)
		for _, s := range r.Seats {
			if s.Place != placeOf[s.Name] {
				t.Errorf("%s: %s recorded at place %d, listed at %d", g.ID(), s.Name, s.Place, placeOf[s.Name])
			}
			if s.Left != (s.Player == record.PersonPlayer(2)) {
				t.Errorf("%s: %+v marked wrong", g.ID(), s)
			}
		}
		l := tb.views.Loc("ru")
		winner := adapter.WinnerLine(l, tb.views.AdapterView(tab), st.Result())
		if want := l.T("result.winner", "Name", adapter.Mention(tb.views.AdapterView(tab), game.Seat(list[0].Seat))); list[1].Place != 1 && winner != want {
			t.Errorf("%s: %q announced, the list's first is %+v", g.ID(), winner, list[0])
		}
	}
}

// TestGoldenResultWithLeaver pins the texts of a game one person left, in
// every game and language: the group's final announcement, the private
// results and /history, all from one list.
//
// /history is the results' answer: each game's result is recorded through
// the results (in a group of its own, so its history holds only that game)
// and the answer read back, as the tables' jobs do.
func TestGoldenResultWithLeaver(t *testing.T) {
	tb := goldenTables(t)
	ctx := context.Background()
	var sb strings.Builder
	for _, lang := range tb.views.Langs() {
		l := tb.views.Loc(lang)
		for i, g := range testGames() {
			tab, before, st := leftGame(t, g, uint64(60+i))
			tab.Lang = lang
			msgs := g.Announce(l, adapter.View(tab), before, st)
			fmt.Fprintf(&sb, "════ %s: %s, the group's result\n%s\n", lang, g.ID(), golden.Show(msgs[len(msgs)-1]))
			e := play.ResultOf(tab, g, st, golden.Clock)
			for k, s := range e.Seats {
				if _, ok := record.PlayerUser(s.Player); ok && !s.Left {
					fmt.Fprintf(&sb, "════ %s: %s, private result of %s\n%s\n", lang, g.ID(), s.Name, golden.Show(tb.results.PrivateResult(tab, e, k, nil, true)))
				}
			}
			own := *e
			own.Chat = -200000 - int64(i) // the game's own group
			if _, err := tb.results.Record(ctx, &own); err != nil {
				t.Fatal(err)
			}
			history := tb.results.Answer(ctx, &record.Table{ID: record.ID(own.Chat, 0), ChatID: own.Chat, Lang: lang}, &record.Query{Cmd: "history"})
			fmt.Fprintf(&sb, "════ %s: %s, /history\n%s\n", lang, g.ID(), golden.Show(history))
		}
	}
	golden.Check(t, "result_leaver", sb.String())
}
