// Package cup is botbench's cup scenario: a group's cup of simulated
// people played to its end at full pace through the real bot, and what
// Telegram sees of it (its Doc below says how).
package cup

import (
	"context"
	"fmt"
	"io"
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
	"github.com/trickchef/trickchef/cmd/botbench/internal/bench"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/cmd/internal/measure"
	"github.com/trickchef/trickchef/store"
)

// Scenario is botbench cup.
func Scenario() bench.Scenario {
	return bench.Scenario{
		Name:     "cup",
		Summary:  "a group's cup of people at full pace played to its end: calls per move, the cup message's edits a minute",
		Doc:      doc,
		Flags:    []string{"game", "people", "rounds", "seed", "ai-delay", "for", "redis"},
		Defaults: map[string]string{"game": "trickchef", "people": "16", "for": "30m"},
		Run:      runScenario,
	}
}

const doc = `
What a group's cup costs in Bot API calls. -people simulated people
(3–16) of one group open /cup <game> <rounds> (docs/bot.md «Cups»): the
first sends the command, the others press «✋ Участвую», the first starts
it. Then everyone presses a random one of their newest hand's buttons as
soon as it shows (full pace: no thinking time), at whichever table the
round seats them, until the group gets the message that names the cup's
winner; the run ends when every table's and the cup's changes are
delivered. The bot is one process against the fake Bot API with
Telegram's limits on (20 calls a minute per group, 3 per 3 s per private
chat, 30 a second overall) and a real Redis.

Reported: the moves applied (every game's log, the bot's moves
included), the Bot API calls (answerCallbackQuery apart: one per press,
not rate-limited; calls refused with 429 only as 429s) to the group and
to the private chats (sends, edits and deletes; the polling and the
membership checks apart), calls per move, the edits of the cup's own message
(its lobby, its rounds, its standings) and the most of them in any 60 s,
the most calls to the group in any 60 s (limit 20), the 429s (want 0)
and the wall time from the start press.

	go run ./cmd/botbench cup
	go run ./cmd/botbench cup -people 8 -rounds 2
`

// runScenario runs botbench cup.
func runScenario(ctx context.Context, o bench.Options, out io.Writer) (any, error) {
	g, err := o.OneGame()
	if err != nil {
		return nil, err
	}
	if o.People < 3 || o.People > 16 {
		return nil, bench.Usagef("-people: a cup takes 3 to 16 people, not %d", o.People)
	}
	if o.Rounds < 1 || o.Rounds > 10 {
		return nil, bench.Usagef("-rounds: 1 to 10, not %d", o.Rounds)
	}
	ctx, cancel := context.WithTimeout(ctx, o.For)
	defer cancel()
	res, err := run(ctx, config{Game: g.ID(), People: o.People, Rounds: o.Rounds, Seed: o.Seed,
		AIDelay: o.AIDelay, RedisURL: o.Redis, Log: os.Stderr})
	if res == nil {
		return nil, err
	}
	report(out, res)
	return res, err
}

// report prints a run's numbers.
func report(w io.Writer, r *Result) {
	fmt.Fprintf(w, "cup of %s, %d people, %d rounds: %d games, %d moves (%d by the bot) in %.0f s; the cup's end after %.0f s\n",
		r.Game, r.People, r.Rounds, r.Games, r.Moves, r.AutoMoves, r.Seconds, r.WinnerSeconds)
	fmt.Fprintf(w, "winner: %s\n", r.Winner)
	fmt.Fprintf(w, "Bot API calls: %d (group %d, private %d), %.2f a move; answerCallbackQuery %d; 429 answers: %d\n",
		r.Calls, r.GroupCalls, r.PrivateCalls, r.PerMove, r.Answers, r.TooMany)
	fmt.Fprintf(w, "the cup's message: %d edits, at most %d in any 60 s; the group: at most %d calls in any 60 s (limit 20)\n",
		r.CupEdits, r.CupEditsPeakMinute, r.GroupPeakMinute)
	fmt.Fprintf(w, "presses: %d (%d refused, %d not answered)\n", r.Presses, r.Refused, r.PressErrors)
}

// config is one measurement.
type config struct {
	Game     string
	People   int
	Rounds   int
	Seed     uint64
	AIDelay  time.Duration
	RedisURL string
	// Log receives the bot's warnings (nil: none).
	Log io.Writer
	// Scaled runs Telegram's limits bottest.Speedup times faster, in the
	// fake Bot API and in the bot alike (for tests: a cup in seconds).
	Scaled bool
}

// Result is the last line's JSON.
type Result struct {
	Game   string `json:"game"`
	People int    `json:"people"`
	Rounds int    `json:"rounds"`
	// Seconds runs from the start press until every change was delivered;
	// WinnerSeconds until the winner's message showed.
	Seconds       float64 `json:"seconds"`
	WinnerSeconds float64 `json:"winner_seconds"`
	Winner        string  `json:"winner"` // the winner's message's first line
	Games         int     `json:"games"`  // the cup's games played
	// Moves are the actions applied, from the games' logs; AutoMoves are
	// those the bot made (robots, timeouts, the deal).
	Moves     int `json:"moves"`
	AutoMoves int `json:"auto_moves"`
	// Calls are the sends, edits and deletes to the group and to the
	// private chats, the 429s apart (answerCallbackQuery: Answers).
	Calls        int     `json:"calls"`
	GroupCalls   int     `json:"group_calls"`
	PrivateCalls int     `json:"private_calls"`
	PerMove      float64 `json:"calls_per_move"`
	Answers      int     `json:"answer_callback_queries"`
	TooMany      int     `json:"too_many"`
	// CupEdits are the edits of the cup's own message, its peak in any
	// 60 s; GroupPeakMinute is every call to the group's.
	CupEdits           int `json:"cup_edits"`
	CupEditsPeakMinute int `json:"cup_edits_peak_per_min"`
	GroupPeakMinute    int `json:"group_peak_per_min"`
	Presses            int `json:"presses"`
	Refused            int `json:"refused"`
	PressErrors        int `json:"press_errors"`
}

// run plays one cup to its end and counts what Telegram saw.
func run(ctx context.Context, cfg config) (*Result, error) {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	botCfg := bot.Config{AIDelay: cfg.AIDelay}
	var opts []telegramtest.Option
	if cfg.Scaled {
		fake, ours := bottest.ScaledLimits()
		opts, botCfg.Limits = append(opts, telegramtest.WithLimits(fake)), ours
	}
	st, srv, closeAll, err := measure.Open(ctx, cfg.RedisURL, "cup", opts...)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	srv.KeepParams() // the message an edit is of: the cup's, or another
	lg := &logged{Redis: st, games: map[string]gameMoves{}, ids: map[string]bool{}}
	h := &bottest.Harness{Srv: srv, Store: lg, Games: games.All(), Cfg: botCfg,
		Log: zerolog.New(cfg.Log).Level(zerolog.WarnLevel)}
	if err := h.Start(); err != nil {
		return nil, err
	}
	defer h.Stop()

	people := make([]*telegramtest.User, cfg.People)
	for i := range people {
		people[i] = srv.NewUser("Игрок " + strconv.Itoa(i+1))
		if err := h.Begin(people[i]); err != nil {
			return nil, err
		}
	}
	group := srv.NewGroup("Кубок", people...)
	people[0].Send(group, "/cup@"+srv.Bot().Username+" "+cfg.Game+" "+strconv.Itoa(cfg.Rounds))
	lobby, err := group.WaitMessage(time.Minute, bottest.HasButton(h.T("cup.join_button")))
	if err != nil {
		return nil, fmt.Errorf("no cup lobby: %w", err)
	}
	for _, u := range people[1:] {
		ans, err := u.Press(lobby, h.T("cup.join_button"))
		if err != nil {
			return nil, fmt.Errorf("%s joining the cup: %w", u.User().FirstName, err)
		}
		if ans.Text != h.T("cup.joined") {
			return nil, fmt.Errorf("%s joining the cup: answered %q", u.User().FirstName, ans.Text)
		}
	}

	start := time.Now()
	ans, err := people[0].Press(lobby, h.T("cup.start_button"))
	if err != nil {
		return nil, fmt.Errorf("starting the cup: %w", err)
	}
	if ans.Text != h.T("cup.started_toast") {
		return nil, fmt.Errorf("starting the cup: answered %q", ans.Text)
	}
	done := make(chan struct{})
	waits := make([]func() presses, len(people))
	for i, u := range people {
		waits[i] = player(h, u, done, rand.New(rand.NewPCG(cfg.Seed, uint64(i))))
	}
	final, err := group.WaitMessage(time.Until(deadline(ctx)), winner(h, cfg.Game))
	won := time.Now()
	close(done)
	res := &Result{Game: cfg.Game, People: cfg.People, Rounds: cfg.Rounds, WinnerSeconds: won.Sub(start).Seconds()}
	for _, w := range waits {
		s := w()
		res.Presses += s.made
		res.Refused += s.refused
		res.PressErrors += s.failed
	}
	if err != nil {
		return nil, fmt.Errorf("the cup did not end: %w", err)
	}
	res.Winner, _, _ = strings.Cut(final.Text, "\n")
	if n := lg.settle(ctx); n > 0 {
		fmt.Fprintf(cfg.Log, "cup: %d tables still delivering when counted\n", n)
	}
	end := time.Now()
	res.Seconds = end.Sub(start).Seconds()
	res.Games, res.Moves, res.AutoMoves = lg.count()
	count(res, srv.Calls(), start, end, group.ID(), lobby.ID)
	if res.Moves > 0 {
		res.PerMove = float64(res.Calls) / float64(res.Moves)
	}
	if res.TooMany > 0 {
		return res, fmt.Errorf("%d calls refused with 429", res.TooMany)
	}
	return res, nil
}

// count puts the calls from start to end into res: group is the cup's
// group, cupMsg the cup's own message there.
func count(res *Result, calls []telegramtest.Call, start, end time.Time, group int64, cupMsg int) {
	var kept, cupEdits []telegramtest.Call
	msg := strconv.Itoa(cupMsg)
	for _, c := range calls {
		if c.Time.Before(start) || c.Time.After(end) {
			continue
		}
		switch {
		case c.ErrorCode == 429:
			res.TooMany++
			continue
		case c.Method == "answerCallbackQuery":
			res.Answers++
			continue
		case c.ChatID == 0 || !posts(c.Method):
			continue // getUpdates, getChatMember, …: not a chat's budget
		}
		res.Calls++
		kept = append(kept, c)
		switch {
		case c.ChatID == group:
			res.GroupCalls++
			if strings.HasPrefix(c.Method, "editMessage") && c.Params["message_id"] == msg {
				cupEdits = append(cupEdits, c)
			}
		case c.ChatID > 0:
			res.PrivateCalls++
		}
	}
	res.CupEdits = len(cupEdits)
	res.CupEditsPeakMinute = telegramtest.Peak(cupEdits, group, time.Minute)
	res.GroupPeakMinute = telegramtest.Peak(kept, group, time.Minute)
}

// posts reports whether method changes what a chat shows: the calls
// Telegram's limits count.
func posts(method string) bool {
	for _, p := range []string{"send", "edit", "delete"} {
		if strings.HasPrefix(method, p) {
			return true
		}
	}
	return false
}

// winner matches the message that names the cup's winner (or winners).
func winner(h *bottest.Harness, game string) func(*telegramtest.Message) bool {
	title := h.T(game + ".title")
	one, _ := h.Around("cup.winner", "Names", "Game", title)
	many, _ := h.Around("cup.winners", "Names", "Game", title)
	return func(m *telegramtest.Message) bool {
		return strings.HasPrefix(m.Text, one) || strings.HasPrefix(m.Text, many)
	}
}

func deadline(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(time.Hour)
}

// logged is the bot's store, noting every committed game's log: a cup's
// tables deal a new game each round under the same ids, so the moves are
// counted as they are committed, not read at the end.
type logged struct {
	*store.Redis
	mu    sync.Mutex
	games map[string]gameMoves // by table, game number and seed
	ids   map[string]bool      // every table committed
}

// gameMoves is one game's log as last committed.
type gameMoves struct{ moves, auto int }

// Commit commits, then notes the table's game's log.
func (l *logged) Commit(ctx context.Context, table string, c store.Change) (int64, error) {
	v, err := l.Redis.Commit(ctx, table, c)
	if err != nil || c.OnlyQueue || len(c.Data) == 0 {
		return v, err
	}
	t, derr := record.Decode(c.Data)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids[table] = true
	if derr != nil || len(t.Log) == 0 {
		return v, err
	}
	g := gameMoves{moves: len(t.Log)}
	for _, m := range t.Log {
		if m.Auto {
			g.auto++
		}
	}
	key := table + "/" + strconv.Itoa(t.GameNo) + "/" + strconv.FormatUint(t.Seed, 36)
	if g.moves >= l.games[key].moves {
		l.games[key] = g
	}
	return v, err
}

// count sums the games' logs.
func (l *logged) count() (games, moves, auto int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, g := range l.games {
		games++
		moves += g.moves
		auto += g.auto
	}
	return games, moves, auto
}

// settle waits until every table committed has its views drawn and its
// announcements sent, and returns how many still had work when it gave
// up.
func (l *logged) settle(ctx context.Context) int {
	l.mu.Lock()
	var ids []string
	for id := range l.ids {
		ids = append(ids, id)
	}
	l.mu.Unlock()
	give := time.Now().Add(2 * time.Minute)
	for {
		pending := 0
		for _, id := range ids {
			dirty, err := l.Dirty(ctx, id)
			if err != nil || len(dirty) > 0 {
				pending++
				continue
			}
			if out, err := l.Outbox(ctx, id, 1); err != nil || len(out) > 0 {
				pending++
			}
		}
		if pending == 0 || time.Now().After(give) || !measure.Sleep(ctx, 200*time.Millisecond) {
			// The last calls of a delivery land a moment after its record.
			measure.Sleep(ctx, time.Second)
			return pending
		}
	}
}

// presses are what one simulated person did.
type presses struct{ made, refused, failed int }

// player is a person at full pace: whenever their newest hand shows
// something new, they press one of its playable buttons at random, at
// once (cards in brackets are not playable; the bot would refuse them).
// A press that changed nothing (lost to a race) is made again after a
// while. It stops when done is closed; the returned function waits for
// that and tells what it did.
func player(h *bottest.Harness, u *telegramtest.User, done <-chan struct{}, rng *rand.Rand) func() presses {
	const stuck = 5 * time.Second
	var p presses
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var last string
		var lastAt time.Time
		for {
			var msg *telegramtest.Message
			var choices []string
			_ = h.Srv.WaitFor(200*time.Millisecond, func() bool {
				select {
				case <-done:
					return true
				default:
				}
				m, cs := hand(u)
				if m == nil || (signature(m) == last && time.Since(lastAt) < stuck) {
					return false
				}
				msg, choices = m, cs
				return true
			})
			select {
			case <-done:
				return
			default:
			}
			if msg == nil {
				continue
			}
			last, lastAt = signature(msg), time.Now()
			ans, err := u.PressData(msg, choices[rng.IntN(len(choices))])
			p.made++
			switch {
			case err != nil:
				p.failed++
			case !h.Accepted(ans.Text):
				p.refused++
			}
		}
	}()
	return func() presses { <-finished; return p }
}

// hand finds the newest message of u's private chat with playable
// buttons, and their payloads.
func hand(u *telegramtest.User) (*telegramtest.Message, []string) {
	msgs := u.PrivateChat().Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		var choices []string
		for _, b := range msgs[i].Buttons() {
			if strings.HasPrefix(b.CallbackData, "a:") && !strings.HasPrefix(b.Text, "(") {
				choices = append(choices, b.CallbackData)
			}
		}
		if len(choices) > 0 {
			return msgs[i], choices
		}
	}
	return nil, nil
}

// signature identifies what a message shows, so a person presses once
// per version of it.
func signature(m *telegramtest.Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d\x00%s", m.ID, m.Text)
	for _, bt := range m.Buttons() {
		b.WriteString("\x00" + bt.CallbackData)
	}
	return b.String()
}
