package pace

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
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
	"github.com/trickchef/trickchef/cmd/internal/webpage"
	"github.com/trickchef/trickchef/store"
)

// config is one measurement: one bot process, one fake Bot API server with
// Telegram's limits on, one Redis, and Tables tables of simulated people.
type config struct {
	Game   string
	Tables int
	People int // simulated people per table
	Robots int // robots per table
	// Pace is a person's mean thinking time per move; each move takes
	// uniformly between half and one and a half of it.
	Pace time.Duration
	// Moves stops each table after this many applied moves; 0 plays every
	// game to its end.
	Moves       int
	Seed        uint64
	TurnTimeout time.Duration
	// Timeout bounds the whole measurement.
	Timeout  time.Duration
	RedisURL string
	// Log receives the bot's warnings.
	Log io.Writer
	// Pages has every person keep the table's web page open and visible
	// and play through it instead of the chat's buttons.
	Pages bool
	// GroupHands has the bot offer the hand in the group and every person
	// open it once and play only from it.
	GroupHands bool
}

// result is what one measurement found. Latencies are in milliseconds.
type result struct {
	Game          string  `json:"game"`
	Tables        int     `json:"tables"`
	People        int     `json:"people"`
	Robots        int     `json:"robots"`
	PaceSeconds   float64 `json:"pace_s"`
	MovesPerTable int     `json:"moves_limit"` // 0: games played to the end
	// Pages: the people played through their open pages (-pages).
	Pages bool `json:"pages,omitempty"`
	// Hands is where the people played from: "private" or "group" (-hands).
	Hands string `json:"hands"`
	// Seconds runs from the first Start press until every table's last
	// change was delivered.
	Seconds float64 `json:"seconds"`
	// Moves are the actions applied, from the tables' logs; AutoMoves are
	// those the bot made (robots, timeouts).
	Moves     int     `json:"moves"`
	AutoMoves int     `json:"auto_moves"`
	MovesMean float64 `json:"moves_per_table"`
	Presses   int     `json:"presses"`    // applied presses by people
	HandOpens int     `json:"hand_opens"` // «Мои карты» pressed and answered (-hands group)
	// ToldInPrivate counts the prompts that reached a person playing from
	// the group in their private chat first (-hands group).
	ToldInPrivate int        `json:"prompts_told_in_private"`
	Refused       int        `json:"refused"`      // presses answered with a refusal
	PressErrors   int        `json:"press_errors"` // presses not answered, or on a vanished message
	Calls         callCounts `json:"calls"`
	PerMove       perMove    `json:"per_move"`
	GroupPeak     int        `json:"group_peak_per_min"` // most calls to one group in any 60 s
	TokenPeak     int        `json:"token_peak_per_s"`   // most calls of the token in any second
	PromptN       int        `json:"prompt_samples"`
	PromptP50ms   float64    `json:"prompt_p50_ms"`
	PromptP99ms   float64    `json:"prompt_p99_ms"`
	PromptTables  spread     `json:"prompt_p99_tables"`
	TableN        int        `json:"table_samples"`
	TableP50ms    float64    `json:"table_p50_ms"`
	TableP99ms    float64    `json:"table_p99_ms"`
	TableTables   spread     `json:"table_p99_tables"`
	AnswerP50ms   float64    `json:"answer_p50_ms"`
	AnswerP99ms   float64    `json:"answer_p99_ms"`
	AnswerMaxms   float64    `json:"answer_max_ms"`
	// Unsettled counts tables whose deliveries were still pending when the
	// measurement gave up waiting for them.
	Unsettled int `json:"unsettled"`
}

// table is one group of simulated people and what they observed.
type table struct {
	*measure.Table

	applied  atomic.Int64 // presses answered as applied
	done     chan struct{}
	doneOnce sync.Once

	mu          sync.Mutex
	presses     []press
	prompts     []time.Time
	refused     int
	pressErrors int
	// opens counts the presses of «Мои карты» the bot answered (-hands
	// group): one a person, more when a hand never came.
	opens int
	// toldElsewhere counts the prompts that reached their person
	// elsewhere first (play's told).
	toldElsewhere atomic.Int64
}

func (t *table) finish() { t.doneOnce.Do(func() { close(t.done) }) }

func (t *table) finished() bool {
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}

// run plays one measurement and returns what Telegram saw.
func run(ctx context.Context, cfg config) (result, error) {
	g, err := bench.FindGame(cfg.Game)
	if err != nil {
		return result{}, err
	}
	if lo, hi := g.SeatRange(); cfg.People < 1 || cfg.People > measure.MaxPeople || cfg.People+cfg.Robots < lo || cfg.People+cfg.Robots > hi {
		return result{}, bench.Usagef("-people, -robots: %s needs %d-%d seats and 1-%d people, not %d people + %d robots",
			cfg.Game, lo, hi, measure.MaxPeople, cfg.People, cfg.Robots)
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	st, srv, closeAll, err := measure.Open(ctx, cfg.RedisURL, "pace")
	if err != nil {
		return result{}, err
	}
	defer closeAll()
	var amu sync.Mutex
	var answers []time.Duration
	botCfg := bot.Config{TurnTimeout: cfg.TurnTimeout}
	if cfg.Pages {
		// As deployed with the page: hands carry the button that opens it.
		botCfg.WebAppURL = "https://stol.example/"
	}
	h := &bottest.Harness{
		Srv:        srv,
		Store:      st,
		Games:      games.All(),
		Cfg:        botCfg,
		GroupHands: cfg.GroupHands,
		Log:        zerolog.New(cfg.Log).Level(zerolog.WarnLevel),
		Answered: func(d time.Duration) {
			amu.Lock()
			answers = append(answers, d)
			amu.Unlock()
		},
	}
	if err := h.Start(); err != nil {
		return result{}, err
	}
	defer h.Stop()
	var web *webpage.Client
	if cfg.Pages {
		if web, err = webpage.Serve(ctx, h.Bot, st, zerolog.New(cfg.Log).Level(zerolog.WarnLevel)); err != nil {
			return result{}, err
		}
		defer web.Close()
	}
	observe := func(d time.Duration) {
		amu.Lock()
		answers = append(answers, d)
		amu.Unlock()
	}

	tables := make([]*table, cfg.Tables)
	seats := make([]*measure.Table, cfg.Tables)
	// A chat → the wake-ups of the people who look at it: a private chat
	// its person's; with hands in the group, a group all its people's.
	nudges := map[int64][]chan struct{}{}
	for i := range tables {
		seats[i] = measure.NewTable(srv, i, cfg.People)
		tables[i] = &table{Table: seats[i], done: make(chan struct{})}
		for _, u := range seats[i].People {
			ch := make(chan struct{}, 1)
			nudges[u.ID()] = []chan struct{}{ch}
			if cfg.GroupHands {
				nudges[seats[i].Group.ID()] = append(nudges[seats[i].Group.ID()], ch)
			}
		}
	}
	setup := measure.Setup{H: h, Store: st, Game: cfg.Game, Robots: cfg.Robots, Wait: setupWait}
	if err := setup.Seat(ctx, seats); err != nil {
		return result{}, fmt.Errorf("setup (the token's peak so far: %d calls in a second): %w",
			telegramtest.Peak(srv.Calls(), 0, time.Second), err)
	}
	if n := settle(ctx, st, tables); n > 0 {
		return result{}, fmt.Errorf("setup: %d lobbies not delivered", n)
	}

	// One watcher follows the call log and wakes only the person whose
	// private chat changed: hundreds of people polling their chats on every
	// change would cost more than the bot being measured.
	watchCtx, stopWatch := context.WithCancel(ctx)
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		follow(watchCtx, srv, nudges)
	}()
	defer func() { stopWatch(); watch.Wait() }()

	amu.Lock()
	answers = nil // count the games' presses only
	amu.Unlock()
	start := time.Now()
	playCtx, stopPlay := context.WithCancel(ctx)
	defer stopPlay()
	var players sync.WaitGroup
	startErr := make(chan error, len(tables))
	for i, t := range tables {
		players.Add(1)
		go func() {
			defer players.Done()
			// Tables start spread over two thinking times, not all at once.
			if !measure.Sleep(playCtx, time.Duration(i)*2*cfg.Pace/time.Duration(len(tables))) {
				return
			}
			if err := setup.StartGame(playCtx, t.Table); err != nil {
				startErr <- fmt.Errorf("table %s: %w", t.ID, err)
				t.finish()
				return
			}
			players.Add(1)
			go func() { defer players.Done(); monitor(playCtx, st, t, cfg.Moves) }()
			for j, u := range t.People {
				rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)<<8|uint64(j)))
				think := bottest.HumanPace(cfg.Pace, rand.New(rand.NewPCG(cfg.Seed^0x5eed, uint64(i)<<8|uint64(j))))
				players.Add(1)
				go func() {
					defer players.Done()
					if web != nil {
						playPage(playCtx, web, t, u, think, rng, cfg.Moves, observe)
						return
					}
					nudge := nudges[u.ID()][0]
					if cfg.GroupHands {
						playGroup(playCtx, h, t, u, nudge, think, rng, cfg.Moves)
						return
					}
					hand := func() (*telegramtest.Message, string, []string) { return playable(u.PrivateChat().Messages()) }
					play(playCtx, h, t, u, nudge, hand, nil, think, rng, cfg.Moves)
				}()
			}
		}()
	}
	var runErr error
	for _, t := range tables {
		select {
		case <-t.done:
		case <-ctx.Done():
			runErr = fmt.Errorf("tables still playing: %w", context.Cause(ctx))
		}
		if runErr != nil {
			break
		}
	}
	stopPlay()
	players.Wait()
	close(startErr)
	for err := range startErr {
		return result{}, fmt.Errorf("start: %w", err)
	}
	if runErr != nil {
		return result{}, runErr
	}
	res := result{
		Game: cfg.Game, Tables: cfg.Tables, People: cfg.People, Robots: cfg.Robots,
		PaceSeconds: cfg.Pace.Seconds(), MovesPerTable: cfg.Moves, Pages: cfg.Pages, Hands: "private",
	}
	if cfg.GroupHands {
		res.Hands = "group"
	}
	res.Unsettled = settle(ctx, st, tables)
	end := time.Now()
	res.Seconds = end.Sub(start).Seconds()
	stopWatch()
	watch.Wait()

	calls := srv.Calls()
	res.Calls = countCalls(calls, start, end)
	res.TokenPeak = telegramtest.Peak(calls, 0, time.Second)
	var prompts, draws []time.Duration
	var promptP99, drawP99 []float64
	for _, t := range tables {
		rec, err := st.Load(context.WithoutCancel(ctx), t.ID)
		if err != nil {
			return result{}, fmt.Errorf("table %s: %w", t.ID, err)
		}
		tb, err := record.Decode(rec.Data)
		if err != nil {
			return result{}, err
		}
		res.Moves += len(tb.Log)
		for _, m := range tb.Log {
			if m.Auto {
				res.AutoMoves++
			}
		}
		res.GroupPeak = max(res.GroupPeak, telegramtest.Peak(calls, t.Group.ID(), time.Minute))
		t.mu.Lock()
		res.Presses += len(t.presses)
		res.Refused += t.refused
		res.PressErrors += t.pressErrors
		res.HandOpens += t.opens
		res.ToldInPrivate += int(t.toldElsewhere.Load())
		p := sortDurations(promptLatencies(t.presses, t.prompts))
		d := sortDurations(tableLatencies(t.presses, groupDraws(calls, t.Group.ID())))
		t.mu.Unlock()
		prompts, draws = append(prompts, p...), append(draws, d...)
		if len(p) > 0 {
			promptP99 = append(promptP99, measure.Quantile(p, 0.99))
		}
		if len(d) > 0 {
			drawP99 = append(drawP99, measure.Quantile(d, 0.99))
		}
	}
	res.MovesMean = float64(res.Moves) / float64(len(tables))
	res.PerMove = res.Calls.perMove(res.Moves)
	sortDurations(prompts)
	sortDurations(draws)
	res.PromptN, res.PromptP50ms, res.PromptP99ms = len(prompts), measure.Quantile(prompts, 0.5), measure.Quantile(prompts, 0.99)
	res.TableN, res.TableP50ms, res.TableP99ms = len(draws), measure.Quantile(draws, 0.5), measure.Quantile(draws, 0.99)
	res.PromptTables, res.TableTables = spreadOf(promptP99), spreadOf(drawP99)
	amu.Lock()
	sortDurations(answers)
	res.AnswerP50ms, res.AnswerP99ms = measure.Quantile(answers, 0.5), measure.Quantile(answers, 0.99)
	if len(answers) > 0 {
		res.AnswerMaxms = measure.Ms(answers[len(answers)-1])
	}
	amu.Unlock()
	return res, nil
}

// setupWait bounds each step of the setup (measure.Setup): with many
// tables the greetings and lobbies queue for Telegram's global budget.
const setupWait = 2 * time.Minute

// settle waits until every table's views are drawn and its announcements
// sent, and returns how many tables still had work when it gave up.
func settle(ctx context.Context, st *store.Redis, tables []*table) int {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		pending := 0
		for _, t := range tables {
			dirty, err := st.Dirty(ctx, t.ID)
			if err != nil || len(dirty) > 0 {
				pending++
				continue
			}
			if out, err := st.Outbox(ctx, t.ID, 1); err != nil || len(out) > 0 {
				pending++
			}
		}
		if pending == 0 || time.Now().After(deadline) || !measure.Sleep(ctx, 200*time.Millisecond) {
			return pending
		}
	}
}

// follow reads the server's call log as it grows and nudges the people
// who look at the chat a call touched.
func follow(ctx context.Context, srv *telegramtest.Server, nudges map[int64][]chan struct{}) {
	seen := 0
	for ctx.Err() == nil {
		var batch []telegramtest.Call
		_ = srv.WaitFor(200*time.Millisecond, func() bool {
			batch = srv.CallsSince(seen)
			return len(batch) > 0 || ctx.Err() != nil
		})
		seen += len(batch)
		for _, c := range batch {
			if !c.OK {
				continue
			}
			for _, ch := range nudges[c.ChatID] {
				select {
				case ch <- struct{}{}:
				default:
				}
			}
		}
	}
}

// monitor ends a table once its game is over or it reached the move limit
// (robots' and timeouts' moves count too).
func monitor(ctx context.Context, st *store.Redis, t *table, limit int) {
	for measure.Sleep(ctx, 300*time.Millisecond) {
		rec, err := st.Load(ctx, t.ID)
		if err != nil {
			continue
		}
		tb, err := record.Decode(rec.Data)
		if err != nil {
			continue
		}
		if tb.Phase != record.PhasePlaying || (limit > 0 && len(tb.Log) >= limit) {
			t.finish()
			return
		}
	}
}

// play is one simulated person: whenever the hand they look at (hand: the
// newest message with a move to make, see playable) shows a new set of
// playable buttons, they think, then press one of them at random.
//
// told, if not nil, says when a prompt (by its key) reached the person
// elsewhere first (zero: it did not): the prompt's time is the earlier.
func play(ctx context.Context, h *bottest.Harness, t *table, u *telegramtest.User, nudge <-chan struct{},
	hand func() (*telegramtest.Message, string, []string), told func(key string) time.Time, think func() time.Duration, rng *rand.Rand, limit int) {
	prompted := map[string]bool{} // prompts seen, by seat, game and nonce
	pressed := map[string]bool{}
	for {
		msg, key, choices := hand()
		if msg == nil || pressed[key] {
			select {
			case <-ctx.Done():
				return
			case <-t.done:
				return
			case <-nudge:
			}
			continue
		}
		if !prompted[key] {
			prompted[key] = true
			at := msg.Date
			if msg.EditDate.After(at) {
				at = msg.EditDate
			}
			if told != nil {
				if first := told(key); !first.IsZero() && first.Before(at) {
					at = first
					t.toldElsewhere.Add(1)
				}
			}
			t.mu.Lock()
			t.prompts = append(t.prompts, at)
			t.mu.Unlock()
		}
		if !measure.Sleep(ctx, think()) || t.finished() || (limit > 0 && int(t.applied.Load()) >= limit) {
			return
		}
		at := time.Now()
		ans, err := u.PressData(msg, choices[rng.IntN(len(choices))])
		pressed[key] = true
		t.mu.Lock()
		switch {
		case err != nil:
			t.pressErrors++
		case !h.Accepted(ans.Text):
			t.refused++
		default:
			t.presses = append(t.presses, press{at: at, answered: time.Now()})
			if limit > 0 && int(t.applied.Add(1)) >= limit {
				t.finish()
			}
		}
		t.mu.Unlock()
	}
}

// playable finds the newest of msgs with a move to make: its prompt key
// (an action button's payload up to the seat's nonce, the same for every
// button of one prompt) and the payloads of its playable buttons (cards in
// brackets are not playable).
func playable(msgs []*telegramtest.Message) (*telegramtest.Message, string, []string) {
	for i := len(msgs) - 1; i >= 0; i-- {
		var key string
		var choices []string
		for _, b := range msgs[i].Buttons() {
			d, err := callback.Parse(b.CallbackData)
			if err != nil || d.Op != callback.Action || strings.HasPrefix(b.Text, "(") {
				continue
			}
			choices = append(choices, b.CallbackData)
			if key == "" {
				d.Args = d.Args[:2] // seat, nonce
				key = d.String()
			}
		}
		if len(choices) > 0 {
			return msgs[i], key, choices
		}
	}
	return nil, "", nil
}
