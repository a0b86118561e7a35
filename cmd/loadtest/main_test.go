package main

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/cmd/internal/games"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
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
// would take a minute), and Чехарда, which at full pace plays whole games
// in seconds instead of waiting for the bot's clocks.
func TestStoragePlaysWholeGames(t *testing.T) {
	cfg := loadConfig{Clients: 2, People: 3, RedisURL: redistest.URL(t)}
	realTime, err := pickGames("chekharda")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range append(games.All()[:1], realTime...) {
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

// TestGamesAsTheBotOffers: "-game all" loads every game the bot offers
// (cmd/internal/games, which cmd/trickchef wires in), in its order.
func TestGamesAsTheBotOffers(t *testing.T) {
	var offered, loaded []string
	for _, g := range games.All() {
		offered = append(offered, g.ID())
	}
	gs, err := pickGames("all")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		loaded = append(loaded, g.ID())
	}
	if len(offered) == 0 || !slices.Equal(offered, loaded) {
		t.Errorf("the bot offers %v, the load test plays %v", offered, loaded)
	}
}

// TestFullPaceSkipsTheGamesPauses plays Чехарда at one table at full pace
// through two of its rounds: the driver brings the system's timers forward
// (at the game's own pace it never does, and the bot waits 8 s after every
// round), the bot still makes every system move itself, and the record the
// driver rewrote replays to the stored state.
func TestFullPaceSkipsTheGamesPauses(t *testing.T) {
	gs, err := pickGames("chekharda")
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	st, err := store.DialRedis(ctx, redistest.URL(t), "fullpace:")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, err := newDriver(st, gs[0], 3, paceFull, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.stop()
	chat := chatOf(0)
	if err := d.open(ctx, chat); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var hurried, moves int
	rounds := func(tab *record.Table) (n int) {
		for _, m := range tab.Log {
			if m.Seat == game.System && m.Action == ck.NextRoundAction() {
				n++
			}
		}
		return n
	}
	guard := time.Now().Add(2 * time.Minute) // a stuck game must not hang the test
	for {
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
			hurried++
		}
		tab, err := d.table(ctx, chat)
		if err != nil {
			t.Fatal(err)
		}
		if s.over || rounds(tab) >= 2 {
			break
		}
		if time.Now().After(guard) {
			t.Fatalf("no two rounds in %d moves (%d timers brought forward)", moves, hurried)
		}
		if s.waiting {
			time.Sleep(time.Millisecond)
		}
	}
	tab, err := d.table(ctx, chat)
	if err != nil {
		t.Fatal(err)
	}
	next := rounds(tab)
	if next == 0 || hurried < next {
		t.Errorf("%d rounds started after the pause, %d system timers brought forward: want every round's pause skipped", next, hurried)
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
	t.Logf("%d moves, %d rounds started, %d timers brought forward", moves, next, hurried)
}
