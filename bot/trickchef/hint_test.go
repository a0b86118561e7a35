package trickchef_test

import (
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/bottest/hinttest"
	"github.com/trickchef/trickchef/bot/trickchef"
)

// TestHints: over many seeded positions every hint is a legal move and
// «Профи»'s own choice there, with a one-line reason in every language.
func TestHints(t *testing.T) {
	if n := hinttest.Check(t, trickchef.Game(), 150); n < 150/2 {
		t.Fatalf("only %d hints checked", n)
	}
}

// TestHintsGolden pins how hints read, next to the hand they advise on.
func TestHintsGolden(t *testing.T) {
	golden.Check(t, "hints", hinttest.Sample(t, trickchef.Game(), 8))
}
