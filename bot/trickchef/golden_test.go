package trickchef_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

func TestGoldenTrickchef(t *testing.T) {
	g := trickchef.Game()
	t.Run("start", func(t *testing.T) {
		tab, _ := golden.Table(t, g, 4, 1, "shef", 11, nil)
		golden.Check(t, "trickchef_start", golden.Render(t, g, tab, nil))
	})
	t.Run("mid", func(t *testing.T) {
		tab, st := golden.Table(t, g, 3, 0, "", 12, map[string]int{"removed": 2})
		golden.PlayRandom(t, g, tab, st, 40, 1)
		tab.Seats[1].Timeouts = 2                                // the bot plays for Серёжа
		tab.Event = &record.Event{Key: "event.timeout", Seat: 1} // and just did
		tab.Seats[0].Draft = []int{1}
		golden.Check(t, "trickchef_mid", golden.Render(t, g, tab, nil))
	})
	t.Run("trumps", func(t *testing.T) {
		// Two trump suits, and a last trick with coins on their −2 side.
		tab, st := golden.Table(t, g, 4, 0, "", 14, nil)
		golden.PlayWhile(t, g, tab, st, rand.New(rand.NewPCG(14, 2)), func(_ int, s game.State) bool {
			v := s.(*tc.State).PublicView()
			if s.Over() {
				return false
			}
			minus := v.LastTrick != nil && slices.ContainsFunc(v.LastTrick.Cards, func(p tc.Played) bool { return p.Coins < 0 })
			return !(len(v.Trumps) == 2 && minus && v.Phase == tc.PhasePlay)
		})
		if st.Over() {
			t.Fatal("no position with two trumps after minus coins")
		}
		golden.Check(t, "trickchef_trumps", golden.Render(t, g, tab, nil))
	})
	t.Run("over", func(t *testing.T) {
		tab, st := golden.Table(t, g, 4, 0, "", 13, nil)
		before := golden.PlayRandom(t, g, tab, st, 10000, 2)
		golden.Check(t, "trickchef_over", golden.Render(t, g, tab, before))
	})
}
