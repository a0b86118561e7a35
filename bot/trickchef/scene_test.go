package trickchef_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// ru is the Russian catalog, loaded once per test (loading it is slow).
func ru(t *testing.T) adapter.Loc { return adapter.NewLoc(bottest.Catalog(t), "ru") }

func scene(l adapter.Loc, tab *record.Table, st game.State, seat int) adapter.Scene {
	return trickchef.Game().(adapter.WebGame).Scene(l, adapter.View(tab), st, seat)
}

func sceneJSON(t *testing.T, sc adapter.Scene) string { return golden.SceneJSON(t, sc) }

// suitCorners are the corners of restaurant cards (chef tokens have 👨‍🍳).
var suitCorners = map[string]tc.Suit{"🟥": tc.Red, "🟨": tc.Yellow, "🟦": tc.Blue, "🟩": tc.Green}

// sceneCards lists every card a scene draws, wherever it lies.
func sceneCards(sc adapter.Scene) []adapter.Card {
	var out []adapter.Card
	for _, s := range sc.Seats {
		out = append(out, s.Cards...)
	}
	for _, p := range sc.Center {
		out = append(out, p.Cards...)
	}
	return append(out, sc.Hand...)
}

// restaurant reads a drawn restaurant card back; ok=false for a chef
// token or a back.
func restaurant(t *testing.T, c adapter.Card) (tc.Card, bool) {
	t.Helper()
	s, ok := suitCorners[c.Corner]
	if !ok || c.Back {
		return tc.Card{}, false
	}
	v, err := strconv.Atoi(c.Face)
	if err != nil {
		t.Fatalf("card %+v: face is not a value", c)
	}
	return tc.Card{Suit: s, Value: v}, true
}

// publicCards are the cards everyone has seen: the trick and the last one.
func publicCards(v tc.Public) map[tc.Card]bool {
	out := map[tc.Card]bool{}
	for _, p := range v.CurrentTrick {
		out[p.Card] = true
	}
	if v.LastTrick != nil {
		for _, p := range v.LastTrick.Cards {
			out[p.Card] = true
		}
	}
	return out
}

// withoutPrivate is a seat's scene less what only the seat sees.
func withoutPrivate(sc adapter.Scene) adapter.Scene {
	sc.Hand, sc.HandLabel, sc.Prompt, sc.Choices = nil, "", "", nil
	return sc
}

// checkPosition checks every scene of one position: the spectator's shows
// only public cards, each seat's only those and its own hand, and every
// press a seat's scene offers is the seat's and does what it says.
func checkPosition(t *testing.T, l adapter.Loc, tab *record.Table, st *tc.State) {
	t.Helper()
	pub := st.PublicView()
	public := publicCards(pub)
	spec := scene(l, tab, st, adapter.Spectator)
	if len(spec.Hand) > 0 || len(spec.Choices) > 0 || spec.Prompt != "" || spec.HandLabel != "" {
		t.Fatalf("a spectator's scene has a hand or choices: %s", sceneJSON(t, spec))
	}
	if len(spec.Seats) != pub.Players {
		t.Fatalf("%d seats drawn for %d players", len(spec.Seats), pub.Players)
	}
	for _, c := range sceneCards(spec) {
		if card, ok := restaurant(t, c); ok && !public[card] {
			t.Fatalf("the spectator's scene shows %v, which nobody played: %s", card, sceneJSON(t, spec))
		}
	}
	for seat := 0; seat < pub.Players; seat++ {
		v := st.SeatView(game.Seat(seat))
		own := map[tc.Card]bool{}
		for _, c := range v.Hand {
			own[c] = true
		}
		sc := scene(l, tab, st, seat)
		var hand []tc.Card
		for _, c := range sc.Hand {
			card, _ := restaurant(t, c)
			hand = append(hand, card)
		}
		if len(v.Hand) > 0 && !reflect.DeepEqual(hand, v.Hand) {
			t.Fatalf("seat %d: hand drawn %v, holds %v", seat, hand, v.Hand)
		}
		for _, c := range sceneCards(withoutPrivate(sc)) {
			if card, ok := restaurant(t, c); ok && !public[card] {
				t.Fatalf("seat %d's scene shows %v off its hand, which nobody played", seat, card)
			}
		}
		// The public part of a seat's scene is the spectator's: nothing
		// private leaks into the seats, the trick or the headline.
		if got, want := sceneJSON(t, withoutPrivate(sc)), sceneJSON(t, spec); got != want {
			t.Fatalf("seat %d's scene differs from the spectator's outside its hand:\n%s\nspectator:\n%s", seat, got, want)
		}
		checkActs(t, tab, st, seat, v, sc)
	}
}

// checkActs presses (on a copy of the state) every card and choice of a
// seat's scene: each parses as the seat's button, a bright card is played,
// a dim one refused with a rule's code, and every legal move with the
// chosen coins is offered.
func checkActs(t *testing.T, tab *record.Table, st *tc.State, seat int, v tc.SeatView, sc adapter.Scene) {
	t.Helper()
	g := trickchef.Game()
	var acts []string
	dim := map[string]bool{}
	for _, c := range sceneCards(sc) {
		if c.Act != "" {
			acts = append(acts, c.Act)
			dim[c.Act] = c.Dim
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
		if b.Table != tab.ID || b.GameNo != tab.GameNo || b.Args[0] != seat {
			t.Fatalf("seat %d: %q is not this seat's button", seat, a)
		}
		switch b.Op {
		case 'a':
			if b.Args[1] != tab.Seats[seat].Nonce {
				t.Fatalf("seat %d: %q has nonce %d, want %d", seat, a, b.Args[1], tab.Seats[seat].Nonce)
			}
			act := game.Action(b.Args[2])
			err := clone(t, st).Apply(game.Seat(seat), act)
			switch {
			case dim[a] && game.CodeOf(err) == "":
				t.Fatalf("seat %d: dim %q was not refused with a rule's code: %v", seat, a, err)
			case !dim[a] && err != nil:
				t.Fatalf("seat %d: %q refused: %v", seat, a, err)
			}
			if err == nil {
				offered[act] = true
			}
		case 'm':
			if _, ok := g.(adapter.DraftGame).Draft(st, game.Seat(seat), nil, b.Args[2]); !ok {
				t.Fatalf("seat %d: coin choice %q refused", seat, a)
			}
		case 'i':
		default:
			t.Fatalf("seat %d: %q: unexpected op %q", seat, a, b.Op)
		}
	}
	if tab.Phase != record.PhasePlaying {
		return
	}
	mod := 0
	if d := tab.Seats[seat].Draft; len(d) == 1 {
		mod = d[0]
	}
	for _, a := range v.Legal {
		if m, _ := tc.Decode(a); m.Kind == tc.KindPlay && m.Coins != mod {
			continue
		}
		if !offered[a] {
			t.Fatalf("seat %d: legal %v with coins %d is not offered: %s", seat, a, mod, sceneJSON(t, sc))
		}
	}
}

func clone(t *testing.T, st game.State) game.State {
	t.Helper()
	data, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	c, err := trickchef.Game().Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSceneHidesAndPresses plays random games and checks every scene of
// every position along the way (checkPosition), with coins chosen now and
// then as a player would.
func TestSceneHidesAndPresses(t *testing.T) {
	g := trickchef.Game()
	l := ru(t)
	seeds := 12
	if testing.Short() {
		seeds = 3
	}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		n := 3 + int(seed%2)
		tab, st := golden.Table(t, g, n, 0, "", seed, map[string]int{"removed": int(seed % 4)})
		r := rand.New(rand.NewPCG(seed, 5))
		for !st.Over() {
			if cur := st.ToAct(); len(cur) == 1 && r.IntN(3) == 0 {
				coins := st.(*tc.State).PublicView().Seats[cur[0]].Coins
				if coins > 0 {
					tab.Seats[cur[0]].Draft = []int{r.IntN(2*coins+1) - coins}
				}
			}
			checkPosition(t, l, tab, st.(*tc.State))
			before := st.ToAct()
			golden.PlayWhile(t, g, tab, st, r, func(i int, _ game.State) bool { return i < 1 })
			for _, s := range before {
				tab.Seats[s].Draft = nil
			}
		}
		checkPosition(t, l, tab, st.(*tc.State))
	}
}

// TestSceneStartIsTheSameForAnyDeal: before any card is played everyone
// sees the same table whatever was dealt, so two deals draw one
// spectator's scene.
func TestSceneStartIsTheSameForAnyDeal(t *testing.T) {
	g, l := trickchef.Game(), ru(t)
	tab1, st1 := golden.Table(t, g, 4, 0, "", 1, nil)
	tab2, st2 := golden.Table(t, g, 4, 0, "", 2, nil)
	if reflect.DeepEqual(st1.(*tc.State).SeatView(0).Hand, st2.(*tc.State).SeatView(0).Hand) {
		t.Fatal("the two seeds dealt the same hand")
	}
	if a, b := sceneJSON(t, scene(l, tab1, st1, adapter.Spectator)), sceneJSON(t, scene(l, tab2, st2, adapter.Spectator)); a != b {
		t.Fatalf("the deal shows through:\n%s\n%s", a, b)
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

func TestGoldenTrickchefScene(t *testing.T) {
	g, l := trickchef.Game(), ru(t)
	t.Run("start", func(t *testing.T) {
		tab, st := golden.Table(t, g, 4, 1, "shef", 11, nil)
		golden.Check(t, "trickchef_scene_start", renderScenes(t, l, tab, st))
	})
	t.Run("mid", func(t *testing.T) {
		// Оля plays into a trick with coins on a card, her own coins
		// chosen, holding a card she may not play, after a trick was
		// taken.
		tab, st := golden.Table(t, g, 3, 0, "", 12, map[string]int{"removed": 2})
		r := rand.New(rand.NewPCG(12, 1))
		golden.PlayWhile(t, g, tab, st, r, func(i int, st game.State) bool {
			v := st.(*tc.State).SeatView(0)
			coins := false
			for _, p := range v.CurrentTrick {
				coins = coins || p.Coins != 0
			}
			ready := v.Phase == tc.PhasePlay && v.ToAct == 0 && v.LastTrick != nil && coins &&
				v.Seats[0].Coins > 0 && len(v.Playable) < len(v.Hand) && v.Seats[0].Chefs != [tc.NumSuits]int{}
			return !ready && !st.Over()
		})
		if st.Over() {
			t.Fatal("no such position")
		}
		tab.Seats[0].Draft = []int{1}
		golden.Check(t, "trickchef_scene_mid", renderScenes(t, l, tab, st))
	})
	t.Run("over", func(t *testing.T) {
		tab, st := golden.Table(t, g, 4, 0, "", 13, nil)
		golden.PlayRandom(t, g, tab, st, 10000, 2)
		golden.Check(t, "trickchef_scene_over", renderScenes(t, l, tab, st))
	})
}

// TestOpenScene: the replay shows every seat's chefs and its whole hand
// face up, and nothing to press.
func TestOpenScene(t *testing.T) {
	reviewtest.GoldenOpenScene(t, trickchef.Game(), 30, func(st *tc.State, seat int) int {
		sp := st.PublicView().Seats[seat]
		n := sp.HandSize
		for _, c := range sp.Chefs {
			if c > 0 {
				n++
			}
		}
		return n
	})
}
