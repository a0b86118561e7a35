package bot

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/game"
)

// Golden files pin how the platform's messages look (the results; the
// games' own are pinned in their packages with bottest/golden). These
// helpers are bottest/golden's for the package's internal tests, which
// cannot import it (it imports bot). Reviewing a UI change means reading
// the diff of bot/testdata/golden after
//
//	go test ./bot/... -run Golden -update

// updating reports whether -update was given: the flag is registered by
// bottest/golden, which the package's external tests import.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// goldenNames are the people at golden tables, in seat order.
var goldenNames = []string{"Оля", "Серёжа", "Маша", "Дима", "Катя", "Артём", "Лена", "Вова"}

// goldenClock is the fixed "now" of golden renders (deadlines show it).
var goldenClock = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// goldenTable seats n players (the last robots of them robots at level)
// at a table of game g dealt from seed.
func goldenTable(t *testing.T, g Game, n, robots int, level string, seed uint64, opts map[string]int) (*Table, game.State) {
	t.Helper()
	tab := &Table{ID: "-100123", ChatID: -100123, Title: "Друзья", Lang: "ru", Phase: PhasePlaying,
		GameNo: 1, Kind: g.ID(), Creator: 1, Seed: seed, Options: opts}
	for i := 0; i < n; i++ {
		s := Seat{UserID: int64(i + 1), Name: goldenNames[i]}
		if i >= n-robots {
			s = Seat{Name: "Робот " + fmt.Sprint(i-n+robots+1), AI: level}
		}
		tab.Seats = append(tab.Seats, s)
	}
	st, err := g.Start(tab)
	if err != nil {
		t.Fatal(err)
	}
	syncGolden(t, tab, st)
	return tab, st
}

// syncGolden stores st in the table and sets the timers as the bot would, at the
// golden clock.
func syncGolden(t *testing.T, tab *Table, st game.State) {
	t.Helper()
	data, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	tab.Game = data
	tab.stopTimers()
	if st.Over() {
		tab.Phase = PhaseIdle
		return
	}
	for _, s := range st.ToAct() {
		if ts := tab.Seat(s); ts != nil {
			ts.Due = goldenClock.Add(time.Minute)
		}
	}
}

// playRandom applies n random legal actions (or until the game ends),
// seeded, the way a table of careless players would. It returns the state
// before the last action, for the announcements that action made.
func playRandom(t *testing.T, g Game, tab *Table, st game.State, n int, seed uint64) (before game.State) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < n && !st.Over(); i++ {
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
	syncGolden(t, tab, st)
	return before
}

// showMessage is a message as a person sees it: the text, then the
// keyboard a row a line.
func showMessage(m Message) string {
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

// golden compares got with testdata/golden/name.txt (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	if updating() {
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
		t.Fatalf("%v (run go test ./bot -run Golden -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; if the change is intended, run\n\tgo test ./bot -run Golden -update\nand review the diff.\n--- got:\n%s", path, got)
	}
}
