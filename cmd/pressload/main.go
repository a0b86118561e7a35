// Command pressload measures how fast the bot answers button presses
// while its tables are busy: N groups play at once through the fake Bot
// API (Telegram's limits on) over a real Redis, and every person presses
// whatever they see — hands, the lobby, rules pages, /stop questions, old
// messages — and sends commands, at human pace, while one person floods
// at -flood presses a second. It reports press → answer for everyone but
// the flooder, the presses never answered within Telegram's spinner time,
// and the 429 answers the bot drew.
//
//	go run ./cmd/pressload -tables 6 -seconds 60
//
// The last line is one JSON object with the numbers.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/cmd/internal/games"
	"github.com/trickchef/trickchef/cmd/internal/measure"
)

// result is what one run found; latencies in milliseconds.
type result struct {
	Game        string  `json:"game"`
	Tables      int     `json:"tables"`
	People      int     `json:"people_per_table"`
	Seconds     float64 `json:"seconds"`
	FloodPerSec float64 `json:"flood_per_s"`
	Presses     int     `json:"presses"` // by everyone but the flooder
	Commands    int     `json:"commands"`
	Unanswered  int     `json:"unanswered"` // by everyone but the flooder
	P50ms       float64 `json:"answer_p50_ms"`
	P99ms       float64 `json:"answer_p99_ms"`
	Maxms       float64 `json:"answer_max_ms"`
	// TooFast counts the presses of people at human pace told to slow
	// down (should be 0); FloodPresses, FloodTooFast and FloodUnanswered
	// are the flooder's.
	TooFast         int `json:"too_fast"`
	FloodPresses    int `json:"flood_presses"`
	FloodTooFast    int `json:"flood_too_fast"`
	FloodUnanswered int `json:"flood_unanswered"`
	HTTP429         int `json:"http_429"`
}

func main() {
	tables := flag.Int("tables", 6, "groups playing at once")
	people := flag.Int("people", 4, "people at each table")
	gameID := flag.String("game", "trickchef", "game to play")
	seconds := flag.Duration("for", time.Minute, "how long the people press")
	flood := flag.Float64("flood", 20, "presses a second of the flooding person (at the first table; 0: nobody floods)")
	redisURL := flag.String("redis", measure.EnvOr("REDIS_URL", "redis://127.0.0.1:6379/0"), "Redis to use")
	seed := flag.Uint64("seed", 1, "seed of the people's choices and pace")
	turnTimeout := flag.Duration("turn-timeout", 5*time.Second, "the bot's turn timeout")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := run(ctx, *gameID, *tables, *people, *seconds, *flood, *redisURL, *seed, *turnTimeout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pressload:", err)
		os.Exit(1)
	}
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
}

func run(ctx context.Context, gameID string, n, people int, dur time.Duration, flood float64, redisURL string, seed uint64, turnTimeout time.Duration) (result, error) {
	res := result{Game: gameID, Tables: n, People: people, Seconds: dur.Seconds(), FloodPerSec: flood}
	if people < 1 || people > measure.MaxPeople {
		return res, fmt.Errorf("1-%d people per table", measure.MaxPeople)
	}
	st, srv, closeAll, err := measure.Open(ctx, redisURL, "pressload")
	if err != nil {
		return res, err
	}
	defer closeAll()
	h := &bottest.Harness{
		Srv: srv, Store: st, Games: games.All(),
		Cfg: bot.Config{TurnTimeout: turnTimeout},
		Log: zerolog.New(os.Stderr).Level(zerolog.WarnLevel),
	}
	if err := h.Start(); err != nil {
		return res, err
	}
	defer h.Stop()
	texts, err := bottest.NewTexts()
	if err != nil {
		return res, err
	}
	seats := make([]*measure.Table, n)
	for i := range seats {
		seats[i] = measure.NewTable(srv, i, people)
	}
	setup := measure.Setup{H: h, Store: st, Game: gameID, Wait: 2 * time.Minute}
	if err := setup.Seat(ctx, seats); err != nil {
		return res, err
	}
	if err := measure.Parallel(n, 8, func(i int) error { return setup.StartGame(ctx, seats[i]) }); err != nil {
		return res, err
	}

	groupCmds := []string{"/rules", "/table", "/stats", "/top", "/history", "/help", "/rules " + gameID}
	privateCmds := []string{"/rules", "/help", "/stats", "/start"}
	commands := map[int64][]string{}
	for _, t := range seats {
		commands[t.Group.ID()] = groupCmds
		for _, u := range t.People {
			commands[u.ID()] = privateCmds
		}
	}
	done := make(chan struct{})
	type person struct {
		flooder bool
		stats   func() bottest.CuriousStats
	}
	var all []person
	for i, t := range seats {
		for j, u := range t.People {
			pace := bottest.Pace(200*time.Millisecond, 800*time.Millisecond, seed+uint64(i)<<8|uint64(j))
			flooder := i == 0 && j == len(t.People)-1 && flood > 0
			if flooder {
				every := time.Duration(float64(time.Second) / flood)
				pace = func() time.Duration { return every }
			}
			rng := rand.New(rand.NewPCG(seed, uint64(i)<<8|uint64(j)))
			chats := []*telegramtest.Chat{u.PrivateChat(), t.Group}
			all = append(all, person{flooder, bottest.Curious(u, chats, commands, done, pace, rng)})
		}
	}
	if !measure.Sleep(ctx, dur) {
		close(done)
		return res, ctx.Err()
	}
	close(done)

	tooFast := texts.T("error.too_fast")
	var lat []time.Duration
	for _, p := range all {
		s := p.stats()
		if p.flooder {
			res.FloodPresses += s.Presses
			res.FloodTooFast += s.Answers[tooFast]
			res.FloodUnanswered += len(s.Unanswered)
			continue
		}
		res.Presses += s.Presses
		res.Commands += s.Commands
		res.Unanswered += len(s.Unanswered)
		res.TooFast += s.Answers[tooFast]
		lat = append(lat, s.Latency...)
	}
	slices.Sort(lat)
	res.P50ms, res.P99ms = ms(quantile(lat, 0.50)), ms(quantile(lat, 0.99))
	if len(lat) > 0 {
		res.Maxms = ms(lat[len(lat)-1])
	}
	res.HTTP429 = srv.TooManyRequestsCount()
	return res, nil
}

// quantile of sorted durations (nearest rank); 0 for none.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
