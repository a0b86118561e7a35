package chekharda

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// chekhardaScenePositions plays random games (the dealer's moves too) from
// several seeds, with and without the variant, and calls f on positions
// along the way: mid-round, between rounds and at the end.
func chekhardaScenePositions(t *testing.T, f func(tab *record.Table, st *ck.State)) {
	t.Helper()
	g := chekhardaGame{}
	for seed := uint64(1); seed <= 20; seed++ {
		n := 2 + int(seed)%5
		opts := map[string]int{chekhardaOptTarget: 1, chekhardaOptVariant: int(seed % 2)}
		tab, gs := golden.Table(t, g, n, 0, "", seed, opts)
		st := gs.(*ck.State)
		r := rand.New(rand.NewPCG(seed, 77))
		for step := 0; step < 1500 && !st.Over(); {
			k := 1 + r.IntN(20)
			step += k
			golden.PlayWhile(t, g, tab, st, r, func(i int, st game.State) bool { return i < k && !st.Over() })
			f(tab, st)
		}
	}
}

// chekhardaSetNames are a seat's public sets as a scene names them.
func chekhardaSetNames(l adapter.Loc, sets []ck.Set) []string {
	var out []string
	for _, s := range sets {
		out = append(out, chekhardaKindName(l, s.Kind)+" ×"+strconv.Itoa(s.Size))
	}
	return out
}

func chekhardaCardNames(cards []adapter.Card) []string {
	var out []string
	for _, c := range cards {
		switch {
		case c.Back:
			out = append(out, "(back)")
		case c.Note != "":
			out = append(out, c.Name+" "+c.Note)
		default:
			out = append(out, c.Name)
		}
	}
	return out
}

// TestChekhardaSceneNoHiddenCards: a spectator's scene shows the sets and
// the deck's back only (no card of a hand, no mark of who can act, no
// press); a seat's scene adds exactly its own hand and its own turn mark;
// and apart from a seat's own parts every seat sees the spectator's scene.
func TestChekhardaSceneNoHiddenCards(t *testing.T) {
	g := chekhardaGame{}
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	positions := 0
	chekhardaScenePositions(t, func(tab *record.Table, st *ck.State) {
		positions++
		v := st.PublicView()
		spec := g.Scene(l, adapter.View(tab), st, adapter.Spectator)
		check := func(sc adapter.Scene, seat int) {
			t.Helper()
			if len(sc.Seats) != len(v.Seats) {
				t.Fatalf("seat %d: %d seats in the scene, want %d", seat, len(sc.Seats), len(v.Seats))
			}
			for i, sp := range v.Seats {
				if got, want := chekhardaCardNames(sc.Seats[i].Cards), chekhardaSetNames(l, sp.Sets); !slices.Equal(got, want) {
					t.Fatalf("seat %d's scene: seat %d shows %v, has sets %v", seat, i, got, want)
				}
				if sc.Seats[i].Turn && i != seat {
					t.Fatalf("seat %d's scene marks seat %d to act: that tells what its hand holds", seat, i)
				}
			}
			for _, p := range sc.Center {
				for _, c := range p.Cards {
					if !c.Back {
						t.Fatalf("seat %d's scene: %q shows %q face up", seat, p.Label, c.Name)
					}
				}
			}
		}
		check(spec, adapter.Spectator)
		if len(spec.Hand) > 0 || len(spec.Choices) > 0 || spec.Prompt != "" || spec.HandLabel != "" {
			t.Fatalf("a spectator's scene has a hand or buttons: %+v", spec)
		}
		for _, ss := range spec.Seats {
			for _, c := range ss.Cards {
				if c.Act != "" {
					t.Fatalf("a spectator's scene has a press: %+v", c)
				}
			}
		}
		for s := range tab.Seats {
			sc := g.Scene(l, adapter.View(tab), st, s)
			check(sc, s)
			var want []string
			for _, k := range st.SeatView(game.Seat(s)).Hand {
				want = append(want, chekhardaKindName(l, k))
			}
			if got := chekhardaCardNames(sc.Hand); !slices.Equal(got, want) {
				t.Fatalf("seat %d's hand shows %v, holds %v", s, got, want)
			}
			// Strip the seat's own parts: what is left is the spectator's.
			sc.Hand, sc.HandLabel, sc.Choices, sc.Prompt = nil, "", nil, ""
			sc.Seats = slices.Clone(sc.Seats)
			for i := range sc.Seats {
				sc.Seats[i].Cards = slices.Clone(sc.Seats[i].Cards)
				for j := range sc.Seats[i].Cards {
					sc.Seats[i].Cards[j].Act = ""
				}
			}
			sc.Seats[s].Turn = false
			sc.Center = slices.Clone(sc.Center)
			for i := range sc.Center {
				sc.Center[i].Cards = slices.Clone(sc.Center[i].Cards)
				for j := range sc.Center[i].Cards {
					sc.Center[i].Cards[j].Act = ""
				}
			}
			// A seat's log shows more kinds of public events than the group's.
			sc.Log = nil
			pub := spec
			pub.Log = nil
			a, _ := json.Marshal(sc)
			b, _ := json.Marshal(pub)
			if string(a) != string(b) {
				t.Fatalf("seat %d's scene differs from the spectator's beyond its own parts:\n%s\n%s", s, a, b)
			}
		}
	})
	if positions < 100 {
		t.Fatalf("only %d positions", positions)
	}
}

// TestChekhardaSceneActs: every press in a seat's scene is that seat's
// button and a legal move now; a card with no move is dim and makes none;
// every legal move has its choice.
func TestChekhardaSceneActs(t *testing.T) {
	g := chekhardaGame{}
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	presses := 0
	chekhardaScenePositions(t, func(tab *record.Table, st *ck.State) {
		for s := range tab.Seats {
			sc := g.Scene(l, adapter.View(tab), st, s)
			var acts []string
			for _, c := range sc.Hand {
				if c.Dim && c.Act != "" {
					t.Fatalf("seat %d: dim card %q makes a press", s, c.Name)
				}
				acts = append(acts, c.Act)
			}
			for _, ss := range sc.Seats {
				for _, c := range ss.Cards {
					acts = append(acts, c.Act)
				}
			}
			for _, p := range sc.Center {
				for _, c := range p.Cards {
					acts = append(acts, c.Act)
				}
			}
			var choices []game.Action
			for _, c := range sc.Choices {
				acts = append(acts, c.Act)
			}
			for _, data := range acts {
				if data == "" {
					continue
				}
				presses++
				b, err := adapter.ParseButton(data)
				if err != nil {
					t.Fatal(err)
				}
				if b.Op != callback.Action || b.Table != tab.ID || b.GameNo != tab.GameNo || b.Args[0] != s || b.Args[1] != tab.Seats[s].Nonce {
					t.Fatalf("%q is not seat %d's action button", data, s)
				}
				if err := st.Clone().Apply(game.Seat(s), game.Action(b.Args[2])); err != nil {
					t.Fatalf("seat %d: press %q refused: %v", s, data, err)
				}
			}
			for _, c := range sc.Choices {
				b, _ := adapter.ParseButton(c.Act)
				choices = append(choices, game.Action(b.Args[2]))
			}
			if legal := st.Legal(game.Seat(s)); tab.Phase == record.PhasePlaying && !slices.Equal(choices, legal) {
				t.Fatalf("seat %d: choices %v, legal %v", s, choices, legal)
			}
		}
	})
	if presses == 0 {
		t.Fatal("no press was checked")
	}
}

// sceneJSON is a titled scene as indented JSON, one after another.
func sceneJSON(t *testing.T, title string, sc adapter.Scene) string {
	return "════ " + title + "\n" + golden.SceneJSON(t, sc) + "\n"
}

func TestGoldenChekhardaScene(t *testing.T) {
	g := chekhardaGame{}
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	var sb strings.Builder
	{
		tab, st := golden.Table(t, g, 4, 1, "cook", 41, nil)
		sb.WriteString(sceneJSON(t, "start: spectator", g.Scene(l, adapter.View(tab), st, adapter.Spectator)))
		sb.WriteString(sceneJSON(t, "start: Оля (seat 0)", g.Scene(l, adapter.View(tab), st, 0)))
	}
	{
		// Deep in a round: sets everywhere, steals and adds to press.
		tab, st := golden.Table(t, g, 6, 1, "cook", 42, map[string]int{chekhardaOptTarget: 1, chekhardaOptPause: 1})
		chekhardaUntil(t, g, tab, st, 5, func(s *ck.State) bool {
			return s.Phase() == ck.PhasePlay && stealsThisRound(s) >= 4 && s.Seats() == 6 && len(s.Legal(0)) >= 3
		})
		sb.WriteString(sceneJSON(t, "mid: spectator", g.Scene(l, adapter.View(tab), st, adapter.Spectator)))
		sb.WriteString(sceneJSON(t, "mid: Оля (seat 0)", g.Scene(l, adapter.View(tab), st, 0)))
	}
	{
		// «Хотите большего?»: nothing to press but the deck.
		tab, st := golden.Table(t, g, 3, 0, "", 45, map[string]int{chekhardaOptVariant: 1})
		chekhardaUntil(t, g, tab, st, 8, func(s *ck.State) bool {
			return s.Phase() == ck.PhasePlay && slices.Contains(s.Legal(0), ck.DrawAction())
		})
		sb.WriteString(sceneJSON(t, "variant, nothing but the deck: Оля (seat 0)", g.Scene(l, adapter.View(tab), st, 0)))
	}
	{
		tab, st := golden.Table(t, g, 3, 0, "", 43, map[string]int{chekhardaOptTarget: 1})
		chekhardaUntil(t, g, tab, st, 6, func(s *ck.State) bool { return s.Phase() == ck.PhaseRoundEnd })
		sb.WriteString(sceneJSON(t, "round over: Оля (seat 0)", g.Scene(l, adapter.View(tab), st, 0)))
	}
	{
		tab, st := golden.Table(t, g, 3, 0, "", 44, map[string]int{chekhardaOptTarget: 1})
		chekhardaUntil(t, g, tab, st, 7, func(s *ck.State) bool { return s.Over() })
		sb.WriteString(sceneJSON(t, "over: spectator", g.Scene(l, adapter.View(tab), st, adapter.Spectator)))
	}
	golden.Check(t, "chekharda_scene", sb.String())
}

// TestChekhardaIsWebGame: the platform finds the capability on the game it
// is handed.
func TestChekhardaIsWebGame(t *testing.T) {
	if _, ok := Game().(adapter.WebGame); !ok {
		t.Fatal("Чехарда is not a adapter.WebGame")
	}
}

// TestOpenScene: the replay shows every seat's sets and its hand face up,
// and nothing to press.
func TestOpenScene(t *testing.T) {
	reviewtest.GoldenOpenScene(t, Game(), 30, func(st *ck.State, seat int) int {
		sp := st.PublicView().Seats[seat]
		return len(sp.Sets) + sp.Hand
	})
}
