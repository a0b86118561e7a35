package main

import (
	"slices"
	"testing"
	"time"

	"github.com/trickchef/trickchef/cmd/internal/games"
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
// were played to the end and measured. One game is enough for the tool's
// path (TestThroughputApplies opens every game); a real-time game would
// spend most of a minute waiting for the bot's clocks.
func TestStoragePlaysWholeGames(t *testing.T) {
	cfg := loadConfig{Clients: 2, People: 3, RedisURL: redistest.URL(t)}
	for _, g := range games.All()[:1] {
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
