package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/locales"
)

// TestDealReplaysEveryRound: a v2 game of every game, played to its end,
// its file written as the players get it; aibench deal, given the reveal
// and the file, prints the commitment and every deal of the game — each
// round, rebuilt pile and blind pick — never a seat by its number. A v2 reveal without its file, a reveal the file's commitment
// does not match, and a file of another reveal are refused.
func TestDealReplaysEveryRound(t *testing.T) {
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	l := adapter.NewLoc(cat, "ru")
	names := []string{"Оля", "Серёжа", "Дима", "Аня", "Борис", "Вера"}
	for _, g := range games.All() {
		if _, ok := g.(adapter.DealGame); !ok {
			continue
		}
		id := g.ID()
		lo, _ := g.SeatRange()
		n := max(lo, 3)
		tab := &record.Table{GameID: id, GameNo: 5, Creator: 1, Secret: fmt.Sprintf("%032x", len(id)*7919), Phase: record.PhaseIdle}
		for i := range n {
			s := record.Seat{UserID: int64(i + 1), Name: names[i]}
			if i == n-1 {
				s = record.Seat{Name: "Робот 1", AI: "cook"}
			}
			tab.Seats = append(tab.Seats, s)
			tab.Drawn = append(tab.Drawn, fmt.Sprint(4382094170129871000+i))
		}
		tab.Drawn = append(tab.Drawn, "4382094170129879999")
		seeds, err := deal.Derive(deal.TableReveal(tab), deal.InputsOf(tab))
		if err != nil {
			t.Fatal(err)
		}
		tab.Seed, tab.RobotSeed = seeds.Deal, seeds.Robots
		st, err := g.Start(adapter.View(tab))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(7, 1))
		for !st.Over() {
			act := st.ToAct()
			s := act[r.IntN(len(act))]
			legal := st.Legal(s)
			a := legal[r.IntN(len(legal))]
			if err := st.Apply(s, a); err != nil {
				t.Fatal(err)
			}
			tab.Log = append(tab.Log, record.Move{Seat: s, Action: a})
		}
		f, ok := deal.FileOf(tab)
		if !ok {
			t.Fatal("no file")
		}
		path := filepath.Join(t.TempDir(), f.Name())
		if err := os.WriteFile(path, f.Encode(), 0o600); err != nil {
			t.Fatal(err)
		}
		reveal := deal.TableReveal(tab)
		out := runOut(t, "deal", "-reveal", reveal, "-log", path)
		want, err := deal.TellTable(g, tab, tab.Log, l)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "🔒 "+deal.Commitment(reveal)) || len(deal.Commitment(reveal)) != 32 {
			t.Fatalf("%s: no commitment:\n%s", id, out)
		}
		for i, text := range want {
			if !strings.Contains(out, text) {
				t.Fatalf("%s: deal %d of %d missing:\n%s\n---\n%s", id, i+1, len(want), text, out)
			}
		}
		if len(want) == 0 {
			t.Fatalf("%s: no deal told", id)
		}
		if strings.Contains(out, l.T("review.deal_seat", "N", 1)) {
			t.Fatalf("%s: a seat by number:\n%s", id, out)
		}
		refused(t, "deal", "-reveal", reveal)
		refused(t, "deal", "-reveal", deal.RevealV2(strings.Repeat("0", 32)), "-log", path)
		refused(t, "deal", "-reveal", reveal, "-log", filepath.Join(t.TempDir(), "missing.json"))
	}
}
