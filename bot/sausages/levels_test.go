package sausages

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// TestAutoLevels: each lobby level plays its own engine AI (the top one,
// sharp, too), and a timed-out person plays the baseline.
func TestAutoLevels(t *testing.T) {
	g := Game().(adapter.RobotGame)
	if got, want := g.Levels(), []string{"novice", "sly", "sharp"}; !slices.Equal(got, want) {
		t.Fatalf("Levels() = %v, want %v", got, want)
	}
	ais := map[string]func(ss.SeatView, uint64) game.Action{
		"": ss.Baseline, "novice": ss.Baseline, "sly": ss.Sly, "sharp": ss.Sharp,
	}
	st, err := ss.New(ss.Config{Players: 4, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	// Play a few hundred moves, each by a level in turn, checking every
	// decision against the level's AI called directly.
	levels := []string{"", "novice", "sly", "sharp"}
	for i := 0; i < 400 && !st.Over(); i++ {
		s := st.ToAct()[0]
		level := levels[i%len(levels)]
		seed := uint64(i)
		got, ok := g.Auto(st, s, adapter.Decision{Level: level, Seed: seed})
		if !ok {
			t.Fatalf("move %d: level %q did not act", i, level)
		}
		if want := ais[level](st.SeatView(s), seed); got != want {
			t.Fatalf("move %d: level %q played %v, its AI %v", i, level, got, want)
		}
		if err := st.Apply(s, got); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}
}
