// Command practicecalls measures what a practice table costs in Bot API
// calls: for each game, one simulated person opens a practice table in
// their private chat (/newgame <game>), plays it to the end against robots
// of the default level at a human pace (the robots pause AI_DELAY's
// default before a move, as deployed), and the fake Bot API (with
// Telegram's limits on) counts the calls to that chat. It prints one JSON
// line per game: moves applied (the person's and the robots'), calls by
// kind (answerCallbackQuery aside: one per press, not rate-limited), calls
// per move, 429s and the busiest second of the chat. Games
// play at once, one person each, as on a real bot.
//
//	go run ./cmd/practicecalls -redis redis://127.0.0.1:6379/0
//	go run ./cmd/practicecalls -game chef -pace 2s
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/cmd/internal/games"
	"github.com/trickchef/trickchef/cmd/internal/measure"
	"github.com/trickchef/trickchef/store"
)

// result is one game's line.
type result struct {
	Game        string  `json:"game"`
	Seconds     float64 `json:"seconds"`
	Moves       int     `json:"moves"`
	PersonMoves int     `json:"person_moves"`
	Sends       int     `json:"sends"`
	Edits       int     `json:"edits"`
	Deletes     int     `json:"deletes"`
	TooMany     int     `json:"too_many"`
	PerMove     float64 `json:"calls_per_move"`
	PeakSecond  int     `json:"peak_calls_in_a_second"`
}

func main() {
	only := flag.String("game", "", "one game's id (default: every game)")
	pace := flag.Duration("pace", time.Second, "the person's mean thinking time per move")
	aiDelay := flag.Duration("ai-delay", bot.DefaultConfig().AIDelay, "the robots' pause before a move (AI_DELAY)")
	redisURL := flag.String("redis", measure.EnvOr("REDIS_URL", "redis://127.0.0.1:6379/0"), "Redis to use")
	timeout := flag.Duration("timeout", 30*time.Minute, "give up after")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	out, err := run(ctx, *only, *pace, *aiDelay, *redisURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, r := range out {
		line, _ := json.Marshal(r)
		fmt.Println(string(line))
	}
}

func run(ctx context.Context, only string, pace, aiDelay time.Duration, redisURL string) ([]result, error) {
	st, srv, closeAll, err := measure.Open(ctx, redisURL, "practicecalls")
	if err != nil {
		return nil, err
	}
	defer closeAll()
	h := &bottest.Harness{Srv: srv, Store: st, Games: games.All(), Cfg: bot.Config{AIDelay: aiDelay}, Log: zerolog.New(os.Stderr).Level(zerolog.WarnLevel)}
	if err := h.Start(); err != nil {
		return nil, err
	}
	defer h.Stop()
	var ids []string
	for _, g := range games.All() {
		if only == "" || g.ID() == only {
			ids = append(ids, g.ID())
		}
	}
	out := make([]result, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = play(ctx, h, st, srv, id, pace, uint64(i))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// play has one new person play a practice game of id to the end and
// counts the calls to their chat meanwhile.
func play(ctx context.Context, h *bottest.Harness, st *store.Redis, srv *telegramtest.Server, id string, pace time.Duration, seed uint64) (result, error) {
	u := srv.NewUser("Игрок " + id)
	if err := h.Begin(u); err != nil {
		return result{}, err
	}
	chat := u.PrivateChat()
	u.Send(chat, "/newgame "+id)
	lobby, err := chat.WaitMessage(time.Minute, bottest.HasButton(h.T("lobby.start_button")))
	if err != nil {
		return result{}, fmt.Errorf("%s: no practice lobby: %w", id, err)
	}
	start := time.Now()
	if err := h.StartGame(u, lobby); err != nil {
		return result{}, fmt.Errorf("%s: %w", id, err)
	}
	mine := strconv.FormatInt(u.ID(), 10)
	done := make(chan struct{})
	wait := h.PlayerAt(u, mine, done, bottest.HumanPace(pace, rand.New(rand.NewPCG(seed, 1))))
	again := h.T("again.button")
	_, err = chat.WaitMessage(time.Until(deadline(ctx)), func(m *telegramtest.Message) bool {
		b, ok := m.Button(again)
		return ok && strings.HasPrefix(b.CallbackData, "n:"+mine+":")
	})
	close(done)
	wait()
	if err != nil {
		return result{}, fmt.Errorf("%s: the game did not end: %w", id, err)
	}
	// Let the last deliveries go out before counting.
	time.Sleep(3 * time.Second)
	end := time.Now()
	rec, err := st.Load(ctx, mine)
	if err != nil {
		return result{}, err
	}
	t, err := record.Decode(rec.Data)
	if err != nil {
		return result{}, err
	}
	r := result{Game: id, Seconds: end.Sub(start).Seconds(), Moves: len(t.Log)}
	for _, m := range t.Log {
		if !m.Auto {
			r.PersonMoves++
		}
	}
	var mineCalls []telegramtest.Call
	for _, c := range srv.Calls() {
		if c.Time.Before(start) || c.Time.After(end) {
			continue
		}
		if c.ChatID != u.ID() { // answerCallbackQuery names no chat: not counted
			continue
		}
		if c.ErrorCode == 429 {
			r.TooMany++
			continue
		}
		mineCalls = append(mineCalls, c)
		switch c.Method {
		case "sendMessage":
			r.Sends++
		case "editMessageText", "editMessageReplyMarkup":
			r.Edits++
		case "deleteMessage", "deleteMessages":
			r.Deletes++
		}
	}
	r.PeakSecond = telegramtest.Peak(mineCalls, 0, time.Second)
	if r.Moves > 0 {
		r.PerMove = float64(r.Sends+r.Edits+r.Deletes) / float64(r.Moves)
	}
	return r, nil
}

func deadline(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(time.Hour)
}
