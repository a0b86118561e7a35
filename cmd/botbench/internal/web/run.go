package web

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	botweb "github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/cmd/internal/measure"
	"github.com/trickchef/trickchef/cmd/internal/webpage"
)

// config is one measurement.
type config struct {
	Game                         string // the id of the game every table plays
	Tables, People, Conns, Moves int
	// Pace is the time between two moves of one table; tables start
	// spread over one pace.
	Pace     time.Duration
	Seed     uint64
	Timeout  time.Duration
	RedisURL string
	Log      io.Writer // the bot's and the server's warnings
}

// result is what one measurement found. Latencies are in milliseconds.
type result struct {
	Game        string  `json:"game"`
	Tables      int     `json:"tables"`
	People      int     `json:"people"`
	Streams     int     `json:"streams"`
	PaceSeconds float64 `json:"pace_s"`
	Moves       int     `json:"moves"`
	Seconds     float64 `json:"seconds"`
	MovesPerSec float64 `json:"moves_per_s"`
	// EventN are the (move, stream) pairs; Missed those whose event did
	// not come within eventWait.
	EventN     int     `json:"event_samples"`
	EventP50ms float64 `json:"event_p50_ms"`
	EventP99ms float64 `json:"event_p99_ms"`
	EventMaxms float64 `json:"event_max_ms"`
	Missed     int     `json:"missed"`
	// Fanout is the part after the act's answer: from the answer to the
	// event (the commit is done by then; this is the change's way through
	// Redis Pub/Sub, the state's reload and the stream).
	FanoutP50ms float64 `json:"fanout_p50_ms"`
	FanoutP99ms float64 `json:"fanout_p99_ms"`
	ActP50ms    float64 `json:"act_p50_ms"`
	ActP99ms    float64 `json:"act_p99_ms"`
	ActMaxms    float64 `json:"act_max_ms"`
	// Refused counts act requests not applied (another seat's turn is
	// found by trying; these are the refusals of a chosen act).
	Refused int `json:"refused"`
	// StateKiB is the largest state sent to a page: a stream keeps its
	// viewer's last one.
	StateKiB float64 `json:"state_kib"`
	// Per stream, server and client in one process.
	HeapPerStreamKiB    float64 `json:"heap_per_stream_kib"`
	GoroutinesPerStream float64 `json:"goroutines_per_stream"`
}

// eventWait bounds how long a move's event may take to reach a stream.
const eventWait = 30 * time.Second

// table is one group, its people and the streams of their pages.
type table struct {
	*measure.Table
	streams []*stream
	notify  chan struct{} // a stream of this table got an event
	moves   []move
	refused int
}

// move is one applied act: when it was sent, the version every stream
// had before, and the act request's latency.
type move struct {
	sent   time.Time
	before int64
	act    time.Duration
}

// stream is one open page: the versions it received and when.
type stream struct {
	t      *table
	user   *telegramtest.User
	latest atomic.Int64
	mu     sync.Mutex
	got    []arrival
}

type arrival struct {
	version int64
	at      time.Time
}

// client talks to the page's server as the pages would.
type client struct {
	*webpage.Client
	// stateBytes is the largest state a page was sent (its JSON).
	stateBytes atomic.Int64
}

// setupWait bounds each step of the setup (measure.Setup, as the pace
// scenario's): with many tables the greetings and lobbies queue for
// Telegram's global budget.
const setupWait = 3 * time.Minute

// run makes one measurement.
func run(ctx context.Context, cfg config) (result, error) {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	st, srv, closeAll, err := measure.Open(ctx, cfg.RedisURL, "web")
	if err != nil {
		return result{}, err
	}
	defer closeAll()
	log := zerolog.New(cfg.Log).Level(zerolog.WarnLevel)
	h := &bottest.Harness{
		Srv: srv, Store: st, Games: games.All(),
		Cfg: bot.Config{TurnTimeout: time.Hour}, Log: log,
	}
	if err := h.Start(); err != nil {
		return result{}, err
	}
	defer h.Stop()

	webCtx, stopWeb := context.WithCancel(ctx)
	defer stopWeb()
	pages, err := webpage.Serve(webCtx, h.Bot, st, log)
	if err != nil {
		return result{}, err
	}
	defer pages.Close()
	c := &client{Client: pages}

	tables := make([]*table, cfg.Tables)
	seats := make([]*measure.Table, cfg.Tables)
	for i := range tables {
		seats[i] = measure.NewTable(srv, i, cfg.People)
		tables[i] = &table{Table: seats[i], notify: make(chan struct{}, 1)}
	}
	setup := measure.Setup{H: h, Store: st, Game: cfg.Game, Wait: setupWait}
	if err := setup.Seat(ctx, seats); err != nil {
		return result{}, fmt.Errorf("setup: %w", err)
	}
	err = measure.Parallel(len(tables), 8, func(i int) error {
		if err := setup.StartGame(ctx, seats[i]); err != nil {
			return fmt.Errorf("table %s: %w", seats[i].ID, err)
		}
		return nil
	})
	if err != nil {
		return result{}, fmt.Errorf("start: %w", err)
	}

	// The streams' cost: the process before and after opening them all.
	heap0, gor0 := footprint()
	streamCtx, closeStreams := context.WithCancel(ctx)
	var readers sync.WaitGroup
	defer func() { closeStreams(); readers.Wait() }()
	var all []*stream
	for _, t := range tables {
		for j := range cfg.Conns {
			s := &stream{t: t, user: t.People[j%len(t.People)]}
			t.streams = append(t.streams, s)
			all = append(all, s)
		}
	}
	err = measure.Parallel(len(all), 32, func(i int) error {
		return c.open(streamCtx, all[i], &readers)
	})
	if err != nil {
		return result{}, fmt.Errorf("open streams: %w", err)
	}
	for _, s := range all {
		if !waitFor(ctx, s.t, 0, eventWait) {
			return result{}, fmt.Errorf("table %s: a stream got no first event", s.t.ID)
		}
	}
	heap1, gor1 := footprint()

	start := time.Now()
	err = measure.Parallel(len(tables), len(tables), func(i int) error {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
		stagger := time.Duration(i) * cfg.Pace / time.Duration(len(tables))
		return drive(ctx, c, tables[i], start.Add(stagger), cfg, rng)
	})
	if err != nil {
		return result{}, err
	}
	end := time.Now()

	res := result{
		Game: cfg.Game, Tables: cfg.Tables, People: cfg.People, Streams: len(all), PaceSeconds: cfg.Pace.Seconds(),
		Seconds:             end.Sub(start).Seconds(),
		HeapPerStreamKiB:    float64(int64(heap1)-int64(heap0)) / 1024 / float64(len(all)),
		GoroutinesPerStream: float64(gor1-gor0) / float64(len(all)),
	}
	var events, fanout, acts []time.Duration
	for _, t := range tables {
		res.Moves += len(t.moves)
		res.Refused += t.refused
		for _, m := range t.moves {
			acts = append(acts, m.act)
			for _, s := range t.streams {
				if d, ok := s.after(m.before, m.sent); ok {
					events = append(events, d)
					fanout = append(fanout, d-m.act)
				} else {
					res.Missed++
				}
			}
		}
	}
	res.StateKiB = float64(c.stateBytes.Load()) / 1024
	res.MovesPerSec = float64(res.Moves) / max(res.Seconds, 1e-9)
	slices.Sort(events)
	slices.Sort(acts)
	slices.Sort(fanout)
	res.FanoutP50ms, res.FanoutP99ms = measure.Quantile(fanout, 0.5), measure.Quantile(fanout, 0.99)
	res.EventN = len(events)
	res.EventP50ms, res.EventP99ms, res.EventMaxms = measure.Quantile(events, 0.5), measure.Quantile(events, 0.99), measure.Quantile(events, 1)
	res.ActP50ms, res.ActP99ms, res.ActMaxms = measure.Quantile(acts, 0.5), measure.Quantile(acts, 0.99), measure.Quantile(acts, 1)
	return res, nil
}

// footprint is the heap in use after a collection and the goroutines.
func footprint() (uint64, int) {
	time.Sleep(300 * time.Millisecond) // let connections settle
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse, runtime.NumGoroutine()
}

// open starts s's event stream and a reader that notes each event's
// version and arrival.
func (c *client) open(ctx context.Context, s *stream, readers *sync.WaitGroup) error {
	body, err := c.Events(ctx, s.t.ID, s.user)
	if err != nil {
		return err
	}
	readers.Add(1)
	go func() {
		defer readers.Done()
		defer body.Close()
		s.read(body)
	}()
	return nil
}

// read follows an event stream. Only the ids are read: a long data line
// is skipped piecewise, so a reader holds a small buffer.
func (s *stream) read(body io.Reader) {
	r := bufio.NewReaderSize(body, 4096)
	var id int64
	midLine := false
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			midLine = true
			continue
		}
		if err != nil {
			return
		}
		if midLine {
			midLine = false
			continue
		}
		switch {
		case len(line) == 1 && id > 0: // the blank line ends an event
			s.mu.Lock()
			s.got = append(s.got, arrival{version: id, at: time.Now()})
			s.mu.Unlock()
			s.latest.Store(id)
			id = 0
			select {
			case s.t.notify <- struct{}{}:
			default:
			}
		case bytes.HasPrefix(line, []byte("id: ")):
			id, _ = strconv.ParseInt(string(bytes.TrimSpace(line[4:])), 10, 64)
		}
	}
}

// after is how long after sent the first event newer than before came.
func (s *stream) after(before int64, sent time.Time) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.got {
		if a.version > before {
			return a.at.Sub(sent), true
		}
	}
	return 0, false
}

// waitFor waits until every stream of t has an event newer than version.
func waitFor(ctx context.Context, t *table, version int64, within time.Duration) bool {
	timer := time.NewTimer(within)
	defer timer.Stop()
	for {
		ok := true
		for _, s := range t.streams {
			ok = ok && s.latest.Load() > version
		}
		if ok {
			return true
		}
		select {
		case <-t.notify:
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// drive makes the table's moves, one a pace from first, each once every
// stream saw the one before.
func drive(ctx context.Context, c *client, t *table, first time.Time, cfg config, rng *rand.Rand) error {
	next := 0 // the player tried first: the one after the last mover
	for m := range cfg.Moves {
		if !measure.Sleep(ctx, time.Until(first.Add(time.Duration(m)*cfg.Pace))) {
			return ctx.Err()
		}
		before := t.streams[0].latest.Load()
		for _, s := range t.streams {
			before = max(before, s.latest.Load())
		}
		mover, mv, err := c.move(ctx, t, next, m, rng)
		if err != nil {
			return fmt.Errorf("table %s, move %d: %w", t.ID, m+1, err)
		}
		mv.before = before
		t.moves = append(t.moves, mv)
		next = (mover + 1) % len(t.People)
		waitFor(ctx, t, before, eventWait) // a miss is counted later
	}
	return nil
}

// move makes one move of whoever may act, trying the people from the
// first'th on: each one's state, then a few of their acts.
func (c *client) move(ctx context.Context, t *table, first, n int, rng *rand.Rand) (int, move, error) {
	for try := 0; try < 5; try++ {
		for k := range t.People {
			p := (first + k) % len(t.People)
			u := t.People[p]
			ws, err := c.state(ctx, t, u)
			if err != nil {
				return 0, move{}, err
			}
			for i, a := range candidates(ws, rng) {
				if i == 3 { // within the server's burst of a person's actions
					break
				}
				sent := time.Now()
				ok, err := c.Act(ctx, t.ID, u, a, fmt.Sprintf("m%d-%d-%d-%d", n, try, p, i))
				took := time.Since(sent)
				if err != nil {
					return 0, move{}, err
				}
				if ok {
					return p, move{sent: sent, act: took}, nil
				}
				t.refused++
			}
		}
		if !measure.Sleep(ctx, 300*time.Millisecond) {
			return 0, move{}, ctx.Err()
		}
	}
	return 0, move{}, fmt.Errorf("nobody could move")
}

// candidates are the acts a viewer's scene offers, in random order: moves
// first, then steps of a choice in parts.
func candidates(ws botweb.State, rng *rand.Rand) []string {
	moves, steps := webpage.Acts(ws, nil)
	rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	rng.Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
	return append(moves, steps...)
}

// state asks for u's state and notes its size.
func (c *client) state(ctx context.Context, t *table, u *telegramtest.User) (botweb.State, error) {
	ws, size, err := c.State(ctx, t.ID, u)
	if n := int64(size); n > c.stateBytes.Load() {
		c.stateBytes.Store(n) // one driver a table: a rare lost update is fine
	}
	return ws, err
}
