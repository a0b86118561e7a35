package sausages_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/bot/sausages"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// ru is the Russian catalog, loaded once per test (loading it is slow).
func ru(t *testing.T) adapter.Loc { return adapter.NewLoc(bottest.Catalog(t), "ru") }

func scene(l adapter.Loc, tab *record.Table, st game.State, seat int) adapter.Scene {
	return sausages.Game().(adapter.WebGame).Scene(l, adapter.View(tab), st, seat)
}

func sceneJSON(t *testing.T, sc adapter.Scene) string { return golden.SceneJSON(t, sc) }

// withoutPrivate is a seat's scene less what only the seat sees: its
// hand, buttons, own stack and the card it lost.
func withoutPrivate(l adapter.Loc, sc adapter.Scene) adapter.Scene {
	sc.Hand, sc.HandLabel, sc.Prompt, sc.Choices = nil, "", "", nil
	mine := adapter.PlainText(l.T("sausages.web.my_stack"))
	sc.Center = slices.DeleteFunc(slices.Clone(sc.Center), func(p adapter.Pile) bool { return p.Label == mine })
	lost := []string{
		adapter.PlainText(l.T("sausages.hand_lost", "Card", "🌭")),
		adapter.PlainText(l.T("sausages.hand_lost", "Card", "🥾")),
	}
	sc.Info = slices.DeleteFunc(slices.Clone(sc.Info), func(s string) bool { return slices.Contains(lost, s) })
	if len(sc.Center) == 0 {
		sc.Center = nil
	}
	return sc
}

// kind reads a drawn card back.
func kind(t *testing.T, c adapter.Card) ss.Card {
	t.Helper()
	switch {
	case c.Back:
		return ss.NoCard
	case c.Face == "🌭":
		return ss.Sausage
	case c.Face == "🥾":
		return ss.Boot
	}
	t.Fatalf("unknown card %+v", c)
	return ss.NoCard
}

// checkPublic checks what a scene shows of the seats against the public
// view: each stack face down but for the cards the attempt turned, which
// show as they were turned; a spectator gets no hand and no buttons.
func checkPublic(t *testing.T, v ss.Public, sc adapter.Scene, spectator bool) {
	t.Helper()
	if spectator && (len(sc.Hand) > 0 || len(sc.Choices) > 0 || sc.Prompt != "" || sc.HandLabel != "") {
		t.Fatalf("a spectator's scene has a hand or choices: %s", sceneJSON(t, sc))
	}
	if len(sc.Seats) != v.Players {
		t.Fatalf("%d seats drawn for %d players", len(sc.Seats), v.Players)
	}
	for i, s := range sc.Seats {
		sp := v.Seats[i]
		var turned []ss.Card
		for _, r := range v.Revealed {
			if r.Seat == game.Seat(i) {
				turned = append(turned, r.Card)
			}
		}
		slices.Reverse(turned)
		var backs int
		var shown []ss.Card
		for _, c := range s.Cards {
			if k := kind(t, c); k == ss.NoCard {
				backs++
			} else {
				shown = append(shown, k)
			}
		}
		if backs != sp.Stack-sp.Revealed || !slices.Equal(shown, turned) {
			t.Fatalf("seat %d: drawn %d face down and %v face up; the table shows %d and %v: %s",
				i, backs, shown, sp.Stack-sp.Revealed, turned, sceneJSON(t, sc))
		}
	}
}

// checkActs presses (on a copy of the state) every card and choice of a
// seat's scene: each is the seat's button and is accepted, and every legal
// move is offered.
func checkActs(t *testing.T, tab *record.Table, st game.State, seat int, sc adapter.Scene) {
	t.Helper()
	var acts []string
	for _, c := range sc.Hand {
		if c.Dim {
			t.Fatalf("seat %d: a dim card, but the chat offers only legal moves", seat)
		}
		if c.Act != "" {
			acts = append(acts, c.Act)
		}
	}
	for _, p := range sc.Center {
		for _, c := range p.Cards {
			if c.Act != "" {
				t.Fatalf("seat %d: a pressable card in the middle: %+v", seat, c)
			}
		}
	}
	for _, c := range sc.Choices {
		acts = append(acts, c.Act)
	}
	offered := map[game.Action]bool{}
	for _, a := range acts {
		b, err := adapter.ParseButton(a)
		if err != nil {
			t.Fatalf("seat %d: %q: %v", seat, a, err)
		}
		if b.Op != callback.Action || b.Table != tab.ID || b.GameNo != tab.GameNo || b.Args[0] != seat || b.Args[1] != tab.Seats[seat].Nonce {
			t.Fatalf("seat %d: %q is not this seat's action button", seat, a)
		}
		act := game.Action(b.Args[2])
		if err := clone(t, st).Apply(game.Seat(seat), act); err != nil {
			t.Fatalf("seat %d: %q refused: %v", seat, a, err)
		}
		offered[act] = true
	}
	if tab.Phase != record.PhasePlaying {
		return
	}
	for _, a := range st.Legal(game.Seat(seat)) {
		if !offered[a] {
			m, _ := ss.Decode(a)
			t.Fatalf("seat %d: legal %v is not offered: %s", seat, m, sceneJSON(t, sc))
		}
	}
}

func clone(t *testing.T, st game.State) game.State {
	t.Helper()
	data, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	c, err := sausages.Game().Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// other is the move a seat could make instead of a: the other kind of
// card placed or lost, which looks the same to everyone else.
func other(st game.State, seat game.Seat, a game.Action) game.Action {
	m, _ := ss.Decode(a)
	swap := map[ss.Card]ss.Card{ss.Sausage: ss.Boot, ss.Boot: ss.Sausage}
	var b game.Action
	switch m.Kind {
	case ss.KindPlace:
		b = ss.PlaceAction(swap[m.Card])
	case ss.KindLose:
		b = ss.LoseAction(swap[m.Card])
	default:
		return a
	}
	if slices.Contains(st.Legal(seat), b) {
		return b
	}
	return a
}

// TestSceneHidesAndPresses plays pairs of random games that differ only in
// hidden choices (a boot placed where the other game placed a sausage):
// while the two look the same to the table, the spectator's scenes must be
// the same, and so must a seat's wherever the seat's own view is. Along
// the way every scene's stacks are checked against the public view, and
// every press of a seat's scene is tried.
func TestSceneHidesAndPresses(t *testing.T) {
	g, l := sausages.Game(), ru(t)
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	differed := 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		n := 3 + int(seed%4)
		tab, a := golden.Table(t, g, n, 0, "", seed, nil)
		b := clone(t, a)
		r := rand.New(rand.NewPCG(seed, 3))
		for same := true; !a.Over(); {
			pa, pb := a.(*ss.State).PublicView(), b.(*ss.State).PublicView()
			same = same && reflect.DeepEqual(pa, pb)
			spec := scene(l, tab, a, adapter.Spectator)
			checkPublic(t, pa, spec, true)
			if same {
				if x, y := sceneJSON(t, spec), sceneJSON(t, scene(l, tab, b, adapter.Spectator)); x != y {
					t.Fatalf("seed %d: the spectators of two games that look the same see different scenes:\n%s\n%s", seed, x, y)
				}
			}
			for s := 0; s < n; s++ {
				sc := scene(l, tab, a, s)
				checkPublic(t, pa, sc, false)
				if got, want := sceneJSON(t, withoutPrivate(l, sc)), sceneJSON(t, spec); got != want {
					t.Fatalf("seed %d: seat %d's scene differs from the spectator's outside what it alone knows:\n%s\nspectator:\n%s", seed, s, got, want)
				}
				checkActs(t, tab, a, s, sc)
				va, vb := a.(*ss.State).SeatView(game.Seat(s)), b.(*ss.State).SeatView(game.Seat(s))
				if !same {
					continue
				}
				if reflect.DeepEqual(va, vb) {
					if x, y := sceneJSON(t, sc), sceneJSON(t, scene(l, tab, b, s)); x != y {
						t.Fatalf("seed %d: seat %d sees the same in two games but gets different scenes:\n%s\n%s", seed, s, x, y)
					}
				} else {
					differed++
				}
			}
			// One move by a random seat to act, the other game's twin
			// making the other choice where it can.
			act := a.ToAct()
			seat := act[r.IntN(len(act))]
			legal := a.Legal(seat)
			move := legal[r.IntN(len(legal))]
			twin := move
			if r.IntN(2) == 0 && same {
				twin = other(b, seat, move)
			}
			if err := a.Apply(seat, move); err != nil {
				t.Fatal(err)
			}
			if same && b.Apply(seat, twin) != nil {
				same = false
			}
			tab.Seats[seat].Nonce++
			golden.Sync(t, tab, a)
		}
		checkPublic(t, a.(*ss.State).PublicView(), scene(l, tab, a, adapter.Spectator), true)
	}
	if differed < 50 {
		t.Fatalf("only %d positions where the twin games differed in hidden cards", differed)
	}
}

// renderScenes is every viewer's ru scene of a table as indented JSON.
func renderScenes(t *testing.T, l adapter.Loc, tab *record.Table, st game.State) string {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "════ spectator\n%s\n", sceneJSON(t, scene(l, tab, st, adapter.Spectator)))
	for i, s := range tab.Seats {
		fmt.Fprintf(&sb, "──── %s (seat %d)\n%s\n", s.Name, i, sceneJSON(t, scene(l, tab, st, i)))
	}
	return sb.String()
}

func TestGoldenSausagesScene(t *testing.T) {
	g, l := sausages.Game(), ru(t)
	t.Run("setup", func(t *testing.T) {
		tab, st := golden.Table(t, g, 4, 1, "sly", 21, nil)
		golden.PlayRandom(t, g, tab, st, 2, 1)
		golden.Check(t, "sausages_scene_setup", renderScenes(t, l, tab, st))
	})
	t.Run("attempt", func(t *testing.T) {
		// A challenger has turned own cards and one of another's, after
		// bids and a pass.
		tab, st := golden.Table(t, g, 4, 0, "", 22, nil)
		r := rand.New(rand.NewPCG(22, 1))
		golden.PlayWhile(t, g, tab, st, r, func(i int, st game.State) bool {
			v := st.(*ss.State).PublicView()
			own := 0
			for _, x := range v.Revealed {
				if x.Seat == v.Challenger {
					own++
				}
			}
			ready := v.Phase == ss.PhaseAttempt && len(v.Revealed) > own && len(v.Bids) > 2
			return !ready && !st.Over()
		})
		if st.Over() {
			t.Fatal("no such position")
		}
		golden.Check(t, "sausages_scene_attempt", renderScenes(t, l, tab, st))
	})
	t.Run("over", func(t *testing.T) {
		tab, st := golden.Table(t, g, 3, 0, "", 23, nil)
		golden.PlayRandom(t, g, tab, st, 100000, 4)
		golden.Check(t, "sausages_scene_over", renderScenes(t, l, tab, st))
	})
}

// TestOpenScene: the replay shows every card a seat owns face up, its
// stack and its hand, and nothing to press.
func TestOpenScene(t *testing.T) {
	reviewtest.GoldenOpenScene(t, sausages.Game(), 40, func(st *ss.State, seat int) int {
		return st.PublicView().Seats[seat].Owned
	})
}
