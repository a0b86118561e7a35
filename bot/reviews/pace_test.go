package reviews

import (
	"context"
	"testing"
	"time"
)

// spin works for d on the CPU's clock as the pace sees it (wall time).
func spin(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

// TestPaceRestsForItsShare: after a judgement the pace rests at least
// three times as long as the judgement took at a quarter of a core, not
// at all at a whole core, and stops resting once the review is cancelled.
func TestPaceRestsForItsShare(t *testing.T) {
	if pace(context.Background(), 1) != nil {
		t.Error("a whole core's share rests")
	}
	judged := pace(context.Background(), 0.25)
	spin(20 * time.Millisecond)
	start := time.Now()
	judged()
	if rest := time.Since(start); rest < 60*time.Millisecond {
		t.Errorf("rested %v after 20 ms of work at a quarter of a core, want at least 60 ms", rest)
	}
	ctx, cancel := context.WithCancel(context.Background())
	judged = pace(ctx, 0.001)
	spin(10 * time.Millisecond)
	cancel()
	done := make(chan struct{})
	go func() { judged(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("a cancelled review kept resting (10 s due)")
	}
}
