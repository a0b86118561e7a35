package web

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestEveryStreamGetsEveryMove: one table, two pages open, a few moves
// through the page: each page hears of each move.
func TestEveryStreamGetsEveryMove(t *testing.T) {
	res, err := run(t.Context(), config{
		Game: "trickchef", Tables: 1, People: 3, Conns: 2, Moves: 4, Pace: 100 * time.Millisecond,
		Seed: 1, Timeout: 2 * time.Minute, RedisURL: redistest.URL(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Moves != 4 || res.Streams != 2 {
		t.Fatalf("moves %d, streams %d; want 4 and 2", res.Moves, res.Streams)
	}
	if res.EventN != 8 || res.Missed != 0 {
		t.Errorf("events %d, missed %d; want all 8 (move, stream) pairs", res.EventN, res.Missed)
	}
	if res.EventMaxms <= 0 || res.ActMaxms <= 0 || res.GoroutinesPerStream <= 0 {
		t.Errorf("not measured: %+v", res)
	}
	var out bytes.Buffer
	printHeader(&out)
	printRow(&out, res)
	if strings.Count(out.String(), "\n") != 3 {
		t.Errorf("report:\n%s", out.String())
	}
}

// TestFloodIsBounded: 50 stream attempts and 50 reads from one initData
// with the server's defaults: most are refused (429), one user keeps at
// most 4 streams, and the stop with them open is measured.
func TestFloodIsBounded(t *testing.T) {
	res, err := flood(t.Context(), "trickchef", 4, redistest.URL(t), "defaults", 50, webapp.Config{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res.Open > 4 || res.Streams[http.StatusTooManyRequests] == 0 || res.Reads[http.StatusTooManyRequests] == 0 {
		t.Fatalf("a flood of 50 from one initData: %+v", res)
	}
	if res.ShutdownMs <= 0 || res.GorAfter <= 0 {
		t.Fatalf("not measured: %+v", res)
	}
}
