package chef

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// chefScenePositions plays random games from several seeds and calls f
// on positions along the way, the seat to act sometimes in the middle of
// a choice of dish.
func chefScenePositions(t *testing.T, f func(tab *record.Table, st *ce.State)) {
	t.Helper()
	g := chefGame{}
	for seed := uint64(1); seed <= 12; seed++ {
		n := 2 + int(seed)%7
		tab, gs := golden.Table(t, g, n, 0, "", seed, nil)
		st := gs.(*ce.State)
		r := rand.New(rand.NewPCG(seed, 99))
		for step := 0; step < 400 && !st.Over(); {
			k := 1 + r.IntN(25)
			step += k
			golden.PlayWhile(t, g, tab, st, r, func(i int, st game.State) bool { return i < k && !st.Over() })
			if st.Over() {
				break
			}
			// Open a random flow for the seat to act, as its presses would.
			s := int(st.ToAct()[0])
			tab.Seats[s].Draft = nil
			for range 2 {
				d, ok := g.Draft(st, game.Seat(s), tab.Seats[s].Draft, chefFlowCard+int(ce.Hangover))
				if r.IntN(2) == 0 {
					d, ok = g.Draft(st, game.Seat(s), tab.Seats[s].Draft, []int{chefFlowDiscard, chefFlowCard + int(ce.Diet), chefFlowCard + int(ce.ChefCard), 1 + r.IntN(6)}[r.IntN(4)])
				}
				if ok {
					tab.Seats[s].Draft = d
				}
			}
			f(tab, st)
		}
		f(tab, st)
	}
}

func chefNames(cards []adapter.Card) []string {
	var out []string
	for _, c := range cards {
		if c.Back {
			out = append(out, "(back)")
		} else {
			out = append(out, c.Name)
		}
	}
	slices.Sort(out)
	return out
}

// TestChefSceneNoHiddenCards: every card a scene shows face up is public
// (a seat's cards in front of it, the discard's top, the dishes out of the
// game); the pile shows only its back; only a seat's own scene has a hand
// and buttons, and its hand is its own cards.
func TestChefSceneNoHiddenCards(t *testing.T) {
	g := chefGame{}
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	positions := 0
	chefScenePositions(t, func(tab *record.Table, st *ce.State) {
		positions++
		v := st.PublicView()
		check := func(sc adapter.Scene, seat int) {
			t.Helper()
			if len(sc.Seats) != len(v.Seats) {
				t.Fatalf("seat %d: %d seats in the scene, want %d", seat, len(sc.Seats), len(v.Seats))
			}
			for i, sp := range v.Seats {
				if got, want := chefNames(sc.Seats[i].Cards), chefNames(chefCards(l, sp.Cards)); !slices.Equal(got, want) {
					t.Fatalf("seat %d's scene: seat %d shows %v, has %v in front", seat, i, got, want)
				}
			}
			public := chefNames(chefCards(l, v.Removed))
			if v.DiscardTop != ce.NoCard {
				public = append(public, chefCardName(l, v.DiscardTop))
			}
			for _, p := range sc.Center {
				for _, c := range p.Cards {
					if !c.Back && !slices.Contains(public, c.Name) {
						t.Fatalf("seat %d's scene: %q shows %q, which is not public (%v)", seat, p.Label, c.Name, public)
					}
				}
			}
			if seat == adapter.Spectator {
				if len(sc.Hand) > 0 || len(sc.Choices) > 0 || sc.Prompt != "" || sc.HandLabel != "" {
					t.Fatalf("a spectator's scene has a hand or buttons: %+v", sc)
				}
				return
			}
			if got, want := chefNames(sc.Hand), chefNames(chefCards(l, v.Seats[seat].Cards)); !slices.Equal(got, want) {
				t.Fatalf("seat %d's hand shows %v, has %v", seat, got, want)
			}
		}
		check(g.Scene(l, adapter.View(tab), st, adapter.Spectator), adapter.Spectator)
		for s := range tab.Seats {
			check(g.Scene(l, adapter.View(tab), st, s), s)
		}
	})
	if positions < 50 {
		t.Fatalf("only %d positions", positions)
	}
}

// TestChefSceneActs: every press a seat's scene offers is that seat's
// button; the legal ones are accepted (a draft step by Draft, a move by
// the engine), and a dim card's move is refused with a rule code.
func TestChefSceneActs(t *testing.T) {
	g := chefGame{}
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	dims := 0
	chefScenePositions(t, func(tab *record.Table, st *ce.State) {
		for s := range tab.Seats {
			sc := g.Scene(l, adapter.View(tab), st, s)
			type press struct {
				what, data string
				dim        bool
			}
			var presses []press
			for _, c := range sc.Hand {
				if c.Act != "" {
					presses = append(presses, press{"card " + c.Name, c.Act, c.Dim})
				}
			}
			for _, c := range sc.Choices {
				presses = append(presses, press{"choice " + c.Text, c.Act, false})
			}
			for _, p := range sc.Center {
				for _, c := range p.Cards {
					if c.Act != "" {
						presses = append(presses, press{"centre " + c.Name, c.Act, c.Dim})
					}
				}
			}
			for _, ss := range sc.Seats {
				for _, c := range ss.Cards {
					if c.Act != "" {
						t.Fatalf("a card in front of %s makes a press: %+v", ss.Name, c)
					}
				}
			}
			if len(presses) > 0 && !slices.Contains(st.ToAct(), game.Seat(s)) {
				t.Fatalf("seat %d, not to act, has presses: %+v", s, presses)
			}
			for _, p := range presses {
				b, err := adapter.ParseButton(p.data)
				if err != nil {
					t.Fatalf("%s: %v", p.what, err)
				}
				if b.Table != tab.ID || b.GameNo != tab.GameNo || b.Args[0] != s || b.Args[1] != tab.Seats[s].Nonce {
					t.Fatalf("%s is not seat %d's button: %+v", p.what, s, b)
				}
				switch b.Op {
				case 'm':
					if _, ok := g.Draft(st, game.Seat(s), tab.Seats[s].Draft, b.Args[2]); !ok || p.dim {
						t.Fatalf("%s: draft step %d refused (or dim)", p.what, b.Args[2])
					}
				case 'a':
					err := st.Clone().Apply(game.Seat(s), game.Action(b.Args[2]))
					var re *game.RuleError
					switch {
					case p.dim && !errors.As(err, &re):
						t.Fatalf("%s is dim, but the engine says %v", p.what, err)
					case p.dim && (re.Code == game.CodeUnknownAction || re.Code == game.CodeNotYourTurn):
						t.Fatalf("%s is dim, and the engine's reason says nothing: %v", p.what, err)
					case p.dim:
						dims++
					case err != nil:
						t.Fatalf("%s: the engine refuses a legal press: %v", p.what, err)
					}
				default:
					t.Fatalf("%s: op %c", p.what, b.Op)
				}
			}
		}
	})
	if dims == 0 {
		t.Fatal("no dim card was pressed")
	}
}

// sceneJSON is a titled scene as indented JSON, one after another.
func sceneJSON(t *testing.T, title string, sc adapter.Scene) string {
	return "════ " + title + "\n" + golden.SceneJSON(t, sc) + "\n"
}

func TestGoldenChefScene(t *testing.T) {
	g := chefGame{}
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	var sb strings.Builder
	{
		tab, st := golden.Table(t, g, 4, 1, "cook", 31, nil)
		sb.WriteString(sceneJSON(t, "start: spectator", g.Scene(l, adapter.View(tab), st, adapter.Spectator)))
		s := int(st.ToAct()[0])
		sb.WriteString(sceneJSON(t, fmt.Sprintf("start: seat %d (to act)", s), g.Scene(l, adapter.View(tab), st, s)))
	}
	{
		// The golden «mid» position: Оля has chosen Похмелье's first dish.
		tab, st := chefDeal(t, 8, nil,
			"0:orpgHH 1:orppgbn 2:orpgbn 3:ooC 4:rgbD 5:pnE 6:orgbn 7:- discard:b pile:goHbr turn:5",
			"play:E", "draw", "end", "play:H:pn", "announce", "draw", "discard:o", "play:C:r",
			"draw", "play:H:pn", "draw", "discard:b", "draw", "end")
		tab.Seats[0].Draft = []int{chefFlowCard + int(ce.Hangover), int(ce.Sauce)}
		sb.WriteString(sceneJSON(t, "mid, Похмелье half chosen: Оля (seat 0)", g.Scene(l, adapter.View(tab), st, 0)))
		sb.WriteString(sceneJSON(t, "mid: Маша (seat 2, waiting)", g.Scene(l, adapter.View(tab), st, 2)))
	}
	{
		// Drawn: only the drawn card plays, the others are dim.
		tab, st := chefDeal(t, 3, nil, "0:ooD 1:org 2:o discard:n pile:D", "draw")
		sb.WriteString(sceneJSON(t, "drawn Диета: Оля (seat 0)", g.Scene(l, adapter.View(tab), st, 0)))
	}
	{
		tab, st := golden.Table(t, g, 5, 0, "", 33, nil)
		playChefRobots(t, tab, st.(*ce.State), 3)
		sb.WriteString(sceneJSON(t, "over: spectator", g.Scene(l, adapter.View(tab), st, adapter.Spectator)))
		sb.WriteString(sceneJSON(t, "over: seat 1", g.Scene(l, adapter.View(tab), st, 1)))
	}
	golden.Check(t, "chef_scene", sb.String())
}

// TestChefButtonNames: a name on a button is plain text (buttons are not
// HTML), in the chat and on the web table alike.
func TestChefButtonNames(t *testing.T) {
	g := chefGame{}
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	tab, st := chefDeal(t, 3, nil, "0:oH 1:org 2:o discard:n pile:b")
	tab.Seats[1].Name = "Том & Джерри"
	var texts []string
	for _, row := range g.RenderSeat(l, adapter.View(tab), st, 0).Keyboard {
		for _, b := range row {
			texts = append(texts, b.Text)
		}
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "Том & Джерри") || strings.Contains(all, "&amp;") {
		t.Fatalf("buttons: %q", texts)
	}
	sc := g.Scene(l, adapter.View(tab), st, 0)
	if sc.Seats[1].Name != "Том & Джерри" || !strings.Contains(sc.Status, "Том & Джерри") {
		t.Fatalf("scene: %q, %q", sc.Seats[1].Name, sc.Status)
	}
}

// TestChefIsWebGame: the platform finds the capability on the game it is
// handed.
func TestChefIsWebGame(t *testing.T) {
	if _, ok := Game().(adapter.WebGame); !ok {
		t.Fatal("Меню шефа is not a adapter.WebGame")
	}
}

// TestOpenScene: everything in front of a seat is public already, so the
// replay shows every seat's cards as the table does, and the pile's next
// card face up; nothing to press.
func TestOpenScene(t *testing.T) {
	reviewtest.GoldenOpenScene(t, Game(), 30, func(st *ce.State, seat int) int {
		n := 0
		for _, c := range st.PublicView().Seats[seat].Cards {
			n += c
		}
		return n
	})
}

// The replay turns the pile's next card face up.
func TestOpenScenePile(t *testing.T) {
	tab, st := golden.Table(t, Game(), 3, 0, "", 5, nil)
	golden.Sync(t, tab, st)
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	sc := Game().(adapter.ReplayGame).OpenScene(l, adapter.View(tab), st)
	for _, p := range sc.Center {
		for _, c := range p.Cards {
			if c.Back {
				t.Fatalf("a card face down in the replay: %+v", p)
			}
		}
	}
	next := st.(*ce.State).Pile()[0]
	name := l.T("chef.card." + next.Key())
	if next.IsDish() {
		name = l.T("chef.dish." + next.Key())
	}
	if len(sc.Center) == 0 || len(sc.Center[0].Cards) != 1 || sc.Center[0].Cards[0].Name != name {
		t.Fatalf("the pile's next card, %s, not shown: %+v", name, sc.Center)
	}
}
