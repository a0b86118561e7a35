package view

import (
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
)

// TestGroupShowsTheDeal: the group's table shows the deal's commitment
// while the game runs, in every game, and the reveal once the game is
// over, stopped or set aside as broken; a lobby shows neither, and so
// does a game dealt before there were salts.
func TestGroupShowsTheDeal(t *testing.T) {
	r := testRenderer(t, func() time.Time { return testClock })
	l := r.Loc("ru")
	for _, g := range testGames() {
		tab := &record.Table{ID: "-100123", ChatID: -100123, Title: "Друзья", Lang: "ru", Phase: record.PhasePlaying,
			GameNo: 1, GameID: g.ID(), Creator: 1, Seed: 0x1234, Salt: 0xabcdef}
		for i := range 3 {
			tab.Seats = append(tab.Seats, record.Seat{UserID: int64(i + 1), Name: "Игрок"})
		}
		st, err := g.Start(adapter.View(tab))
		if err != nil {
			t.Fatal(err)
		}
		if tab.State, err = st.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
		reveal := deal.Reveal(tab, tab.Salt)
		commit := l.T("review.deal_commit", "Commitment", deal.Commitment(reveal))
		shown := l.T("review.deal_reveal", "Reveal", reveal)

		text := r.Group(tab).Text
		if !strings.HasSuffix(text, "\n\n"+commit) || strings.Contains(text, reveal) {
			t.Errorf("%s while playing: the commitment is not the last line, or the reveal shows:\n%s", g.ID(), text)
		}
		tab.Phase = record.PhaseIdle // over, or stopped: closeTable keeps the state
		text = r.Group(tab).Text
		if !strings.Contains(text, "\n\n"+shown+"\n"+l.T("review.deal_explain")) || strings.Contains(text, commit) {
			t.Errorf("%s over: no reveal at the bottom:\n%s", g.ID(), text)
		}
		tab.State, tab.Event = nil, &record.Event{Key: "event.broken"} // set aside as broken
		if text = r.Group(tab).Text; !strings.Contains(text, shown) {
			t.Errorf("%s broken: no reveal:\n%s", g.ID(), text)
		}
		tab.Salt = 0 // dealt before there were salts
		for _, ph := range []record.Phase{record.PhasePlaying, record.PhaseIdle} {
			tab.Phase = ph
			if text = r.Group(tab).Text; strings.Contains(text, "🔒") || strings.Contains(text, "🔓") {
				t.Errorf("%s without a salt (%s) shows a deal line:\n%s", g.ID(), ph, text)
			}
		}
		tab.Phase, tab.Salt, tab.Seats = record.PhaseLobby, 0xabcdef, tab.Seats[:1]
		if text = r.Group(tab).Text; strings.Contains(text, "🔒") || strings.Contains(text, "🔓") {
			t.Errorf("%s lobby shows a deal line:\n%s", g.ID(), text)
		}
	}
}

// TestRulesEndWithTheDeal: every game's guide has the deal's page last.
func TestRulesEndWithTheDeal(t *testing.T) {
	for _, lang := range []string{"ru", "en"} {
		l := adapter.NewLoc(testCatalog(t), lang)
		for _, g := range testGames() {
			pages := strings.Split(RulesText(l, g, time.Minute), RulesPageBreak)
			if len(pages) < 2 || pages[len(pages)-1] != l.T("review.deal_rules") {
				t.Errorf("%s (%s): the last of %d rules pages is not the deal's", g.ID(), lang, len(pages))
			}
		}
	}
}
