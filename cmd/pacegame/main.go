// Command pacegame plays whole games of Трик-н-Шеф through the real bot,
// against the fake Bot API server with Telegram's rate limits on, with
// simulated people thinking at a human pace, over a real Redis. It reports
// what Telegram would see: calls to the group per game, the most in any
// 60 s, 429 answers, and how long the bot took to answer button presses.
//
//	go run ./cmd/pacegame -people 4 -pace 3s
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
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

type report struct {
	People          int     `json:"people"`
	Robots          int     `json:"robots"`
	PaceSeconds     float64 `json:"pace_s"`
	GameSeconds     float64 `json:"game_s"`
	GroupCalls      int     `json:"group_calls"`
	GroupPeakPerMin int     `json:"group_peak_per_min"`
	PrivateCalls    int     `json:"private_calls"`
	TooMany         int     `json:"http_429"`
	Presses         int     `json:"presses"`
	AnswerP50ms     float64 `json:"answer_p50_ms"`
	AnswerP99ms     float64 `json:"answer_p99_ms"`
	AnswerMaxms     float64 `json:"answer_max_ms"`
	TableP50ms      float64 `json:"move_to_table_p50_ms"`
	TableP99ms      float64 `json:"move_to_table_p99_ms"`
}

func main() {
	people := flag.Int("people", 4, "people at the table (1-4)")
	robots := flag.Int("robots", 0, "robots at the table")
	pace := flag.Duration("pace", 3*time.Second, "mean thinking time of a person per move")
	redisURL := flag.String("redis", envOr("REDIS_URL", "redis://127.0.0.1:6379/0"), "Redis to use")
	seed := flag.Uint64("seed", 1, "seed of the people's thinking times")
	timeout := flag.Duration("timeout", time.Hour, "give up after")
	flag.Parse()
	if *people < 1 || *people+*robots < 3 || *people+*robots > 4 {
		fmt.Fprintln(os.Stderr, "pacegame: need 1-4 people and 3-4 seats in all")
		os.Exit(2)
	}
	rep, err := run(*people, *robots, *pace, *redisURL, *seed, *timeout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pacegame:", err)
		os.Exit(1)
	}
	fmt.Printf("game of %d people + %d robots at %v a move: %.0f s\n", rep.People, rep.Robots, *pace, rep.GameSeconds)
	fmt.Printf("group chat: %d calls, at most %d in any 60 s (limit 20); private chats: %d calls; 429 answers: %d\n",
		rep.GroupCalls, rep.GroupPeakPerMin, rep.PrivateCalls, rep.TooMany)
	fmt.Printf("button presses: %d, answered in p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
		rep.Presses, rep.AnswerP50ms, rep.AnswerP99ms, rep.AnswerMaxms)
	fmt.Printf("move → group table showing it: p50 %.0f ms, p99 %.0f ms\n", rep.TableP50ms, rep.TableP99ms)
	out, _ := json.Marshal(rep)
	fmt.Println(string(out))
}

// moveToTable measures, for every answered button press of the game, how
// long until the next successful call that redrew the group's message: the
// table is always drawn from the latest state, so that call shows the move.
func moveToTable(calls []telegramtest.Call, groupID int64, since time.Time) (p50, p99 float64) {
	var presses, draws []time.Time
	for _, c := range calls {
		if c.Time.Before(since) || !c.OK {
			continue
		}
		switch {
		case c.Method == "answerCallbackQuery":
			presses = append(presses, c.Time)
		case c.ChatID == groupID && (c.Method == "editMessageText" || c.Method == "sendMessage"):
			draws = append(draws, c.Time)
		}
	}
	var lat []time.Duration
	for _, p := range presses {
		i := sort.Search(len(draws), func(i int) bool { return !draws[i].Before(p) })
		if i < len(draws) {
			lat = append(lat, draws[i].Sub(p))
		}
	}
	if len(lat) == 0 {
		return 0, 0
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(d time.Duration) float64 { return float64(d.Milliseconds()) }
	return ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100])
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func run(people, robots int, pace time.Duration, redisURL string, seed uint64, timeout time.Duration) (report, error) {
	ctx := context.Background()
	prefix := "pacegame:" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"
	st, err := store.DialRedis(ctx, redisURL, prefix)
	if err != nil {
		return report{}, err
	}
	defer st.Close()
	srv := telegramtest.NewServer() // Telegram's limits, on
	defer srv.Close()
	var mu sync.Mutex
	var answers []time.Duration
	h := &bottest.Harness{
		Srv:   srv,
		Store: st,
		Games: []bot.Game{bot.Trickchef()},
		Cfg:   bot.Config{TurnTimeout: time.Minute},
		Log:   zerolog.New(os.Stderr).Level(zerolog.WarnLevel),
		Answered: func(d time.Duration) {
			mu.Lock()
			answers = append(answers, d)
			mu.Unlock()
		},
	}
	if err := h.Start(); err != nil {
		return report{}, err
	}
	defer h.Stop()
	names := []string{"Аня", "Борис", "Вера", "Глеб"}
	var us []*telegramtest.User
	for i := 0; i < people; i++ {
		u := srv.NewUser(names[i])
		if err := h.Begin(u); err != nil {
			return report{}, err
		}
		us = append(us, u)
	}
	group := srv.NewGroup("Темп", us...)
	lobby, err := h.Lobby(group, us[0], us[1:], robots)
	if err != nil {
		return report{}, err
	}
	mu.Lock()
	answers = nil // count the game's presses only
	mu.Unlock()
	start := time.Now()
	if err := h.StartGame(us[0], lobby); err != nil {
		return report{}, err
	}
	think := bottest.HumanPace(pace, rand.New(rand.NewPCG(seed, seed^0x5eed)))
	if _, err := h.PlayToEnd(group, us, timeout, think); err != nil {
		return report{}, err
	}
	rep := report{People: people, Robots: robots, PaceSeconds: pace.Seconds(), GameSeconds: time.Since(start).Seconds()}
	for chat, n := range srv.CallsPerChat() {
		if chat == group.ID() {
			rep.GroupCalls = n
		} else {
			rep.PrivateCalls += n
		}
	}
	rep.GroupPeakPerMin = srv.PeakCalls(group.ID(), time.Minute)
	rep.TableP50ms, rep.TableP99ms = moveToTable(srv.Calls(), group.ID(), start)
	rep.TooMany = srv.TooManyRequestsCount()
	mu.Lock()
	defer mu.Unlock()
	sort.Slice(answers, func(i, j int) bool { return answers[i] < answers[j] })
	rep.Presses = len(answers)
	if n := len(answers); n > 0 {
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		rep.AnswerP50ms = ms(answers[n/2])
		rep.AnswerP99ms = ms(answers[(n*99)/100])
		rep.AnswerMaxms = ms(answers[n-1])
	}
	_ = st.Delete(ctx, strconv.FormatInt(group.ID(), 10))
	return rep, nil
}
