package chekharda

import (
	"slices"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// chekhardaDeal is a table of three people dealt from notation.
func chekhardaDeal(t *testing.T, deal string) (*record.Table, *ck.State) {
	t.Helper()
	st, err := ck.NewFromDeal(ck.Config{Players: 3, Seed: 1}, deal)
	if err != nil {
		t.Fatal(err)
	}
	tab := &record.Table{ID: "-100123", ChatID: -100123, Lang: "ru", Phase: record.PhasePlaying, GameNo: 1, GameID: "chekharda",
		Seats: []record.Seat{{UserID: 1, Name: "Оля"}, {UserID: 2, Name: "Серёжа"}, {UserID: 3, Name: "Маша"}}}
	return tab, st
}

func mustApply(t *testing.T, st *ck.State, s game.Seat, m string) {
	t.Helper()
	mv, err := ck.ParseMove(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Apply(s, mv.Action()); err != nil {
		t.Fatal(err)
	}
}

// TestChekhardaExplain checks each detailed refusal against the engine's
// code and its catalog key.
func TestChekhardaExplain(t *testing.T) {
	g := Game().(chekhardaGame)
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	pig := ck.Pig.Emoji()
	explain := func(tab *record.Table, st *ck.State, seat game.Seat, m string) (string, bool) {
		t.Helper()
		mv, err := ck.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		code := game.CodeOf(st.Clone().Apply(seat, mv.Action()))
		if code == "" {
			t.Fatalf("%s by seat %d was applied", m, seat)
		}
		return g.Explain(l, adapter.View(tab), st, int(seat), mv.Action(), code)
	}
	t.Run("beaten", func(t *testing.T) {
		tab, st := chekhardaDeal(t, "C / PPP | PT | PM")
		mustApply(t, st, 1, "steal:P@0")
		got, ok := explain(tab, st, 2, "steal:P@0")
		if want := l.T("chekharda.explain.beaten", "Name", "Серёжа", "Emoji", pig, "Victim", "Оля"); !ok || got != want {
			t.Errorf("got %q, %v; want %q", got, ok, want)
		}
	})
	t.Run("gone", func(t *testing.T) {
		tab, st := chekhardaDeal(t, "C / TT | PT | PM")
		got, ok := explain(tab, st, 2, "steal:P@0")
		if want := l.T("chekharda.explain.gone", "Emoji", pig, "Victim", "Оля"); !ok || got != want {
			t.Errorf("got %q, %v; want %q", got, ok, want)
		}
	})
	t.Run("own_stolen", func(t *testing.T) {
		tab, st := chekhardaDeal(t, "CP / PPP | PT | M")
		mustApply(t, st, 1, "steal:P@0")
		got, ok := explain(tab, st, 0, "add:P")
		if want := l.T("chekharda.explain.own_stolen", "Emoji", pig, "Name", "Серёжа"); !ok || got != want {
			t.Errorf("got %q, %v; want %q", got, ok, want)
		}
	})
	t.Run("played", func(t *testing.T) {
		tab, st := chekhardaDeal(t, "CP / PPP | T | M")
		mustApply(t, st, 0, "add:P")
		got, ok := explain(tab, st, 0, "add:P")
		if want := l.T("chekharda.explain.played", "Emoji", pig); !ok || got != want {
			t.Errorf("got %q, %v; want %q", got, ok, want)
		}
	})
	t.Run("paired", func(t *testing.T) {
		// The dealer (seat 0) deals Серёжа a 🐷 first: his 🐷 goes into a set.
		tab, st := chekhardaDeal(t, "CJ / TTT | PM | A ; deck P Z C")
		mustApply(t, st, game.System, "deal")
		got, ok := explain(tab, st, 1, "steal:P@2")
		if want := l.T("chekharda.explain.paired", "Emoji", pig); !ok || got != want {
			t.Errorf("got %q, %v; want %q", got, ok, want)
		}
	})
	t.Run("plain", func(t *testing.T) {
		tab, st := chekhardaDeal(t, "C / PPP | PT | PM")
		if _, ok := explain(tab, st, 1, "steal:P@1"); ok {
			t.Error("own_set has no details: the catalog's chekharda.error.own_set says it")
		}
	})
}

// TestChekhardaEveryCodeHasText: each engine code has the game's text.
func TestChekhardaEveryCodeHasText(t *testing.T) {
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	codes := []game.Code{ck.CodeGameOver, ck.CodeBadSeat, ck.CodeUnknownAction, ck.CodeNotYourTurn, ck.CodeRoundOver,
		ck.CodeWrongPhase, ck.CodeOwnSet, ck.CodeNoSingleCard, ck.CodeSetGone, ck.CodeNoOwnSet, ck.CodeNoDraw,
		ck.CodeNoDeal, ck.CodeDeckEmpty, ck.CodeNotStuck}
	for _, c := range codes {
		if k := adapter.ErrorKey(l, Game(), c); k != "chekharda.error."+string(c) {
			t.Errorf("code %s: key %s", c, k)
		}
	}
	for _, k := range ck.Kinds() {
		if !l.Has("chekharda.kind." + k.ID()) {
			t.Errorf("no name for %s", k.ID())
		}
	}
}

// TestChekhardaNoviceNeverWaitsForNothing: with the deck empty nothing
// changes while everybody waits, so a robot that would wait plays.
func TestChekhardaNoviceNeverWaitsForNothing(t *testing.T) {
	// All 72 cards are out: Оля can steal 🐷, Серёжа can add 🌞.
	st, err := ck.NewFromDeal(ck.Config{Players: 2, Seed: 1},
		"P / CCCCCC TTTTTT MMMMMM FFFFFF HHHHHH BBBBBB | S / PPPPP SSSSS JJJJJJ RRRRRR AAAAAA ZZZZZZ")
	if err != nil {
		t.Fatal(err)
	}
	if st.DeckSize() != 0 || st.Stuck() {
		t.Fatalf("deck %d, stuck %v", st.DeckSize(), st.Stuck())
	}
	g := Game().(chekhardaGame)
	waited := 0
	for seed := uint64(1); seed <= 200; seed++ {
		if _, ok := ck.Decide(ck.Novice, st.SeatView(0), seed); !ok {
			waited++
		}
		a, ok := g.Auto(st, 0, adapter.Decision{Level: string(ck.Novice), Seed: seed})
		if !ok || !slices.Contains(st.Legal(0), a) {
			t.Fatalf("seed %d: the novice waits (%v) or plays %d, not one of %v", seed, ok, a, st.Legal(0))
		}
	}
	if waited == 0 {
		t.Fatal("Decide never waited: the test proves nothing")
	}
}

// TestChekhardaClocks: people never time out, robots react in their
// level's range, the dealer deals after the table's pause or at once
// when nobody can act, the next round comes after the reading pause.
func TestChekhardaClocks(t *testing.T) {
	g := Game().(chekhardaGame)
	tab, st := chekhardaDeal(t, "C / PPP | PT | PM")
	if _, ok := g.Delay(adapter.View(tab), st, 1, "", 1); ok {
		t.Error("a person has a timer")
	}
	for _, level := range g.Levels() {
		lo, hi := ck.ReactionRange(ck.Level(level))
		if d, ok := g.Delay(adapter.View(tab), st, 1, level, 7); !ok || d < lo || d > hi {
			t.Errorf("%s reacts after %v, %v", level, d, ok)
		}
	}
	tab.Options = map[string]int{chekhardaOptPause: 2}
	if d, ok := g.Delay(adapter.View(tab), st, game.System, "", 1); !ok || d != 5*time.Second {
		t.Errorf("the deal after %v, %v; want the table's 5 s", d, ok)
	}
	stuck, err := ck.NewFromDeal(ck.Config{Players: 3, Seed: 1}, "C / PP | T | M")
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := g.Delay(adapter.View(tab), stuck, game.System, "", 1); !stuck.Stuck() || !ok || d != 0 {
		t.Errorf("nobody can act: the deal after %v, %v", d, ok)
	}
	mustApply(t, st, 1, "steal:P@0")
	for st.Phase() == ck.PhasePlay {
		s := st.ToAct()[0]
		if err := st.Apply(s, st.Legal(s)[0]); err != nil {
			t.Fatal(err)
		}
	}
	if d, ok := g.Delay(adapter.View(tab), st, game.System, "", 1); !ok || d != chekhardaReadPause {
		t.Errorf("the next round after %v, %v", d, ok)
	}
}

// TestChekhardaIdlePeopleTimeOutOnlyWithoutADealer: while the dealer keeps
// the game going a person never times out; when no deal can come (here the
// variant, where players draw for themselves) a person who could act gets
// a timer, so one who walked away cannot hold up the round for good.
func TestChekhardaIdlePeopleTimeOutOnlyWithoutADealer(t *testing.T) {
	g := Game().(adapter.ClockGame)
	for _, variant := range []int{0, 1} {
		tab := &record.Table{Seed: 7, GameID: "chekharda", Options: map[string]int{chekhardaOptVariant: variant},
			Seats: []record.Seat{{UserID: 1, Name: "Оля"}, {UserID: 2, Name: "Серёжа"}, {UserID: 3, Name: "Маша"}}}
		st, err := Game().Start(adapter.View(tab))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range st.ToAct() {
			if s == game.System {
				continue
			}
			d, ok := g.Delay(adapter.View(tab), st, s, "", 1)
			switch {
			case variant == 0 && ok:
				t.Fatalf("a person got a %v timer while the dealer keeps the game going", d)
			case variant == 1 && (!ok || d != chekhardaIdleTimeout):
				t.Fatalf("variant: a person's timer is %v, %v; want %v", d, ok, chekhardaIdleTimeout)
			}
		}
	}
}
