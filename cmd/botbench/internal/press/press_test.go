package press

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestEveryPressAnsweredWhileOneFloods: one table of three presses for a
// few seconds, one of them flooding (40 presses a second), while the
// bot's pool works on two queued reviews (paced, as the bot runs them):
// every press is answered, the flood is refused in part, nobody at human
// pace is, the answers are timed, and every review is made in the end
// (how many within the presses depends on the machine: not checked).
func TestEveryPressAnsweredWhileOneFloods(t *testing.T) {
	res, err := run(t.Context(), params{Game: "trickchef", Tables: 1, People: 3, For: 6 * time.Second, FloodRate: 40,
		Reviews: 2, ReviewShare: 0.25, Redis: redistest.URL(t), Seed: 1, TurnTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Presses == 0 || res.FloodPresses == 0 {
		t.Fatalf("presses %d, the flooder's %d: nothing measured", res.Presses, res.FloodPresses)
	}
	if res.Unanswered+res.FloodUnanswered != 0 || res.HTTP429 != 0 {
		t.Errorf("unanswered %d (the flooder's %d), 429s %d", res.Unanswered, res.FloodUnanswered, res.HTTP429)
	}
	if res.FloodTooFast == 0 || res.TooFast != 0 {
		t.Errorf("told to slow down: the flooder %d of %d presses, the others %d", res.FloodTooFast, res.FloodPresses, res.TooFast)
	}
	if res.Reviews != 2 || res.ReviewsDone != res.Reviews || res.ReviewsSeconds <= 0 {
		t.Errorf("reviews: %d made of %d queued (%d within the presses)", res.ReviewsDone, res.Reviews, res.ReviewsMade)
	}
	if res.P50ms <= 0 || res.Maxms < res.P99ms {
		t.Errorf("answer times p50 %v, p99 %v, max %v ms", res.P50ms, res.P99ms, res.Maxms)
	}
}
