// Package press is botbench's press scenario: how fast the bot answers
// button presses while its tables are busy and one person floods (its Doc
// below says how).
package press

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/cmd/botbench/internal/bench"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/cmd/internal/measure"
)

// Scenario is botbench press.
func Scenario() bench.Scenario {
	return bench.Scenario{
		Name:     "press",
		Summary:  "press → answer while tables are busy and one person floods (people pressing anything they see)",
		Doc:      doc,
		Flags:    []string{"game", "tables", "people", "for", "flood-rate", "reviews", "review-share", "seed", "turn-timeout", "redis"},
		Defaults: map[string]string{"game": "trickchef", "tables": "6", "turn-timeout": "5s"},
		Run:      runScenario,
	}
}

const doc = `
How fast the bot answers button presses while its tables are busy: N groups
play at once through the fake Bot API (Telegram's limits on) over a real
Redis, and every person presses whatever they see — hands, the lobby, rules
pages, /stop questions, old messages — and sends commands, at human pace
(a press every 0.2–0.8 s), while one person floods at -flood-rate presses a
second. It reports press → answer for everyone but the flooder, the presses
never answered within Telegram's spinner time, and the 429 answers the bot
drew.

With -reviews N, N reviews of whole Трик-н-Шеф games (robots' games kept as
a person's, each about a second of a core to review) are queued for the
bot's pool as the load starts: the answers must not slow down, the reviews
wait their turn; it reports how many were made within the run, and, once
the presses stop, waits for the rest (up to five minutes) and reports when
the last was made. -review-share 1 runs the pool unpaced.

	go run ./cmd/botbench press -tables 6 -for 60s
	go run ./cmd/botbench press -tables 6 -for 60s -reviews 120
`

// runScenario runs botbench press for the one table count of -tables.
func runScenario(ctx context.Context, o bench.Options, out io.Writer) (any, error) {
	g, err := o.OneGame()
	if err != nil {
		return nil, err
	}
	n, err := o.OneCount()
	if err != nil {
		return nil, err
	}
	if o.People < 1 || o.People > measure.MaxPeople {
		return nil, bench.Usagef("-people: 1-%d people per table", measure.MaxPeople)
	}
	if o.ReviewShare <= 0 || o.ReviewShare > 1 {
		return nil, bench.Usagef("-review-share: a part of a core, above 0 and at most 1")
	}
	res, err := run(ctx, params{Game: g.ID(), Tables: n, People: o.People, For: o.For, FloodRate: o.FloodRate,
		Reviews: o.Reviews, ReviewShare: o.ReviewShare, Redis: o.Redis, Seed: o.Seed, TurnTimeout: o.TurnTimeout})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "%s, %d tables of %d people, %.0f s, one person flooding at %.0f presses a second:\n", res.Game, res.Tables, res.People, res.Seconds, res.FloodPerSec)
	fmt.Fprintf(out, "  %d presses and %d commands by the others: %d never answered; answer p50 %.1f ms, p99 %.1f ms, max %.1f ms; %d told to slow down\n",
		res.Presses, res.Commands, res.Unanswered, res.P50ms, res.P99ms, res.Maxms, res.TooFast)
	fmt.Fprintf(out, "  the flooder: %d presses, %d told to slow down, %d never answered; 429 answers: %d\n",
		res.FloodPresses, res.FloodTooFast, res.FloodUnanswered, res.HTTP429)
	if res.Reviews > 0 {
		pool := fmt.Sprintf("the pool paced to %.2f of a core", res.ReviewShare)
		if res.ReviewShare >= 1 {
			pool = "the pool unpaced"
		}
		fmt.Fprintf(out, "  %d reviews queued at the start (%s): %d made within the run", res.Reviews, pool, res.ReviewsMade)
		if res.ReviewsDone == res.Reviews {
			fmt.Fprintf(out, ", the last %.1f s after the start\n", res.ReviewsSeconds)
		} else {
			fmt.Fprintf(out, ", %d of them %v after the run\n", res.ReviewsDone, reviewsWait)
		}
	}
	return res, nil
}

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
	// Reviews were queued at the start; ReviewsMade were kept by the end
	// of the presses, ReviewsDone once the pool had the machine to itself
	// (waited for up to reviewsWait), the last ReviewsSeconds after they
	// were queued (0 unless all were made).
	Reviews        int     `json:"reviews,omitempty"`
	ReviewShare    float64 `json:"review_share,omitempty"`
	ReviewsMade    int     `json:"reviews_made,omitempty"`
	ReviewsDone    int     `json:"reviews_done,omitempty"`
	ReviewsSeconds float64 `json:"reviews_s,omitempty"`
}

// params are one run's settings (the scenario's flags).
type params struct {
	Game        string
	Tables      int
	People      int
	For         time.Duration
	FloodRate   float64
	Reviews     int
	ReviewShare float64
	Redis       string
	Seed        uint64
	TurnTimeout time.Duration
}

// reviewsWait bounds the wait for queued reviews once the presses stop.
const reviewsWait = 5 * time.Minute

func run(ctx context.Context, p params) (result, error) {
	gameID, n, people, seed := p.Game, p.Tables, p.People, p.Seed
	res := result{Game: gameID, Tables: n, People: people, Seconds: p.For.Seconds(), FloodPerSec: p.FloodRate, Reviews: p.Reviews}
	if p.Reviews > 0 {
		res.ReviewShare = p.ReviewShare
	}
	st, srv, closeAll, err := measure.Open(ctx, p.Redis, "press")
	if err != nil {
		return res, err
	}
	defer closeAll()
	h := &bottest.Harness{
		Srv: srv, Store: st, Games: games.All(),
		Cfg: bot.Config{TurnTimeout: p.TurnTimeout, ReviewShare: p.ReviewShare},
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
	queuedAt := time.Now()
	queued, err := queueReviews(ctx, st, p.Reviews, seed)
	if err != nil {
		return res, err
	}
	h.Bot.Reviews.Wake()
	done := make(chan struct{})
	type person struct {
		flooder bool
		stats   func() bottest.CuriousStats
	}
	var all []person
	for i, t := range seats {
		for j, u := range t.People {
			pace := bottest.Pace(200*time.Millisecond, 800*time.Millisecond, seed+uint64(i)<<8|uint64(j))
			flooder := i == 0 && j == len(t.People)-1 && p.FloodRate > 0
			if flooder {
				every := time.Duration(float64(time.Second) / p.FloodRate)
				pace = func() time.Duration { return every }
			}
			rng := rand.New(rand.NewPCG(seed, uint64(i)<<8|uint64(j)))
			chats := []*telegramtest.Chat{u.PrivateChat(), t.Group}
			all = append(all, person{flooder, bottest.Curious(u, chats, commands, done, pace, rng)})
		}
	}
	if !measure.Sleep(ctx, p.For) {
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
	res.P50ms, res.P99ms = measure.Quantile(lat, 0.50), measure.Quantile(lat, 0.99)
	if len(lat) > 0 {
		res.Maxms = measure.Ms(lat[len(lat)-1])
	}
	res.HTTP429 = srv.TooManyRequestsCount()
	res.ReviewsMade = reviewsMade(ctx, st, queued)
	res.ReviewsDone = res.ReviewsMade
	for deadline := time.Now().Add(reviewsWait); res.ReviewsDone < len(queued) && time.Now().Before(deadline); {
		if !measure.Sleep(ctx, 100*time.Millisecond) {
			return res, ctx.Err()
		}
		res.ReviewsDone = reviewsMade(ctx, st, queued)
	}
	if len(queued) > 0 && res.ReviewsDone == len(queued) {
		res.ReviewsSeconds = time.Since(queuedAt).Seconds()
	}
	return res, nil
}
