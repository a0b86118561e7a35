package chekharda_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/chekharda"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// Measuring Чехарда in Telegram (docs/chekharda.md, "In Telegram"):
//
//	go test ./bot -run TestChekhardaMeasure -chekharda.measure -v -timeout 30m
//
// plays one game each with 2, 4 and 6 people pressing random buttons at
// the given pace, with Telegram's real limits in the fake Bot API and the
// bot's production limits, and reports how long a committed grab takes to
// show in every player's private message, and the calls per chat.
var (
	chekhardaMeasure = flag.Bool("chekharda.measure", false, "measure Чехарда's delivery in real time (minutes)")
	chekhardaPlayers = flag.String("chekharda.players", "2,4,6", "table sizes to measure")
	chekhardaPaceLo  = flag.Duration("chekharda.pace_lo", 200*time.Millisecond, "shortest pause between a person's presses")
	chekhardaPaceHi  = flag.Duration("chekharda.pace_hi", 800*time.Millisecond, "longest pause between a person's presses")
	chekhardaShort   = flag.Bool("chekharda.short", false, "play to 30 instead of 77")
)

// chekhardaCommits records every commit of a table with its time and record.
type chekhardaCommits struct {
	*store.Redis
	mu      sync.Mutex
	commits []chekhardaCommit
}

type chekhardaCommit struct {
	table   string
	version int64
	at      time.Time
	data    []byte
}

func (c *chekhardaCommits) Commit(ctx context.Context, table string, ch store.Change) (int64, error) {
	v, err := c.Redis.Commit(ctx, table, ch)
	if err == nil {
		at := time.Now()
		c.mu.Lock()
		c.commits = append(c.commits, chekhardaCommit{table: table, version: v, at: at, data: ch.Data})
		c.mu.Unlock()
	}
	return v, err
}

// chekhardaSighting is a private chat's newest message text from the moment it
// appeared.
type chekhardaSighting struct {
	at   time.Time
	text string
}

// chekhardaWatch records every change of each user's newest private message.
func chekhardaWatch(srv *telegramtest.Server, users []*telegramtest.User, done <-chan struct{}) func() map[int64][]chekhardaSighting {
	seen := map[int64][]chekhardaSighting{}
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			stop := false
			srv.WaitFor(time.Second, func() bool {
				select {
				case <-done:
					stop = true
					return true
				default:
				}
				changed := false
				for _, u := range users {
					last := u.PrivateChat().Last()
					if last == nil {
						continue
					}
					s := seen[u.ID()]
					if len(s) == 0 || s[len(s)-1].text != last.Text {
						seen[u.ID()] = append(s, chekhardaSighting{at: time.Now(), text: last.Text})
						changed = true
					}
				}
				return changed
			})
			if stop {
				return
			}
		}
	}()
	return func() map[int64][]chekhardaSighting { <-finished; return seen }
}

// chekhardaRefusalKey finds the catalog key of a refusal toast: each of
// the game's refusal texts with its placeholders as wildcards.
func chekhardaRefusalKey(cat *locales.Catalog, text string) string {
	for _, key := range cat.Keys() {
		if !strings.HasPrefix(key, "chekharda.explain.") && !strings.HasPrefix(key, "chekharda.error.") && !strings.HasPrefix(key, "error.") {
			continue
		}
		const hole = "\x00"
		pattern := cat.T("ru", key, "Name", hole, "Emoji", hole, "Victim", hole)
		re := "^" + strings.ReplaceAll(regexp.QuoteMeta(pattern), regexp.QuoteMeta(hole), ".*") + "$"
		if ok, _ := regexp.MatchString(re, text); ok {
			return key
		}
	}
	return text
}

func chekhardaPercentile(xs []time.Duration, p float64) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func TestChekhardaMeasure(t *testing.T) {
	if !*chekhardaMeasure {
		t.Skip("a measurement: run with -chekharda.measure")
	}
	for _, n := range chekhardaInts(*chekhardaPlayers) {
		t.Run(fmt.Sprintf("players=%d", n), func(t *testing.T) { measureChekharda(t, n) })
	}
}

func chekhardaInts(s string) []int {
	var out []int
	n, in := 0, false
	for _, r := range s + "," {
		if r >= '0' && r <= '9' {
			n, in = n*10+int(r-'0'), true
			continue
		}
		if in {
			out = append(out, n)
		}
		n, in = 0, false
	}
	return out
}

func measureChekharda(t *testing.T, players int) {
	srv := telegramtest.NewServer(telegramtest.WithTB(t)) // Telegram's limits
	t.Cleanup(srv.Close)
	rec := &chekhardaCommits{Redis: store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})}
	h := &bottest.Harness{Games: allGames(), Srv: srv, Store: rec, Cfg: bot.Config{TurnTimeout: time.Minute},
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)}
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Stop)
	names := []string{"Аня", "Борис", "Вера", "Глеб", "Даша", "Егор"}
	var people []*telegramtest.User
	for _, name := range names[:players] {
		u := srv.NewUser(name)
		if err := h.Begin(u); err != nil {
			t.Fatal(err)
		}
		people = append(people, u)
	}
	group := srv.NewGroup("Замер", people...)
	chekhardaTable(t, h, group, people[0], people[1:], chekhardaSetup{short: *chekhardaShort})
	start := time.Now()
	firstCall := len(srv.Calls())

	done := make(chan struct{})
	sightings := chekhardaWatch(srv, people, done)
	pace := bottest.Pace(*chekhardaPaceLo, *chekhardaPaceHi, uint64(players))
	var waits []func() bottest.Presses
	for i, u := range people {
		waits = append(waits, bottest.PressRandomly(u, done, pace, rand.New(rand.NewPCG(uint64(players), uint64(i))), 30*time.Second))
	}
	if _, err := group.WaitMessage(20*time.Minute, chekhardaFinal); err != nil {
		t.Fatal(err)
	}
	// Let the last views arrive before the watch ends.
	time.Sleep(3 * time.Second)
	close(done)
	seen := sightings()
	cat := bottest.Catalog(t)
	made, refused := 0, 0
	why := map[string]int{}
	for _, w := range waits {
		p := w()
		made += p.Made
		for text, n := range p.Refused {
			refused += n
			why[chekhardaRefusalKey(cat, text)] += n
		}
	}
	elapsed := time.Since(start)

	// Every commit of the table, as the record it stored, and what each
	// person's message looks like at that version.
	id := fmt.Sprint(group.ID())
	type version struct {
		at    time.Time
		moves int
		last  record.Move
		texts []string
	}
	var versions []version
	rec.mu.Lock()
	commits := slices.Clone(rec.commits)
	rec.mu.Unlock()
	for _, c := range commits {
		if c.table != id || c.at.Before(start) {
			continue
		}
		var tab record.Table
		if err := json.Unmarshal(c.data, &tab); err != nil || tab.State == nil || tab.GameID != "chekharda" {
			continue
		}
		v := version{at: c.at, moves: len(tab.Log)}
		if len(tab.Log) > 0 {
			v.last = tab.Log[len(tab.Log)-1]
		}
		for s := range people {
			text, err := chekharda.SeatText(cat, &tab, s)
			if err != nil {
				t.Fatal(err)
			}
			v.texts = append(v.texts, text)
		}
		versions = append(versions, v)
	}
	// A grab is a committed steal or add by a person. It shows in a
	// private chat when the chat's newest message first shows this or any
	// later version.
	var lat []time.Duration
	missing, grabs := 0, 0
	for g, v := range versions {
		if g > 0 && v.moves == versions[g-1].moves || v.last.Seat == game.System || v.last.Auto {
			continue
		}
		m, ok := ck.Decode(v.last.Action)
		if !ok || (m.Type != ck.MoveSteal && m.Type != ck.MoveAdd) {
			continue
		}
		grabs++
		for s, u := range people {
			later := map[string]bool{}
			for _, w := range versions[g:] {
				later[w.texts[s]] = true
			}
			found := false
			for _, o := range seen[u.ID()] {
				if !o.at.Before(v.at) && later[o.text] {
					lat = append(lat, o.at.Sub(v.at))
					found = true
					break
				}
			}
			if !found {
				missing++
			}
		}
	}
	private, group429, private429, groupCalls := 0, 0, 0, 0
	for _, c := range srv.CallsSince(firstCall) {
		switch {
		case c.ErrorCode == 429 && c.ChatID < 0:
			group429++
		case c.ErrorCode == 429:
			private429++
		case c.Method == "answerCallbackQuery" || c.Method == "getUpdates":
		case c.ChatID == group.ID():
			groupCalls++
		case c.ChatID > 0:
			private++
		}
	}
	secs := elapsed.Seconds()
	t.Logf("%d players: game %v, %d grabs, %d presses (%d refused)", players, elapsed.Round(time.Second), grabs, made, refused)
	t.Logf("grab → every private view: p50 %v, p90 %v, p99 %v, max %v (%d sightings, %d not seen)",
		chekhardaPercentile(lat, 0.5).Round(time.Millisecond), chekhardaPercentile(lat, 0.9).Round(time.Millisecond),
		chekhardaPercentile(lat, 0.99).Round(time.Millisecond), chekhardaPercentile(lat, 1).Round(time.Millisecond), len(lat), missing)
	for _, key := range slices.Sorted(maps.Keys(why)) {
		t.Logf("refused %d× %s", why[key], key)
	}
	t.Logf("private calls: %.2f/s per player; group calls: %.1f/min (peak %d in any 60 s); 429s: group %d, private %d",
		float64(private)/secs/float64(players), float64(groupCalls)/secs*60, srv.PeakCalls(group.ID(), time.Minute), group429, private429)
}
