package cup

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestCupPlayedAndCounted plays a cup of six people over two rounds to its
// end, Telegram's limits 20 times faster, and checks it named a winner,
// its calls were counted and none was refused.
func TestCupPlayedAndCounted(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	res, err := run(ctx, config{Game: "trickchef", People: 6, Rounds: 2, Seed: 1,
		RedisURL: redistest.URL(t), Scaled: true, Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Winner, "Игрок") {
		t.Errorf("the winner's message names nobody who played: %q", res.Winner)
	}
	if res.Games != 4 {
		t.Errorf("%d games played, want 2 rounds of 2 tables", res.Games)
	}
	if res.Moves == 0 || res.PerMove <= 0 || math.IsInf(res.PerMove, 0) || math.IsNaN(res.PerMove) {
		t.Errorf("calls per move %v over %d moves", res.PerMove, res.Moves)
	}
	if res.TooMany != 0 {
		t.Errorf("%d × 429", res.TooMany)
	}
	if res.CupEdits == 0 || res.CupEditsPeakMinute == 0 || res.GroupCalls == 0 || res.PrivateCalls == 0 || res.Presses == 0 {
		t.Errorf("not counted: %+v", res)
	}
}
