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

// Golden files pin how messages look: the group table and every seat's
// private message of representative states, in every language. Reviewing a
// UI change means reading the diff of bot/testdata/golden after
//
//	go test ./bot -run Golden -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

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

// renderGolden renders the group message and every seat's message of a
// table in every language, plus any announcements a move from before to
// the current state made, as one text.
func renderGolden(t *testing.T, g Game, tab *Table, before game.State) string {
	t.Helper()
	cat := testCatalog(t)
	b := &Bot{tr: cat, games: &registry{games: []Game{g}}, cfg: Config{Username: "trickchefbot"}}
	var sb strings.Builder
	for _, lang := range cat.Langs() {
		tab.Lang = lang
		l := b.loc(lang)
		st, err := g.Decode(tab.Game)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "════ %s: group\n%s\n", lang, showMessage(b.renderTable(tab)))
		for i, s := range tab.Seats {
			if !s.Human() {
				continue
			}
			m := g.RenderSeat(l, tab, st, i)
			b.addAutoNotice(tab, i, &m)
			fmt.Fprintf(&sb, "──── %s: %s (seat %d)\n%s\n", lang, s.Name, i, showMessage(m))
		}
		if before != nil {
			for k, m := range g.Announce(l, tab, before, st) {
				fmt.Fprintf(&sb, "──── %s: announcement %d\n%s\n", lang, k+1, showMessage(m))
			}
		}
	}
	tab.Lang = "ru"
	return sb.String()
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
		t.Fatalf("%v (run go test ./bot -run Golden -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; if the change is intended, run\n\tgo test ./bot -run Golden -update\nand review the diff.\n--- got:\n%s", path, got)
	}
}

// TestGoldenLobby pins the lobby: the game choice and a seated lobby with
// robots and options.
func TestGoldenLobby(t *testing.T) {
	cat := testCatalog(t)
	b := &Bot{tr: cat, games: &registry{games: testGames()}, cfg: Config{Username: "trickchefbot"}}
	tab := &Table{ID: "-100123", ChatID: -100123, Title: "Друзья", Phase: PhaseLobby, GameNo: 3, Creator: 1,
		Seats: []Seat{{UserID: 1, Name: "Оля"}, {UserID: 2, Name: "Серёжа", Unreachable: true}}}
	var sb strings.Builder
	for _, lang := range cat.Langs() {
		tab.Lang = lang
		tab.Kind = ""
		fmt.Fprintf(&sb, "════ %s: choose\n%s\n", lang, showMessage(b.renderTable(tab)))
		for _, g := range testGames() {
			tab.Kind = g.ID()
			tab.Seats = append(tab.Seats[:2], Seat{Name: "Робот 1", AI: levels(g)[len(levels(g))-1]})
			fmt.Fprintf(&sb, "════ %s: %s\n%s\n", lang, g.ID(), showMessage(b.renderTable(tab)))
		}
	}
	golden(t, "lobby", sb.String())
}

func TestGoldenTrickchef(t *testing.T) {
	g := Trickchef()
	t.Run("start", func(t *testing.T) {
		tab, _ := goldenTable(t, g, 4, 1, "shef", 11, nil)
		golden(t, "trickchef_start", renderGolden(t, g, tab, nil))
	})
	t.Run("mid", func(t *testing.T) {
		tab, st := goldenTable(t, g, 3, 0, "", 12, map[string]int{"removed": 2})
		playRandom(t, g, tab, st, 40, 1)
		tab.Seats[1].Timeouts = 2 // the bot plays for Серёжа
		tab.Seats[0].Draft = []int{1}
		golden(t, "trickchef_mid", renderGolden(t, g, tab, nil))
	})
	t.Run("over", func(t *testing.T) {
		tab, st := goldenTable(t, g, 4, 0, "", 13, nil)
		before := playRandom(t, g, tab, st, 10000, 2)
		golden(t, "trickchef_over", renderGolden(t, g, tab, before))
	})
}

func TestGoldenSausages(t *testing.T) {
	g := Sausages()
	t.Run("setup", func(t *testing.T) {
		tab, _ := goldenTable(t, g, 5, 2, "sly", 21, nil)
		golden(t, "sausages_setup", renderGolden(t, g, tab, nil))
	})
	t.Run("bidding", func(t *testing.T) {
		tab, st := goldenTable(t, g, 4, 0, "", 22, nil)
		playRandom(t, g, tab, st, 9, 3)
		golden(t, "sausages_mid", renderGolden(t, g, tab, nil))
	})
	t.Run("over", func(t *testing.T) {
		tab, st := goldenTable(t, g, 3, 0, "", 23, nil)
		before := playRandom(t, g, tab, st, 100000, 4)
		golden(t, "sausages_over", renderGolden(t, g, tab, before))
	})
}
