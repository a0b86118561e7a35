package chekharda_test

import (
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/bottest/hinttest"
	"github.com/trickchef/trickchef/bot/chekharda"
)

// TestHints: over many seeded positions every hint is a legal move and
// «Профи»'s own choice there, with a one-line reason in every language.
func TestHints(t *testing.T) {
	if n := hinttest.Check(t, chekharda.Game(), 300); n < 300/2 {
		t.Fatalf("only %d hints checked", n)
	}
}

// TestHintsGolden pins how hints read, next to the hand they advise on.
func TestHintsGolden(t *testing.T) {
	golden.Check(t, "hints", hinttest.Sample(t, chekharda.Game(), 8))
}
