package tables

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// longNames are the longest names Telegram lets a person have — a
// first_name of 64 characters and a last_name of 64 — of several kinds:
// Cyrillic, wide CJK letters, emoji (two UTF-16 code units each, one of
// them a joined family of several), Latin capitals. The bot cuts every
// name for the table (lobby.Names.Person); what is left is what a
// button that names a player must fit.
func longNames(t *testing.T, tb *Tables) []string {
	t.Helper()
	names := lobby.NewNames(tb.views)
	var out []string
	for _, unit := range []string{"Щ", "國", "😀", "👨‍👩‍👧‍👦", "W"} {
		first := strings.Repeat(unit, 64/len([]rune(unit)))
		u := &models.User{ID: 1, FirstName: first, LastName: first}
		name := names.Person(u)
		if len([]rune(name)) < 30 {
			t.Fatalf("the name of %q… is cut to %q: not the longest the bot keeps", unit, name)
		}
		out = append(out, name)
	}
	return out
}

// checkButtons reports every button of m longer than a button may be.
func checkButtons(t *testing.T, seen map[string]bool, where string, m adapter.Message) int {
	t.Helper()
	n := 0
	for _, row := range m.Keyboard {
		for _, b := range row {
			n++
			if u := adapter.Units(b.Text); u > adapter.MaxButtonUnits && !seen[b.Text] {
				seen[b.Text] = true
				t.Errorf("%s: a button of %d UTF-16 units (at most %d): %q", where, u, adapter.MaxButtonUnits, b.Text)
			}
		}
	}
	return n
}

// TestButtonsFitWithLongestNames: every game, in every language, at every
// number of seats, played to its end by random legal moves between people
// with the longest names the bot keeps; at every step the table's message
// and every seat's hand — and, in a game whose moves take several presses,
// every keyboard those presses open — has no button longer than
// adapter.MaxButtonUnits. A button counts as Telegram counts every length:
// in UTF-16 code units, which is also the safe side for a phone's width
// (an emoji is two units and about two letters wide; 👨‍🍳 is five units
// and one glyph, a cost the texts can afford). The platform's own
// keyboards name no player and are checked on the golden files
// (locales' TestGoldenButtonsFit).
func TestButtonsFitWithLongestNames(t *testing.T) {
	tb := newTables(t, nil, nil)
	names := longNames(t, tb)
	seen := map[string]bool{}
	for _, lang := range tb.views.Langs() {
		for gi, g := range testGames() {
			lo, hi := g.SeatRange()
			buttons := 0
			for n := lo; n <= hi; n++ {
				seed := uint64(100*gi + n)
				tab, st := golden.Table(t, g, n, 0, "", seed, nil)
				tab.Lang = lang
				for i := range tab.Seats {
					tab.Seats[i].Name = names[(i+int(seed))%len(names)]
				}
				rng := rand.New(rand.NewPCG(seed, 7))
				where := func() string { return fmt.Sprintf("%s/%s, %d seats", lang, g.ID(), n) }
				for step := 0; ; step++ {
					buttons += checkButtons(t, seen, where()+", the table", tb.views.Group(tab))
					for i := range tab.Seats {
						buttons += checkDrafts(t, tb, seen, where(), g, tab, st, i, 3)
					}
					if st.Over() || step > 5000 {
						break
					}
					acting := st.ToAct()
					seat := acting[rng.IntN(len(acting))]
					legal := st.Legal(seat)
					if len(legal) == 0 {
						k := slices.IndexFunc(acting, func(s game.Seat) bool { return len(st.Legal(s)) > 0 })
						if k < 0 {
							t.Fatalf("%s: nobody can move", where())
						}
						seat = acting[k]
						legal = st.Legal(seat)
					}
					if err := tb.moves.Apply(tab, &txn.Change{}, g, st, seat, legal[rng.IntN(len(legal))], false); err != nil {
						t.Fatalf("%s: %v", where(), err)
					}
				}
				if !st.Over() {
					t.Errorf("%s: no end after 5000 moves", where())
				}
			}
			if buttons == 0 {
				t.Errorf("%s/%s: no button seen", lang, g.ID())
			}
		}
	}
}

// checkDrafts checks seat's hand and, in a DraftGame, the hands every
// press of a draft button opens, depth presses deep; it returns how many
// buttons it saw.
func checkDrafts(t *testing.T, tb *Tables, seen map[string]bool, where string, g adapter.Game, tab *record.Table, st game.State, seat, depth int) int {
	t.Helper()
	m, err := tb.views.Seat(tab, seat)
	if err != nil {
		t.Fatal(err)
	}
	n := checkButtons(t, seen, fmt.Sprintf("%s, seat %d's hand (draft %v)", where, seat, tab.Seats[seat].Draft), m)
	dg, ok := g.(adapter.DraftGame)
	if !ok || depth == 0 {
		return n
	}
	cur := tab.Seats[seat].Draft
	defer func() { tab.Seats[seat].Draft = cur }()
	for _, row := range m.Keyboard {
		for _, b := range row {
			p, err := adapter.ParseButton(b.Data)
			if err != nil || p.Op != callback.Draft || len(p.Args) < 3 {
				continue
			}
			next, ok := dg.Draft(st, game.Seat(seat), slices.Clone(cur), p.Args[2])
			if !ok {
				continue
			}
			tab.Seats[seat].Draft = next
			n += checkDrafts(t, tb, seen, where, g, tab, st, seat, depth-1)
			tab.Seats[seat].Draft = cur
		}
	}
	return n
}

// TestLobbyButtonsFitEveryChoice: a lobby's buttons say the choice made —
// the robots' level, the time for a move, each option's value, a long
// game's time zone — so every game's lobby is drawn, in every language,
// at every choice of each, and no button is longer than
// adapter.MaxButtonUnits (see TestButtonsFitWithLongestNames).
func TestLobbyButtonsFitEveryChoice(t *testing.T) {
	tb := newTables(t, nil, nil)
	names := longNames(t, tb)
	seen := map[string]bool{}
	for _, lang := range tb.views.Langs() {
		for _, g := range testGames() {
			lo, _ := g.SeatRange()
			tab, _ := golden.Table(t, g, lo, 0, "", 1, nil)
			tab.Lang, tab.Phase, tab.State = lang, record.PhaseLobby, nil
			for i := range tab.Seats {
				tab.Seats[i].Name = names[i]
			}
			where := func(what string) string { return fmt.Sprintf("%s/%s lobby, %s", lang, g.ID(), what) }
			levels := []string{""}
			if rg, ok := g.(adapter.RobotGame); ok {
				levels = append(levels, rg.Levels()...)
			}
			for _, lv := range levels {
				tab.AILevel = lv
				checkButtons(t, seen, where("level "+lv), tb.views.Group(tab))
			}
			for _, d := range view.TurnChoices() {
				tab.TurnTime = d
				checkButtons(t, seen, where("time "+d.String()), tb.views.Group(tab))
				if d >= time.Hour {
					for _, z := range record.Zones() {
						tab.Zone = z.Name
						checkButtons(t, seen, where("zone "+z.Name), tb.views.Group(tab))
					}
					tab.Zone = ""
				}
			}
			tab.TurnTime = 0
			if og, ok := g.(adapter.OptionGame); ok {
				for _, o := range og.Options() {
					for v := range o.Values {
						tab.Options = map[string]int{o.Key: v}
						checkButtons(t, seen, where(fmt.Sprintf("option %s=%d", o.Key, v)), tb.views.Group(tab))
					}
				}
				tab.Options = nil
			}
		}
	}
}
