package chef_test

import (
	"flag"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

var (
	chefPace      = flag.Bool("chef-pace", false, "measure a six-person Меню шефа game at human pace through the fake Bot API with Telegram's limits (takes minutes)")
	chefPaceMoves = flag.Int("chef-pace-moves", 200, "with -chef-pace: stop after this many moves (0: play to the end)")
	chefPaceThink = flag.Duration("chef-pace-think", 2*time.Second, "with -chef-pace: a person's mean thinking time per press (each takes 0.5–1.5 times it)")
)

// TestChefPace measures what a game costs in Telegram at human pace: six
// people pressing random buttons (draft steps too) after thinking 1–3 s,
// real-time limits (20 per minute in the group), Redis. A measurement, not
// a check: it runs only with -chef-pace.
//
//	go test ./bot -run TestChefPace -chef-pace -v -timeout 60m
func TestChefPace(t *testing.T) {
	if !*chefPace {
		t.Skip("a measurement: run with -chef-pace")
	}
	srv := telegramtest.NewServer(telegramtest.WithTB(t)) // Telegram's limits, unscaled
	t.Cleanup(srv.Close)
	st := store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})
	h := &harness{&bottest.Test{Harness: &bottest.Harness{Games: allGames(), Srv: srv, Store: st,
		Cfg: bot.Config{TurnTimeout: 10 * time.Minute},
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)}, TB: t, Redis: st}}
	h.MustStart()
	t.Cleanup(h.Stop)

	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб", "Даша", "Егор"} {
		people = append(people, h.MustBegin(srv.NewUser(name)))
	}
	group := srv.NewGroup("Темп", people...)
	lobby := h.chefLobby(group, people)
	first := len(srv.Calls())
	h.MustStartGame(people[0], lobby)
	started := time.Now()

	done := make(chan struct{})
	rng := rand.New(rand.NewPCG(6, 6))
	think := bottest.HumanPace(*chefPaceThink, rand.New(rand.NewPCG(6, 7)))
	var waits []func() bottest.RandomStats
	for _, u := range people {
		waits = append(waits, h.RandomPlayer(u, done, rng, think))
	}
	moves := 0
	for {
		time.Sleep(time.Second)
		tab, state := h.chefState(group)
		moves = len(tab.Log)
		if state.Over() || (*chefPaceMoves > 0 && moves >= *chefPaceMoves) {
			break
		}
	}
	close(done)
	var presses []bottest.Press
	for _, w := range waits {
		presses = append(presses, w().Log...)
	}
	elapsed := time.Since(started)
	time.Sleep(10 * time.Second) // let the last views reach Telegram

	calls := srv.Calls()[first:]
	type count struct{ send, edit, del int }
	var grp, private count
	answers, tooMany := 0, 0
	var groupAt []time.Time
	for _, c := range calls {
		if c.ErrorCode == 429 {
			tooMany++
			continue
		}
		if c.Method == "answerCallbackQuery" {
			answers++
			continue
		}
		k := &private
		if c.ChatID == group.ID() {
			k = &grp
			if c.OK && (c.Method == "editMessageText" || c.Method == "sendMessage") {
				groupAt = append(groupAt, c.Time)
			}
		} else if c.ChatID <= 0 {
			continue
		}
		switch c.Method {
		case "sendMessage":
			k.send++
		case "editMessageText", "editMessageReplyMarkup":
			k.edit++
		case "deleteMessage", "deleteMessages":
			k.del++
		}
	}
	// Move → table: from the press of an accepted move to the first group
	// call after its answer (the table is drawn from the latest state).
	var lat []time.Duration
	for _, p := range presses {
		if !strings.HasPrefix(p.Data, "a:") || p.Answered.IsZero() || p.Answer != "" {
			continue
		}
		i, _ := slices.BinarySearchFunc(groupAt, p.Answered, func(a, b time.Time) int { return a.Compare(b) })
		if i < len(groupAt) {
			lat = append(lat, groupAt[i].Sub(p.At))
		}
	}
	slices.Sort(lat)
	pct := func(q float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(q*float64(len(lat))))]
	}
	per := func(n int) float64 { return float64(n) / float64(max(moves, 1)) }
	t.Logf("six people, %v a press (%v–%v): %d moves in %.0f s, %d presses", *chefPaceThink, *chefPaceThink/2, *chefPaceThink*3/2, moves, elapsed.Seconds(), len(presses))
	t.Logf("group: %d send + %d edit + %d delete = %.2f calls a move; most in any 60 s: %d (limit 20)",
		grp.send, grp.edit, grp.del, per(grp.send+grp.edit+grp.del), srv.PeakCalls(group.ID(), time.Minute))
	t.Logf("private: %d send + %d edit + %d delete = %.2f calls a move; answerCallbackQuery %d; 429: %d",
		private.send, private.edit, private.del, per(private.send+private.edit+private.del), answers, tooMany)
	t.Logf("move → table: p50 %.1f s, p99 %.1f s (%d moves)", pct(0.5).Seconds(), pct(0.99).Seconds(), len(lat))
	if tooMany > 0 {
		t.Errorf("%d answers 429", tooMany)
	}
}
