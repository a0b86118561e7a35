package practice

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestPracticeGameCounted plays one practice game of the first game the
// bot offers to its end, Telegram's limits 20 times faster, and checks its
// calls were counted.
func TestPracticeGameCounted(t *testing.T) {
	id := games.All()[0].ID()
	res, err := run(t.Context(), config{
		Games: []string{id}, Pace: 20 * time.Millisecond, RedisURL: redistest.URL(t), Scaled: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 {
		t.Fatalf("%d results for one game", len(res))
	}
	r := res[0]
	if r.Game != id || r.Moves == 0 || r.PersonMoves == 0 || r.PersonMoves >= r.Moves {
		t.Errorf("moves %d, the person's %d: want the person's and the robots'", r.Moves, r.PersonMoves)
	}
	if r.Sends == 0 || r.Edits == 0 || r.PerMove <= 0 || r.PeakSecond == 0 {
		t.Errorf("calls not counted: %+v", r)
	}
}
