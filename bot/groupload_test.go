package bot_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// The group's budget under load (docs/bot.md, "A group's 20 calls"): a busy
// Чехарда and a busy Меню шефа game, each in its own group, while the
// group's members send /top, /stats and /rules at random moments, through
// the fake Bot API with Telegram's limits run groupload.speedup times
// faster. It reports, in real time (scaled back), command → reply p50/p99,
// a round's end → its announcement p50/p99, 429s and the most group calls
// in any minute; it asserts only correctness. A longer, slower run:
//
//	go test ./bot -run TestGroupBudgetUnderLoad -groupload.speedup 1 -groupload.for 4m -v -timeout 10m
var (
	groupLoadSpeedup = flag.Int("groupload.speedup", 5, "run Telegram's limits (and the bot's) this many times faster")
	groupLoadFor     = flag.Duration("groupload.for", 30*time.Second, "how long the games are played (wall time)")
	groupLoadEvery   = flag.Duration("groupload.every", 20*time.Second, "mean pause between commands in a group (real time)")
)

// loadCommits records the commits of every table: when, the version, the
// table, and the outbox entries they queued.
type loadCommits struct {
	*store.Redis
	mu      sync.Mutex
	commits []loadCommit
}

type loadCommit struct {
	table   string
	version int64
	at      time.Time
	data    []byte
	outbox  [][]byte
}

func (c *loadCommits) Commit(ctx context.Context, table string, ch store.Change) (int64, error) {
	v, err := c.Redis.Commit(ctx, table, ch)
	if err == nil {
		at := time.Now()
		c.mu.Lock()
		c.commits = append(c.commits, loadCommit{table: table, version: v, at: at, data: ch.Data, outbox: ch.Outbox})
		c.mu.Unlock()
	}
	return v, err
}

func (c *loadCommits) of(table string) []loadCommit {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []loadCommit
	for _, x := range c.commits {
		if x.table == table {
			out = append(out, x)
		}
	}
	return out
}

// outEntry is what the test reads of a queued outbox entry.
type outEntry struct {
	ChatID int64           `json:"chat"`
	Text   string          `json:"text"`
	Reply  bool            `json:"reply"`
	Result json.RawMessage `json:"result"`
	Query  json.RawMessage `json:"query"`
}

// sighting is the group table's text from the moment it was seen.
type sighting struct {
	at   time.Time
	text string
}

// loadGroup is one group under load: its game, people, the commands sent
// and what its table showed.
type loadGroup struct {
	game     string
	chat     *telegramtest.Chat
	people   []*telegramtest.User
	table    int // the table message's id
	mu       sync.Mutex
	commands []*telegramtest.Message
	seen     []sighting
}

func TestGroupBudgetUnderLoad(t *testing.T) {
	speed := time.Duration(max(1, *groupLoadSpeedup))
	d := telegramtest.DefaultLimits()
	fake := telegramtest.Limits{
		Group:   telegramtest.Rate{N: d.Group.N, Per: d.Group.Per / speed},
		Private: telegramtest.Rate{N: d.Private.N, Per: d.Private.Per / speed},
		Global:  telegramtest.Rate{N: d.Global.N, Per: d.Global.Per / speed},
	}
	private := 1100 * time.Millisecond
	if speed > 1 {
		private = 1600 * time.Millisecond // scheduling jitter is a large part of a scaled spacing
	}
	ours := bot.Limits{GroupInterval: 3100 * time.Millisecond / speed, PrivateInterval: private / speed,
		GlobalPerSecond: 25 * int(speed), GlobalSlice: 200 * time.Millisecond / speed}
	srv := telegramtest.NewServer(telegramtest.WithLimits(fake), telegramtest.WithTB(t))
	t.Cleanup(srv.Close)
	rec := &loadCommits{Redis: store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})}
	h := &bottest.Harness{Games: allGames(), Srv: srv, Store: rec,
		Cfg: bot.Config{TurnTimeout: time.Hour, Limits: ours},
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)}
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Stop)

	// A Чехарда game of four people pressing fast, a Меню шефа game of
	// three people playing at once and a robot.
	newGroup := func(game, title string, names ...string) *loadGroup {
		g := &loadGroup{game: game}
		for _, n := range names {
			u := srv.NewUser(n)
			if err := h.Begin(u); err != nil {
				t.Fatal(err)
			}
			g.people = append(g.people, u)
		}
		g.chat = srv.NewGroup(title, g.people...)
		robots := 0
		if game == "chef" {
			robots = 1
		}
		lobby, err := h.LobbyFor(game, g.chat, g.people[0], g.people[1:], robots)
		if err != nil {
			t.Fatal(err)
		}
		g.table = lobby.ID
		if err := h.StartGame(g.people[0], lobby); err != nil {
			t.Fatal(err)
		}
		return g
	}
	groups := []*loadGroup{
		newGroup("chekharda", "Чехарда", "Аня", "Борис", "Вера", "Глеб"),
		newGroup("chef", "Меню", "Даша", "Егор", "Женя"),
	}
	start := time.Now()
	firstCall := len(srv.Calls())

	done := make(chan struct{})
	var wg sync.WaitGroup
	var stops []func()
	for gi, g := range groups {
		switch g.game {
		case "chekharda":
			pace := bottest.Pace(150*time.Millisecond, 600*time.Millisecond, 7)
			for i, u := range g.people {
				w := bottest.PressRandomly(u, done, pace, rand.New(rand.NewPCG(7, uint64(i))), 30*time.Second)
				stops = append(stops, func() { w() })
			}
		default:
			rng := rand.New(rand.NewPCG(8, 1))
			for _, u := range g.people {
				w := h.RandomPlayer(u, done, rng, nil)
				stops = append(stops, func() { w() })
			}
		}
		// The table as the group sees it, each change with its time.
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				stop := false
				srv.WaitFor(time.Second, func() bool {
					select {
					case <-done:
						stop = true
						return true
					default:
					}
					m := g.chat.Message(g.table)
					if m == nil {
						return false
					}
					g.mu.Lock()
					defer g.mu.Unlock()
					if n := len(g.seen); n == 0 || g.seen[n-1].text != m.Text {
						g.seen = append(g.seen, sighting{time.Now(), m.Text})
						return true
					}
					return false
				})
				if stop {
					return
				}
			}
		}()
		// Members send commands at random moments.
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(9, uint64(gi)))
			commands := []string{"/top", "/stats", "/rules " + g.game, "/rules"}
			for {
				pause := time.Duration(rng.ExpFloat64() * float64(*groupLoadEvery/speed))
				select {
				case <-done:
					return
				case <-time.After(pause):
				}
				u := g.people[rng.IntN(len(g.people))]
				c := commands[rng.IntN(len(commands))]
				g.mu.Lock()
				g.commands = append(g.commands, u.Send(g.chat, c))
				g.mu.Unlock()
			}
		}()
	}
	time.Sleep(*groupLoadFor)
	close(done)
	wg.Wait()
	for _, s := range stops {
		s()
	}
	played := time.Since(start)

	// Everything committed is delivered: every command has its reply and
	// every announcement is sent.
	var replyWaits, announceWaits []time.Duration
	for _, g := range groups {
		table := strconv.FormatInt(g.chat.ID(), 10)
		var checkErr error
		var replies []*telegramtest.Message
		var anns []announcement
		_ = srv.WaitFor(60*time.Second, func() bool {
			replies, anns, checkErr = g.match(rec.of(table))
			return checkErr == nil
		})
		if checkErr != nil {
			t.Errorf("%s: %v", g.game, checkErr)
			continue
		}
		for i, c := range g.commands {
			replyWaits = append(replyWaits, replies[i].Date.Sub(c.Date)*speed)
		}
		for i, a := range anns {
			announceWaits = append(announceWaits, a.sent.Date.Sub(a.commit.at)*speed)
			if i > 0 && a.sent.ID < anns[i-1].sent.ID {
				t.Errorf("%s: announcement %q sent before %q, queued after it", g.game, a.sent.Text, anns[i-1].sent.Text)
			}
		}
		g.checkTable(t, h.Bot, rec.of(table), anns)
		if peak := srv.PeakCalls(g.chat.ID(), time.Minute/speed); peak > 20 {
			t.Errorf("%s: %d calls to the group in one minute, want ≤ 20", g.game, peak)
		} else {
			// The game is busy until its final result (or the end of the run).
			end := start.Add(played)
			if final := g.chat.Find(h.Won()); final != nil && final.Date.Before(end) {
				end = final.Date
			}
			calls := map[string]int{}
			for _, c := range srv.Calls()[firstCall:] {
				if c.ChatID == g.chat.ID() && c.OK && c.Time.Before(end) {
					calls[c.Method]++
				}
			}
			t.Logf("%s: busy %v: %d commands, %d announcements, %d table changes seen; group calls %v (%.1f table edits a minute); peak %d in a minute",
				g.game, (end.Sub(start) * speed).Round(time.Second), len(g.commands), len(anns), len(g.seen), calls,
				float64(calls["editMessageText"])/(end.Sub(start)*speed).Minutes(), peak)
		}
	}
	n429 := 0
	for _, c := range srv.Calls()[firstCall:] {
		if c.ErrorCode == 429 {
			n429++
		}
	}
	if n429 > 0 {
		t.Errorf("%d × 429", n429)
	}
	t.Logf("played %v wall (%v real time at %d×): command → reply p50 %v p99 %v max %v (%d); round end → announcement p50 %v p99 %v max %v (%d); %d × 429",
		played.Round(time.Second), (played * speed).Round(time.Second), speed,
		pct(replyWaits, 0.5), pct(replyWaits, 0.99), pct(replyWaits, 1), len(replyWaits),
		pct(announceWaits, 0.5), pct(announceWaits, 0.99), pct(announceWaits, 1), len(announceWaits), n429)
}

func pct(xs []time.Duration, p float64) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))].Round(10 * time.Millisecond)
}

// announcement is a queued announcement and the group message that showed it.
type announcement struct {
	commit loadCommit
	sent   *telegramtest.Message
}

// match pairs the group's bot messages with what was queued: announcements
// by their text, in queue order; the rest (not the table) are replies, in
// the order of the commands. It fails while something is not delivered.
func (g *loadGroup) match(commits []loadCommit) ([]*telegramtest.Message, []announcement, error) {
	var pending []announcement
	var texts []string
	replies := 0
	for _, c := range commits {
		for _, raw := range c.outbox {
			var e outEntry
			if err := json.Unmarshal(raw, &e); err != nil {
				return nil, nil, err
			}
			switch {
			case e.ChatID != g.chat.ID():
				// A person's own result, sent to their private chat.
			case e.Reply:
				replies++
			case e.Result == nil && e.Query == nil && e.Text != "":
				pending = append(pending, announcement{commit: c})
				texts = append(texts, bottest.Plain(adapter.Clip(e.Text)))
			}
		}
	}
	var msgs []*telegramtest.Message
	first := g.commandsFrom()
	for _, m := range g.chat.BotMessages() {
		if m.ID > first && m.ID != g.table {
			msgs = append(msgs, m)
		}
	}
	next := 0
	var rest []*telegramtest.Message
	for _, m := range msgs {
		if next < len(pending) && m.Text == texts[next] {
			pending[next].sent = m
			next++
			continue
		}
		rest = append(rest, m)
	}
	g.mu.Lock()
	sent := len(g.commands)
	g.mu.Unlock()
	if next < len(pending) {
		return nil, nil, fmt.Errorf("%d of %d announcements not sent (first missing %q)", len(pending)-next, len(pending), texts[next])
	}
	if len(rest) != sent || replies != sent {
		return nil, nil, fmt.Errorf("%d commands sent, %d queued replies, %d replies shown", sent, replies, len(rest))
	}
	return rest, pending, nil
}

// commandsFrom is the id of the last message before the load began: the
// table's (the lobby message, posted when the game was created).
func (g *loadGroup) commandsFrom() int { return g.table }

// checkTable: no announcement arrived after the table showed something of
// a later change. A table text is "of a later change" if the table of that
// change or a later one renders it and no earlier change's does.
func (g *loadGroup) checkTable(t *testing.T, b *bot.Bot, commits []loadCommit, anns []announcement) {
	t.Helper()
	first := map[string]int64{} // text → the earliest version rendering it
	for _, c := range commits {
		tab, err := record.Decode(c.data)
		if err != nil {
			t.Fatal(err)
		}
		text := bottest.Plain(adapter.Clip(b.Views.Group(tab).Text))
		if v, ok := first[text]; !ok || c.version < v {
			first[text] = c.version
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, a := range anns {
		for _, s := range g.seen {
			if !s.at.After(a.commit.at) || !s.at.Before(a.sent.Date) {
				continue
			}
			if v, ok := first[s.text]; ok && v >= a.commit.version {
				t.Errorf("%s: the table showed change %d before the announcement of change %d (%q) arrived",
					g.game, v, a.commit.version, a.sent.Text)
			}
		}
	}
}
