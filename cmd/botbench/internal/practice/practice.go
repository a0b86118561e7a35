// Package practice is botbench's practice scenario: the Bot API calls a
// practice table costs in a person's private chat (its Doc below says
// how).
package practice

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/cmd/botbench/internal/bench"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/cmd/internal/measure"
	"github.com/trickchef/trickchef/store"
)

// Scenario is botbench practice.
func Scenario() bench.Scenario {
	return bench.Scenario{
		Name:     "practice",
		Summary:  "Bot API calls per move of a practice game in the private chat, per game",
		Doc:      doc,
		Flags:    []string{"game", "pace", "ai-delay", "for", "redis"},
		Defaults: map[string]string{"pace": "1s", "for": "30m"},
		Run:      runScenario,
	}
}

const doc = `
What a practice table costs in Bot API calls: for each game (or the one
given with -game), one simulated person opens a practice table in their
private chat (/newgame <game>), plays it to the end against robots of the
default level at a human pace (the robots pause -ai-delay before a move,
AI_DELAY's default as deployed), and the fake Bot API (with Telegram's
limits on) counts the calls to that chat. The games play at once, one
person each, as on a real bot. A line per game: moves applied (the
person's and the robots'), calls by kind (answerCallbackQuery aside: one
per press, not rate-limited), calls per move, 429s and the busiest second
of the chat; the last line has every game's.

	go run ./cmd/botbench practice
	go run ./cmd/botbench practice -game chef -pace 2s
`

// runScenario runs botbench practice: every game of -game at once.
func runScenario(ctx context.Context, o bench.Options, out io.Writer) (any, error) {
	gs, err := o.Games()
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(gs))
	for i, g := range gs {
		ids[i] = g.ID()
	}
	ctx, cancel := context.WithTimeout(ctx, o.For)
	defer cancel()
	res, err := run(ctx, config{Games: ids, Pace: o.Pace, AIDelay: o.AIDelay, RedisURL: o.Redis})
	if err != nil {
		return nil, err
	}
	for _, r := range res {
		fmt.Fprintf(out, "%-10s %4d moves (%d the person's) in %.0f s: %d sends, %d edits, %d deletes, %.2f calls a move, at most %d in a second, %d × 429\n",
			r.Game, r.Moves, r.PersonMoves, r.Seconds, r.Sends, r.Edits, r.Deletes, r.PerMove, r.PeakSecond, r.TooMany)
	}
	return map[string]any{"games": res}, nil
}

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

// config is one measurement.
type config struct {
	Games    []string      // the ids of the games played, one person each
	Pace     time.Duration // the person's mean thinking time per move
	AIDelay  time.Duration // the robots' pause before a move
	RedisURL string
	// Scaled runs Telegram's limits bottest.Speedup times faster, in the
	// fake Bot API and in the bot alike (for tests: a whole game in
	// seconds).
	Scaled bool
}

// run has one person play a practice game of each of cfg.Games, all at
// once.
func run(ctx context.Context, cfg config) ([]result, error) {
	botCfg := bot.Config{AIDelay: cfg.AIDelay}
	var opts []telegramtest.Option
	if cfg.Scaled {
		fake, ours := bottest.ScaledLimits()
		opts, botCfg.Limits = append(opts, telegramtest.WithLimits(fake)), ours
	}
	st, srv, closeAll, err := measure.Open(ctx, cfg.RedisURL, "practice", opts...)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	h := &bottest.Harness{Srv: srv, Store: st, Games: games.All(), Cfg: botCfg, Log: zerolog.New(os.Stderr).Level(zerolog.WarnLevel)}
	if err := h.Start(); err != nil {
		return nil, err
	}
	defer h.Stop()
	out := make([]result, len(cfg.Games))
	errs := make([]error, len(cfg.Games))
	var wg sync.WaitGroup
	for i, id := range cfg.Games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = play(ctx, h, st, srv, id, cfg.Pace, uint64(i))
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
		if !ok {
			return false
		}
		d, err := callback.Parse(b.CallbackData)
		return err == nil && d.Op == callback.Again && d.Table == mine
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
