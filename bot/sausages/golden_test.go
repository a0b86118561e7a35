package sausages_test

import (
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/sausages"
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
}
