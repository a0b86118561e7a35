package long

import (
	"io"
	"testing"
	"time"

	"github.com/trickchef/trickchef/cmd/botbench/internal/bench"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestLongTablesMeasured writes 40 long Трик-н-Шеф tables mid-game and runs
// the bot over them for a few seconds: the two due in the run have their
// reminder and deadline fired, every table is in the timers queue, and
// the numbers are filled in.
func TestLongTablesMeasured(t *testing.T) {
	g, err := bench.FindGame("trickchef")
	if err != nil {
		t.Fatal(err)
	}
	res, err := run(t.Context(), config{Game: g, Tables: 40, People: 2, Robots: 1, For: 4 * time.Second,
		Seed: 1, RedisURL: redistest.URL(t)}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res.DueInRun != 2 || res.Fired != 4 || res.Missed != 0 || res.TimersQueued != 40 {
		t.Errorf("due %d, fired %d, missed %d, queued %d; want 2 tables, 4 fired, 40 queued", res.DueInRun, res.Fired, res.Missed, res.TimersQueued)
	}
	if res.RSSIdle <= 0 || res.RSSWaiting <= 0 || res.RedisPerWaiting <= 0 || res.RedisPerTable < res.RedisPerWaiting {
		t.Errorf("not measured: %+v", res)
	}
}
