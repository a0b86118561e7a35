// Package golden pins how a game's messages look: golden files of the
// group table and every seat's private message of representative states,
// in every language, rendered exactly as the platform renders them.
// Reviewing a UI change means reading the diff of testdata/golden after
//
//	go test ./bot/... -run Golden -update
//
// It is for tests only: it registers the -update flag.
package golden

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/locales"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// Names are the people at golden tables, in seat order.
var Names = []string{"Оля", "Серёжа", "Маша", "Дима", "Катя", "Артём", "Лена", "Вова"}

// Clock is the fixed "now" of golden renders (deadlines show it).
var Clock = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// Salt is the deal's salt at golden tables, so the table shows the deal's
// commitment while the game runs and its reveal once it is over.
const Salt uint64 = 0x5a175a175a175a17

// Table seats n players (the last robots of them robots at level) at a
// table of game g dealt from seed, salted with Salt.
func Table(t testing.TB, g adapter.Game, n, robots int, level string, seed uint64, opts map[string]int) (*record.Table, game.State) {
	t.Helper()
	tab := &record.Table{ID: "-100123", ChatID: -100123, Title: "Друзья", Lang: "ru", Phase: record.PhasePlaying,
		GameNo: 1, GameID: g.ID(), Creator: 1, Seed: seed, Salt: Salt, Options: opts}
	for i := 0; i < n; i++ {
		s := record.Seat{UserID: int64(i + 1), Name: Names[i]}
		if i >= n-robots {
			s = record.Seat{Name: "Робот " + fmt.Sprint(i-n+robots+1), AI: level}
		}
		tab.Seats = append(tab.Seats, s)
	}
	st, err := g.Start(adapter.View(tab))
	if err != nil {
		t.Fatal(err)
	}
	syncClocks(t, g, tab, st)
	return tab, st
}

// Sync stores st in the table and sets the timers as the bot would, at
// Clock.
func Sync(t testing.TB, tab *record.Table, st game.State) {
	t.Helper()
	data, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	tab.State = data
	tab.SystemAt = time.Time{}
	for i := range tab.Seats {
		tab.Seats[i].Due = time.Time{}
	}
	if st.Over() {
		tab.Phase = record.PhaseIdle
		return
	}
	for _, s := range st.ToAct() {
		if ts := tab.Seat(s); ts != nil {
			ts.Due = Clock.Add(time.Minute)
		}
	}
}

// syncClocks is Sync for a table of game g: a game with its own clocks
// (adapter.ClockGame) gives its people the timers it would give them in play,
// so a hand shows a deadline only where a real one would.
func syncClocks(t testing.TB, g adapter.Game, tab *record.Table, st game.State) {
	t.Helper()
	Sync(t, tab, st)
	c, ok := g.(adapter.ClockGame)
	if !ok || st.Over() {
		return
	}
	for i := range tab.Seats {
		s := &tab.Seats[i]
		if s.Due.IsZero() || !s.Human() {
			continue
		}
		s.Due = time.Time{}
		if d, ok := c.Delay(adapter.View(tab), st, game.Seat(i), "", 0); ok {
			s.Due = Clock.Add(d)
		}
	}
}

// PlayRandom applies n random legal actions (or until the game ends),
// seeded, the way a table of careless players would. It returns the state
// before the last action, for the announcements that action made.
func PlayRandom(t testing.TB, g adapter.Game, tab *record.Table, st game.State, n int, seed uint64) (before game.State) {
	t.Helper()
	return PlayWhile(t, g, tab, st, rand.New(rand.NewPCG(seed, 7)), func(i int, st game.State) bool {
		return i < n && !st.Over()
	})
}

// PlayWhile applies random legal actions drawn from r (by any seat to
// act, the system's too) while more(i, st) holds before the i-th, counting
// each seat's actions as the platform does, then syncs the table. It
// returns the state before the last action.
func PlayWhile(t testing.TB, g adapter.Game, tab *record.Table, st game.State, r *rand.Rand, more func(i int, st game.State) bool) (before game.State) {
	t.Helper()
	for i := 0; more(i, st); i++ {
		act := st.ToAct()
		s := act[r.IntN(len(act))]
		legal := st.Legal(s)
		data, err := st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if before, err = g.Decode(data); err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(s, legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
		if ts := tab.Seat(s); ts != nil {
			ts.Nonce++
		}
	}
	syncClocks(t, g, tab, st)
	return before
}

// Views render as the bot does: the games, the catalog and the username
// golden renders use, the clock stopped at Clock.
func Views(t testing.TB, games ...adapter.Game) *view.Renderer {
	return view.New(view.Config{Username: "trickchefbot", TurnTimeout: time.Minute, DefaultLang: locales.Default},
		games, Catalog(t), func() time.Time { return Clock }, zerolog.Nop())
}

// Catalog loads the real message catalogs.
func Catalog(t testing.TB) *locales.Catalog {
	t.Helper()
	c, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Render renders the group message and every seat's message of a table
// in every language, plus any announcements a move from before to the
// current state made, as one text.
func Render(t testing.TB, g adapter.Game, tab *record.Table, before game.State) string {
	t.Helper()
	cat := Catalog(t)
	b := Views(t, g)
	var sb strings.Builder
	for _, lang := range cat.Langs() {
		tab.Lang = lang
		l := adapter.NewLoc(cat, lang)
		st, err := g.Decode(tab.State)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "════ %s: group\n%s\n", lang, Show(b.Group(tab)))
		for i, s := range tab.Seats {
			if !s.Human() {
				continue
			}
			m, err := b.Seat(tab, i)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sb, "──── %s: %s (seat %d)\n%s\n", lang, s.Name, i, Show(m))
		}
		if before != nil {
			for k, m := range g.Announce(l, adapter.View(tab), before, st) {
				fmt.Fprintf(&sb, "──── %s: announcement %d\n%s\n", lang, k+1, Show(m))
			}
		}
	}
	tab.Lang = "ru"
	return sb.String()
}

// Show is a message as a person sees it: the text, then the keyboard a
// row a line.
func Show(m adapter.Message) string {
	var sb strings.Builder
	sb.WriteString(m.Text)
	if m.Ping {
		sb.WriteString("\n(notifies)")
	}
	if m.Lazy {
		sb.WriteString("\n(not redrawn while the game goes on)")
	}
	for _, row := range m.Keyboard {
		sb.WriteString("\n")
		for i, bt := range row {
			if i > 0 {
				sb.WriteString(" ")
			}
			sb.WriteString("[" + bt.Text + "]")
		}
	}
	return sb.String()
}

// Check compares got with testdata/golden/name.txt of the test's package
// (rewritten with -update).
func Check(t testing.TB, name, got string) {
	t.Helper()
	CheckAt(t, ".", name, got)
}

// CheckAt compares got with dir/testdata/golden/name.txt: a test that
// ranges over the games keeps each game's golden files in the game's own
// folder.
func CheckAt(t testing.TB, dir, name, got string) {
	t.Helper()
	path := filepath.Join(dir, "testdata", "golden", name+".txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bot/... -run Golden -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; if the change is intended, run\n\tgo test ./bot/... -run Golden -update\nand review the diff.\n--- got:\n%s", path, got)
	}
}
