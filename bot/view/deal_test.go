package view

import (
	"runtime/debug"
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
		tab := playingTable(t, g)
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

// TestGroupShowsTheDealV2: a v2 deal's commitment, 32 hex digits, shows
// from the lobby on, the same while the game runs; the reveal once it is
// over; a lobby cancelled before the deal shows neither.
func TestGroupShowsTheDealV2(t *testing.T) {
	r := testRenderer(t, func() time.Time { return testClock })
	l := r.Loc("ru")
	g := testGames()[0]
	tab := &record.Table{ID: "-100123", ChatID: -100123, Title: "Друзья", Lang: "ru", Phase: record.PhaseLobby,
		GameNo: 1, GameID: g.ID(), Creator: 1, Secret: "00112233445566778899aabbccddeeff"}
	for i := range 3 {
		tab.Seats = append(tab.Seats, record.Seat{UserID: int64(i + 1), Name: "Игрок"})
	}
	reveal := deal.TableReveal(tab)
	c := deal.Commitment(reveal)
	commit := l.T("review.deal_commit", "Commitment", c)
	if len(c) != 32 {
		t.Fatalf("commitment %q", c)
	}
	if text := r.Group(tab).Text; !strings.HasSuffix(text, "\n\n"+commit) || strings.Contains(text, reveal) {
		t.Fatalf("the lobby does not end with the commitment:\n%s", text)
	}
	tab.Phase, tab.Event = record.PhaseIdle, &record.Event{Key: "event.cancelled"}
	if text := r.Group(tab).Text; strings.Contains(text, "🔒") || strings.Contains(text, "🔓") {
		t.Fatalf("a cancelled lobby shows a deal line:\n%s", text)
	}
	tab.Phase, tab.Event, tab.Drawn = record.PhasePlaying, nil, []string{"1", "", "", "2"}
	seeds, err := deal.Derive(reveal, deal.InputsOf(tab))
	if err != nil {
		t.Fatal(err)
	}
	tab.Seed, tab.RobotSeed = seeds.Deal, seeds.Robots
	st, err := g.Start(adapter.View(tab))
	if err != nil {
		t.Fatal(err)
	}
	tab.State, _ = st.MarshalBinary()
	if text := r.Group(tab).Text; !strings.HasSuffix(text, "\n\n"+commit) || strings.Contains(text, reveal) {
		t.Fatalf("the game does not end with the lobby's commitment:\n%s", text)
	}
	tab.Phase = record.PhaseIdle
	if text := r.Group(tab).Text; !strings.Contains(text, l.T("review.deal_reveal", "Reveal", reveal)) || !deal.Check(reveal, c) {
		t.Fatalf("no reveal at the end:\n%s", text)
	}
}

// TestRulesEndWithTheDeal: every game's guide has the deal's page last,
// naming the repository and the version that deals.
func TestRulesEndWithTheDeal(t *testing.T) {
	for _, lang := range []string{"ru", "en"} {
		l := adapter.NewLoc(testCatalog(t), lang)
		for _, g := range testGames() {
			pages := strings.Split(RulesText(l, g, time.Minute, true), RulesPageBreak)
			last := pages[len(pages)-1]
			if len(pages) < 2 || last != l.T("review.deal_rules", "Repo", Repository, "Version", dealVersion(l, readBuildInfo)) || !strings.Contains(last, Repository) {
				t.Errorf("%s (%s): the last of %d rules pages is not the deal's", g.ID(), lang, len(pages))
			}
			for _, jargon := range []string{"зерно", "соль", "salt", "seed", "go run", "aibench", "{{"} {
				if strings.Contains(last, jargon) {
					t.Errorf("%s (%s): the deal's page says %q", g.ID(), lang, jargon)
				}
			}
		}
	}
}

// The version that deals: a tag, else the commit (+ when built with
// changes), else a plain word that the build did not record it.
func TestDealVersion(t *testing.T) {
	l := adapter.NewLoc(testCatalog(t), "ru")
	info := func(version string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "github.com/trickchef/trickchef", Version: version}, Settings: settings}, true
		}
	}
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "d4b6a89c0ffee0123456789abcdef0123456789a"}
	for _, c := range []struct {
		info func() (*debug.BuildInfo, bool)
		want string
	}{
		{info("v1.4.0"), "версия <code>v1.4.0</code>"},
		{info("(devel)", rev), "версия <code>d4b6a89c0ffe</code>"},
		{info("(devel)", rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "версия <code>d4b6a89c0ffe+</code>"},
		{info("(devel)"), l.T("review.deal_version_unknown")},
		{func() (*debug.BuildInfo, bool) { return nil, false }, l.T("review.deal_version_unknown")},
	} {
		if got := dealVersion(l, c.info); got != c.want {
			t.Errorf("version %q, want %q", got, c.want)
		}
	}
}
