package sausages_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/sausages"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

func TestGoldenSausages(t *testing.T) {
	g := sausages.Game()
	t.Run("setup", func(t *testing.T) {
		tab, _ := golden.Table(t, g, 5, 2, "sly", 21, nil)
		golden.Check(t, "sausages_setup", golden.Render(t, g, tab, nil))
	})
	t.Run("bidding", func(t *testing.T) {
		tab, st := golden.Table(t, g, 4, 0, "", 22, nil)
		golden.PlayRandom(t, g, tab, st, 9, 3)
		golden.Check(t, "sausages_mid", golden.Render(t, g, tab, nil))
	})
	t.Run("over", func(t *testing.T) {
		tab, st := golden.Table(t, g, 3, 0, "", 23, nil)
		before := golden.PlayRandom(t, g, tab, st, 100000, 4)
		golden.Check(t, "sausages_over", golden.Render(t, g, tab, before))
	})
	for _, at := range []struct {
		name  string
		phase ss.Phase
	}{{"attempt", ss.PhaseAttempt}, {"pick", ss.PhasePick}} {
		// An attempt under way (the challenger asked whose top card to
		// open next) and the blind pick after a boot of another player.
		t.Run(at.name, func(t *testing.T) {
			tab, st := golden.Table(t, g, 4, 0, "", 24, nil)
			golden.PlayWhile(t, g, tab, st, rand.New(rand.NewPCG(24, 1)), func(_ int, s game.State) bool {
				return !s.Over() && s.(*ss.State).PublicView().Phase != at.phase
			})
			if st.Over() {
				t.Fatalf("no %s phase met", at.name)
			}
			golden.Check(t, "sausages_"+at.name, golden.Render(t, g, tab, nil))
		})
	}
	t.Run("attempts", func(t *testing.T) {
		// The group's announcements after an attempt: a success (with
		// bids of one and of several cards), a boot of another player,
		// and the challenger's own boot, from random games.
		cat := bottest.Catalog(t)
		seen := map[string]bool{}
		var sb strings.Builder
		for seed := uint64(1); len(seen) < 4 && seed < 200; seed++ {
			tab, st := golden.Table(t, g, 4, 0, "", seed, nil)
			r := rand.New(rand.NewPCG(seed, 9))
			for !st.Over() && len(seen) < 4 {
				before := golden.PlayWhile(t, g, tab, st, r, func(i int, _ game.State) bool { return i < 1 })
				kind := attemptKind(before.(*ss.State).PublicView().LastRound, st.(*ss.State).PublicView().LastRound)
				if kind == "" || seen[kind] {
					continue
				}
				seen[kind] = true
				fmt.Fprintf(&sb, "════════ %s (seed %d)\n", kind, seed)
				for _, lang := range cat.Langs() {
					for _, m := range g.Announce(adapter.NewLoc(cat, lang), adapter.View(tab), before, st) {
						fmt.Fprintf(&sb, "──── %s\n%s\n", lang, golden.Show(m))
					}
				}
			}
		}
		if len(seen) < 4 {
			t.Fatalf("random games gave only %v", seen)
		}
		golden.Check(t, "sausages_attempts", sb.String())
	})
}

// attemptKind names the attempt that was decided between two public views,
// or "" if none was.
func attemptKind(before, after *ss.Outcome) string {
	if after == nil || (before != nil && before.Round == after.Round && before.Lost == after.Lost) || after.Won {
		return ""
	}
	switch {
	case after.Success && after.N == 1:
		return "success, one card"
	case after.Success:
		return "success, several cards"
	case after.OwnBoot && !after.Lost:
		return "own boot"
	case !after.OwnBoot && !after.Lost:
		return "another player's boot"
	}
	return ""
}
