package press

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestEveryPressAnsweredWhileOneFloods: one table of three presses for a
// few seconds, one of them flooding (40 presses a second), while the
// bot's pool works through three queued reviews: every press is answered,
// the flood is refused in part, nobody at human pace is, the answers are
// timed, and the reviews are made meanwhile.
func TestEveryPressAnsweredWhileOneFloods(t *testing.T) {
	res, err := run(t.Context(), "trickchef", 1, 3, 6*time.Second, 40, 3, redistest.URL(t), 1, 5*time.Second)
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
	if res.Reviews != 3 || res.ReviewsMade == 0 {
		t.Errorf("reviews: %d made of %d queued", res.ReviewsMade, res.Reviews)
	}
	if res.P50ms <= 0 || res.Maxms < res.P99ms {
		t.Errorf("answer times p50 %v, p99 %v, max %v ms", res.P50ms, res.P99ms, res.Maxms)
	}
}
