package load

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestThroughputApplies runs a tiny load for every game and checks moves
// were applied: the tool must never again report 0 updates/s and pass.
func TestThroughputApplies(t *testing.T) {
	cfg := loadConfig{Duration: time.Second, Clients: 2, People: 3, RedisURL: redistest.URL(t)}
	for _, g := range games.All() {
		t.Run(g.ID(), func(t *testing.T) {
			r, err := throughput(t.Context(), g, 2, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if r.Updates == 0 || r.UpdatesPerSec <= 0 {
				t.Fatalf("no update applied: %+v", r)
			}
			if r.Refused != 0 {
				t.Errorf("%d of the driver's moves were refused: %+v", r.Refused, r)
			}
			if r.KeyBytesPerTable <= 0 {
				t.Errorf("no Redis keys measured: %+v", r)
			}
		})
	}
}

// TestStoragePlaysWholeGames plays two games at two tables and checks both
// were played to the end and measured. The first game is enough for the
// tool's path (TestThroughputApplies opens every game; Меню шефа alone
// would take a minute), and the real-time game, which at full pace plays
// whole games in seconds instead of waiting for the bot's clocks.
func TestStoragePlaysWholeGames(t *testing.T) {
	cfg := loadConfig{Clients: 2, People: 3, RedisURL: redistest.URL(t)}
	for _, g := range []adapter.Game{games.All()[0], clockGame(t)} {
		t.Run(g.ID(), func(t *testing.T) {
			rep, err := storage(t.Context(), g, 2, 2, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Checkpoints) != 2 {
				t.Fatalf("checkpoints %+v, want after games 1 and 2", rep.Checkpoints)
			}
			first, second := rep.Checkpoints[0], rep.Checkpoints[1]
			if first.Moves == 0 || second.Moves <= first.Moves {
				t.Errorf("moves applied after game 1: %d, after game 2: %d", first.Moves, second.Moves)
			}
			for _, c := range rep.Checkpoints {
				if c.Kinds["table:rec"] == 0 || c.State <= 0 {
					t.Errorf("after game %d: no table record measured: %+v", c.Games, c.Kinds)
				}
				if c.UpdateIDs == 0 {
					t.Errorf("after game %d: no applied update ids measured", c.Games)
				}
			}
		})
	}
}

func TestCheckpointsFor(t *testing.T) {
	for games, want := range map[int][]int{1: {1}, 2: {1, 2}, 5: {1, 5}, 20: {1, 5, 10, 20}, 25: {1, 5, 10, 20, 25}} {
		if got := checkpointsFor(games); !slices.Equal(got, want) {
			t.Errorf("checkpointsFor(%d) = %v, want %v", games, got, want)
		}
	}
}

func TestKeyKind(t *testing.T) {
	for key, want := range map[string]string{
		"t:{-1000000000000}:rec":  "table:rec",
		"t:{-1000000000000}:upd":  "table:upd",
		"t:{-100_7}:msg":          "table:msg",
		"ptr:{user:42}":           "pointer:user",
		"ptr:{started:42}":        "pointer:started",
		"rate:{chat:-100}:meta":   "rate",
		"rate:{global}":           "rate",
		"res:{-100}:st:trickchef": "results:st",
		"res:{-100}:hist":         "results:hist",
		"resu:{u42}":              "results:player",
		"wake":                    "wake",
	} {
		if got := keyKind(key); got != want {
			t.Errorf("keyKind(%q) = %q, want %q", key, got, want)
		}
	}
}

// clockGame is the first game the bot offers whose system seat moves on
// its own clock (a real-time game: deals after a quiet pause, the next
// round after the results).
func clockGame(t *testing.T) adapter.Game {
	t.Helper()
	for _, g := range games.All() {
		if _, ok := g.(adapter.ClockGame); ok {
			return g
		}
	}
	t.Fatal("the bot offers no game with a clock of its own")
	return nil
}

// TestFullPaceSkipsTheGamesPauses plays the real-time game at one table at
// full pace, over as many games as it takes, until the driver has brought
// three of the system's timers forward (at the game's own pace it never does, and the bot waits 8 s
// after every round of Чехарда): the table's next move after each is the
// bot's own system move, and the record the driver rewrote replays to the
// stored state.
func TestFullPaceSkipsTheGamesPauses(t *testing.T) {
	ctx := t.Context()
	st, err := store.DialRedis(ctx, redistest.URL(t), "fullpace:", store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, err := newDriver(st, clockGame(t), 3, paceFull, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.stop()
	chat := chatOf(0)
	rng := rand.New(rand.NewPCG(1, 2))
	// A game may end before three timers were brought forward (one due
	// before the driver looked is not counted): the next game goes on.
	total := 0
	for played := 1; total < 3; played++ {
		if played > 5 {
			t.Fatalf("%d games played, %d system timers brought forward, want 3", played-1, total)
		}
		total += playHurried(t, d, chat, rng, 3-total)
	}
}

// playHurried opens a game at chat and plays it at full pace until it is
// over or want timers were brought forward, checks it, and returns how
// many were.
func playHurried(t *testing.T, d *driver, chat int64, rng *rand.Rand, want int) int {
	t.Helper()
	ctx := t.Context()
	if err := d.open(ctx, chat); err != nil {
		t.Fatal(err)
	}
	var moves int
	// hurried holds the log's length when each timer was brought forward.
	var hurried []int
	guard := time.Now().Add(2 * time.Minute) // a stuck game must not hang the test
	var tab *record.Table
	for {
		before, err := d.table(ctx, chat)
		if err != nil {
			t.Fatal(err)
		}
		s, err := d.move(ctx, chat, rng)
		if err != nil {
			t.Fatal(err)
		}
		if s.pressed && !s.applied {
			t.Fatalf("move refused: %q", s.answer)
		}
		if s.applied {
			moves++
		}
		if s.hurried {
			hurried = append(hurried, len(before.Log))
		}
		if tab, err = d.table(ctx, chat); err != nil {
			t.Fatal(err)
		}
		if s.over || (len(hurried) >= want && len(tab.Log) > hurried[len(hurried)-1]) {
			break
		}
		if time.Now().After(guard) {
			t.Fatalf("stuck: %d timers brought forward, %d moves pressed, the log %d long", len(hurried), moves, len(tab.Log))
		}
		if s.waiting {
			time.Sleep(time.Millisecond)
		}
	}
	for _, at := range hurried {
		if at < len(tab.Log) && (tab.Log[at].Seat != game.System || !tab.Log[at].Auto) {
			t.Errorf("log move %d, after a timer brought forward: %+v, want the bot's system move", at, tab.Log[at])
		}
	}
	for i, m := range tab.Log {
		if m.Seat == game.System && !m.Auto {
			t.Errorf("log move %d: a system move not made by the bot: %+v", i, m)
		}
	}
	replayed, err := bot.Replay(tab, d.games...)
	if err != nil {
		t.Fatal(err)
	}
	data, err := replayed.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, tab.State) {
		t.Error("the replay of the log differs from the stored state")
	}
	t.Logf("%d moves pressed, %d timers brought forward", moves, len(hurried))
	return len(hurried)
}
