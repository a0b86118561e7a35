// Package long is botbench's long scenario: what many long games that
// wait for their players cost the bot — memory, Redis, and how late their
// deadlines fire (its Doc below says how).
package long

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/cmd/botbench/internal/bench"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/cmd/internal/measure"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
)

// Scenario is botbench long.
func Scenario() bench.Scenario {
	return bench.Scenario{
		Name:     "long",
		Summary:  "many long games waiting for their players: memory, Redis per table, how late deadlines fire",
		Doc:      doc,
		Flags:    []string{"tables", "game", "people", "robots", "for", "ai-delay", "seed", "redis"},
		Defaults: map[string]string{"tables": "10000", "game": "trickchef", "people": "2", "robots": "1", "for": "1m"},
		Run:      runScenario,
	}
}

const doc = `
What a long game costs while it waits. The bot (one process, the fake Bot
API with Telegram's limits, real Redis) starts with no tables, and its
resident memory is measured (rss_mb_idle). Then -tables long games of
-game are written to Redis mid-game, as the bot would have left them:
-people people and -robots robots seated, a few random moves made, a
person to move, 1, 12 or 24 hours a move, in zones all over the lobby's
list, each with its deadline and its reminder on the seat and one entry in
the store's timers queue. For one table in 20 the reminder falls due in the
first half of -for and the deadline in the second (those groups and their
people exist in the fake Bot API); the rest wait for hours. The bot runs
for -for; every commit of a due table is timed against the timer that was
due (deadline_late_*: due → fired, the planted reminders and deadlines;
timer_late_*: every timer of those tables, robots' moves after a timeout
included). The resident memory is measured again right after the
tables were written (rss_mb_planted: all waiting, none served yet) and at
the end (rss_mb_waiting: all waiting again, the due ones served once;
after a GC that returns freed memory to the system, every time), and so
are the Redis bytes of every key the run left, per table
(redis_bytes_per_table), and right after the tables were written
(redis_bytes_per_waiting_table). Targets: ≤ 10 MB more resident memory
for 10,000 waiting tables, ≤ 8 KB of Redis per table, lateness p99 ≤ 1 s.

	go run ./cmd/botbench long -tables 10000 -redis redis://127.0.0.1:6379/0
	go run ./cmd/botbench long -tables 1000 -for 30s
`

// runScenario runs botbench long.
func runScenario(ctx context.Context, o bench.Options, out io.Writer) (any, error) {
	n, err := o.OneCount()
	if err != nil {
		return nil, err
	}
	g, err := o.OneGame()
	if err != nil {
		return nil, err
	}
	if _, own := g.(adapter.ClockGame); own {
		return nil, bench.Usagef("-game: %s keeps its own clocks: it has no long turns", g.ID())
	}
	if lo, hi := g.SeatRange(); o.People < 1 || o.People+o.Robots < lo || o.People+o.Robots > hi {
		return nil, bench.Usagef("-people %d and -robots %d: %s seats %d to %d, at least one a person", o.People, o.Robots, g.ID(), lo, hi)
	}
	if n < 1 {
		return nil, bench.Usagef("-tables: at least one")
	}
	// Setting up the tables and winding down get half an hour besides the
	// run itself.
	ctx, cancel := context.WithTimeout(ctx, o.For+30*time.Minute)
	defer cancel()
	return run(ctx, config{Game: g, Tables: n, People: o.People, Robots: o.Robots, For: o.For, AIDelay: o.AIDelay,
		Seed: o.Seed, RedisURL: o.Redis}, out)
}

// config is one measurement.
type config struct {
	Game           adapter.Game
	Tables         int
	People, Robots int
	For            time.Duration
	AIDelay        time.Duration
	Seed           uint64
	RedisURL       string
}

// Result is the last line's JSON.
type Result struct {
	Game       string  `json:"game"`
	Tables     int     `json:"tables"`
	DueInRun   int     `json:"tables_due_in_run"`
	Seconds    float64 `json:"seconds"`
	RSSIdle    float64 `json:"rss_mb_idle"`
	RSSWaiting float64 `json:"rss_mb_waiting"`
	// RSSPlanted is the resident memory right after the tables were
	// written, before any fell due: all of them waiting, none ever served.
	RSSPlanted        float64 `json:"rss_mb_planted"`
	GoroutinesPlanted int     `json:"goroutines_planted"`
	// HeapIdle and HeapWaiting are the Go heap in use after a GC, which
	// RSS holds with the runtime's own overhead.
	HeapIdle          float64 `json:"heap_mb_idle"`
	HeapWaiting       float64 `json:"heap_mb_waiting"`
	GoroutinesIdle    int     `json:"goroutines_idle"`
	GoroutinesWaiting int     `json:"goroutines_waiting"`
	RedisPerTable     int64   `json:"redis_bytes_per_table"`
	RedisPerWaiting   int64   `json:"redis_bytes_per_waiting_table"`
	TimersQueued      int64   `json:"timers_queued"`
	Fired             int     `json:"deadlines_fired"`
	LateP50           float64 `json:"deadline_late_p50_ms"`
	LateP99           float64 `json:"deadline_late_p99_ms"`
	LateMax           float64 `json:"deadline_late_max_ms"`
	Timers            int     `json:"timers_fired"`
	TimerP99          float64 `json:"timer_late_p99_ms"`
	Missed            int     `json:"deadlines_not_fired"`
}

// run measures cfg.
func run(ctx context.Context, cfg config, out io.Writer) (*Result, error) {
	prefix := "long:" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"
	st, err := store.DialRedis(ctx, cfg.RedisURL, prefix, store.Config{})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	defer measure.DeletePrefix(cfg.RedisURL, prefix)
	srv := telegramtest.NewServer()
	defer srv.Close()
	watch := &watched{Redis: st, expect: map[string]time.Time{}, planted: map[string][]time.Time{}}
	h := &bottest.Harness{Srv: srv, Store: watch, Games: games.All(), Cfg: bot.Config{AIDelay: cfg.AIDelay},
		Log: zerolog.New(os.Stderr).Level(zerolog.ErrorLevel)}
	due := max(1, cfg.Tables/20)
	// The groups and people of the tables due in the run exist in the fake
	// Bot API before the bot's memory is first measured.
	chats := make([]chatOf, cfg.Tables)
	for i := range chats {
		chats[i] = chatOf{id: -1_000_000_000_000 - int64(i), title: "Стол " + strconv.Itoa(i+1)}
		for j := range cfg.People {
			chats[i].people = append(chats[i].people, 1_000_000_000_000+int64(i*cfg.People+j))
		}
	}
	for i := range due {
		var people []int64
		for j := range cfg.People {
			people = append(people, srv.NewUser("Игрок "+strconv.Itoa(i*cfg.People+j+1)).ID())
		}
		chats[i].people = people
		chats[i].id = srv.NewGroup(chats[i].title).ID()
	}
	if err := h.Start(); err != nil {
		return nil, err
	}
	defer h.Stop()
	time.Sleep(3 * time.Second) // the bot settles: its workers idle, the menus set
	res := &Result{Game: cfg.Game.ID(), Tables: cfg.Tables, DueInRun: due}
	res.RSSIdle, res.HeapIdle, res.GoroutinesIdle = memory()
	fmt.Fprintf(out, "bot idle: %.1f MB resident, %.1f MB heap, %d goroutines\n", res.RSSIdle, res.HeapIdle, res.GoroutinesIdle)

	// The tables are written through a client of their own, so the bot's
	// connections are only what the bot itself opens.
	writer, err := store.DialRedis(ctx, cfg.RedisURL, prefix, store.Config{})
	if err != nil {
		return nil, err
	}
	start := time.Now()
	runStart := start.Add(planTime(cfg.Tables))
	err = measure.Parallel(cfg.Tables, 16, func(i int) error {
		r := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
		t, err := plant(cfg, chats[i], r)
		if err != nil {
			return fmt.Errorf("table %d: %w", i, err)
		}
		if i < due {
			// Due in the run: the reminder in its first half, the
			// deadline in its second.
			remind := runStart.Add(time.Duration(r.Int64N(int64(cfg.For / 2)))).Truncate(time.Millisecond)
			deadline := runStart.Add(cfg.For/2 + time.Duration(r.Int64N(int64(cfg.For/2-time.Second)))).Truncate(time.Millisecond)
			for k := range t.Seats {
				if s := &t.Seats[k]; s.Turn != nil {
					s.Due, s.Turn.Remind, s.Turn.Night = deadline, remind, false
				}
			}
			watch.plant(t.ID, remind, deadline, t.NextTimer())
		}
		data, err := t.Encode()
		if err != nil {
			return err
		}
		_, err = writer.Commit(ctx, t.ID, store.Change{Data: data, TimerAt: t.NextTimer()})
		return err
	})
	writer.Close()
	chats = nil // what the bench knew of them, so the bot's memory is measured alone
	if err != nil {
		return res, err
	}
	res.RSSPlanted, _, res.GoroutinesPlanted = memory()
	fmt.Fprintf(out, "%d tables of %s written in %.1f s (%d of them due in the run); the bot: %.1f MB resident (%+.1f), %d goroutines\n",
		cfg.Tables, cfg.Game.ID(), time.Since(start).Seconds(), due, res.RSSPlanted, res.RSSPlanted-res.RSSIdle, res.GoroutinesPlanted)

	if res.TimersQueued, err = st.Pending(ctx, store.Timers); err != nil {
		return res, err
	}
	if b, err := redisBytes(ctx, cfg.RedisURL, prefix); err == nil {
		res.RedisPerWaiting = b / int64(cfg.Tables)
	}
	if wait := time.Until(runStart.Add(cfg.For)); wait > 0 {
		if !measure.Sleep(ctx, wait+2*time.Second) {
			return res, ctx.Err()
		}
	}
	res.Seconds = time.Since(start).Seconds()
	res.RSSWaiting, res.HeapWaiting, res.GoroutinesWaiting = memory()
	b, err := redisBytes(ctx, cfg.RedisURL, prefix)
	if err != nil {
		return res, err
	}
	res.RedisPerTable = b / int64(cfg.Tables)
	watch.report(res)
	fmt.Fprintf(out, "bot with %d tables waiting: %.1f MB resident (%+.1f), %.1f MB heap (%+.1f), %d goroutines (%+d)\n",
		cfg.Tables, res.RSSWaiting, res.RSSWaiting-res.RSSIdle, res.HeapWaiting, res.HeapWaiting-res.HeapIdle,
		res.GoroutinesWaiting, res.GoroutinesWaiting-res.GoroutinesIdle)
	fmt.Fprintf(out, "Redis: %d bytes a waiting table as written, %d a table after the run (all keys, queues included); %d tables in the timers queue\n",
		res.RedisPerWaiting, res.RedisPerTable, res.TimersQueued)
	fmt.Fprintf(out, "deadlines and reminders fired: %d (not fired: %d), late p50 %.0f ms, p99 %.0f ms, max %.0f ms; every timer of those tables: %d, p99 %.0f ms\n",
		res.Fired, res.Missed, res.LateP50, res.LateP99, res.LateMax, res.Timers, res.TimerP99)
	if res.Missed > 0 {
		return res, fmt.Errorf("%d planted deadlines or reminders did not fire", res.Missed)
	}
	return res, nil
}

// planTime is how long writing n tables may take before the run's due
// timers start to fall due: they are planted relative to it.
func planTime(n int) time.Duration { return 5*time.Second + time.Duration(n)*time.Millisecond }

// chatOf is a planted table's group and its people's user ids.
type chatOf struct {
	id     int64
	title  string
	people []int64
}

// plant is a table of game cfg.Game in chat c mid-game, as the bot leaves
// it: dealt, a few random moves made (until a person is to move and no
// robot or the system is), a long time for a move, the person's turn with
// its deadline and reminder set as the bot sets them, from a turn begun in
// the last ten minutes.
func plant(cfg config, c chatOf, r *rand.Rand) (*record.Table, error) {
	g := cfg.Game
	zones := record.Zones()
	turns := []time.Duration{time.Hour, 12 * time.Hour, 24 * time.Hour}
	t := &record.Table{ID: record.ID(c.id, 0), ChatID: c.id, Title: c.title, Lang: "ru", Phase: record.PhasePlaying,
		GameNo: 1, GameID: g.ID(), Creator: c.people[0], TurnTime: turns[r.IntN(len(turns))],
		Zone: zones[r.IntN(len(zones))].Name}
	for j, u := range c.people {
		t.Seats = append(t.Seats, record.Seat{UserID: u, Name: "Игрок " + strconv.Itoa(j+1)})
	}
	levels := adapter.Levels(g)
	for j := range cfg.Robots {
		t.Seats = append(t.Seats, record.Seat{Name: "Робот " + strconv.Itoa(j+1), AI: levels[r.IntN(len(levels))]})
	}
	var st game.State
	var err error
	for try := 0; st == nil; try++ {
		if try == 20 {
			return nil, errors.New("no position with a person to move in 20 deals")
		}
		t.Seed = r.Uint64()
		if st, err = playTo(g, t, r); err != nil {
			return nil, err
		}
	}
	if t.State, err = st.MarshalBinary(); err != nil {
		return nil, err
	}
	now := time.Now()
	t.Started = now.Add(-time.Duration(r.Int64N(int64(3 * time.Hour))))
	loc, night := t.Location(), record.DefaultNight()
	for _, s := range st.ToAct() {
		ts := t.Seat(s)
		begun := now.Add(-time.Duration(r.Int64N(int64(10 * time.Minute))))
		ts.Due = record.Deadline(begun, t.TurnTime, loc, night)
		ts.Turn = &record.Turn{Nonce: ts.Nonce, Night: record.Skips(begun, ts.Due, t.TurnTime),
			Remind: record.Deadline(begun, t.TurnTime-t.TurnTime/4, loc, night)}
	}
	return t, nil
}

// playTo deals t's game from its seed and plays random moves (each seat's
// counted) until people alone are to move, a few moves in: nil when the
// deal ends (or leaves nobody to move) before that.
func playTo(g adapter.Game, t *record.Table, r *rand.Rand) (game.State, error) {
	t.Log, t.Memory = nil, nil
	for i := range t.Seats {
		t.Seats[i].Nonce = 0
	}
	st, err := g.Start(adapter.View(t))
	if err != nil {
		return nil, err
	}
	mg, remembers := g.(adapter.MemoryGame)
	if remembers {
		t.Memory = mg.Observe(nil, st)
	}
	for moves := 0; moves < 400; moves++ {
		act := st.ToAct()
		if st.Over() || len(act) == 0 {
			return nil, nil
		}
		people := !slices.ContainsFunc(act, func(s game.Seat) bool { ts := t.Seat(s); return ts == nil || !ts.Human() })
		if people && moves >= 4+r.IntN(12) {
			return st, nil
		}
		s := act[r.IntN(len(act))]
		legal := st.Legal(s)
		a := legal[r.IntN(len(legal))]
		if err := st.Apply(s, a); err != nil {
			return nil, err
		}
		if remembers {
			t.Memory = mg.Observe(t.Memory, st)
		}
		ts := t.Seat(s)
		t.Log = append(t.Log, record.Move{Seat: s, Action: a, Auto: ts == nil || !ts.Human()})
		if ts != nil {
			ts.Nonce++
		}
	}
	return nil, nil
}

// watched is the bot's store with every commit of a table due in the run
// timed against the timer it was due at. It holds only the tables due in
// the run, so it adds nothing per waiting table to the bot's memory.
type watched struct {
	*store.Redis
	mu sync.Mutex
	// expect is each due table's next due time as last committed.
	expect map[string]time.Time
	// planted are the reminders and deadlines planted at each due table
	// that have not fired yet.
	planted map[string][]time.Time
	late    []time.Duration // of the planted ones
	all     []time.Duration // of every timer of those tables
}

// plant notes a table due in the run: its reminder and deadline, and its
// first due time.
func (w *watched) plant(id string, remind, deadline, next time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.expect[id] = next
	w.planted[id] = []time.Time{remind, deadline}
}

// Commit commits, then times a committed change of a due table whose
// timer was due: the timer fired. Queue-only changes move no timer.
func (w *watched) Commit(ctx context.Context, table string, c store.Change) (int64, error) {
	v, err := w.Redis.Commit(ctx, table, c)
	if err != nil || c.OnlyQueue {
		return v, err
	}
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	due, ok := w.expect[table]
	if !ok {
		return v, err
	}
	if !due.IsZero() && !now.Before(due) {
		w.all = append(w.all, now.Sub(due))
		for i, p := range w.planted[table] {
			if !now.Before(p) {
				w.late = append(w.late, now.Sub(p))
				w.planted[table] = slices.Delete(w.planted[table], i, i+1)
				break
			}
		}
	}
	w.expect[table] = c.TimerAt
	return v, err
}

// report puts the lateness into res.
func (w *watched) report(res *Result) {
	w.mu.Lock()
	defer w.mu.Unlock()
	slices.Sort(w.late)
	slices.Sort(w.all)
	res.Fired, res.Timers = len(w.late), len(w.all)
	if len(w.late) > 0 {
		res.LateP50 = measure.Quantile(w.late, 0.5)
		res.LateP99 = measure.Quantile(w.late, 0.99)
		res.LateMax = measure.Ms(w.late[len(w.late)-1])
	}
	if len(w.all) > 0 {
		res.TimerP99 = measure.Quantile(w.all, 0.99)
	}
	for _, left := range w.planted {
		res.Missed += len(left)
	}
}

// memory is this process's resident memory and Go heap in use (MB) and
// its goroutines, after a GC that returns freed memory to the system.
func memory() (rss, heap float64, goroutines int) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return residentMB(), float64(ms.HeapAlloc) / (1 << 20), runtime.NumGoroutine()
}

// residentMB is VmRSS of /proc/self/status in MB (0 where there is none).
func residentMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// redisBytes is the MEMORY USAGE of every key under prefix.
func redisBytes(ctx context.Context, url, prefix string) (int64, error) {
	c, err := measure.DialRaw(url)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	var total int64
	var mu sync.Mutex
	err = measure.EachNode(ctx, c, func(ctx context.Context, n *redis.Client) error {
		keys, err := measure.ScanKeys(ctx, n, prefix)
		if err != nil {
			return err
		}
		for len(keys) > 0 {
			batch := keys[:min(len(keys), 500)]
			keys = keys[len(batch):]
			pipe := n.Pipeline()
			sizes := make([]*redis.IntCmd, len(batch))
			for i, k := range batch {
				sizes[i] = pipe.MemoryUsage(ctx, k, 0)
			}
			if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
				return err
			}
			for _, s := range sizes {
				if b, err := s.Result(); err == nil {
					mu.Lock()
					total += b
					mu.Unlock()
				}
			}
		}
		return nil
	})
	return total, err
}
