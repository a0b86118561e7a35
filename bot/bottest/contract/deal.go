package contract

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/locales"
)

// checkDeals: the table a reveal gives deals exactly the game the original
// table dealt, with options and a creator at any seat; the game tells its
// first deal from the reveal and, with the moves, each later shuffle, in
// the catalog's words; the golden file pins how, in every language.
func checkDeals(t *testing.T, g adapter.Game, dir string) {
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("same", func(t *testing.T) { checkRevealDealsTheSame(t, g) })
	t.Run("tell", func(t *testing.T) { checkTell(t, g, adapter.NewLoc(cat, "ru")) })
	t.Run("golden", func(t *testing.T) { golden.CheckAt(t, dir, "deals", dealsText(t, g, cat)) })
}

func checkRevealDealsTheSame(t *testing.T, g adapter.Game) {
	lo, hi := g.SeatRange()
	for n := lo; n <= hi; n++ {
		for creator := -1; creator < n; creator++ {
			tab := &record.Table{GameID: g.ID(), Seed: uint64(1000*n + creator + 7), Creator: 99, Options: map[string]int{}}
			for i := range n {
				s := record.Seat{Name: "Робот", AI: "cook"}
				if i == creator {
					s = record.Seat{UserID: 99, Name: "Оля"}
				}
				tab.Seats = append(tab.Seats, s)
			}
			for i, o := range adapter.Options(g) {
				tab.Options[o.Key] = (n + creator + i) % o.Values
			}
			want, err := g.Start(adapter.View(tab))
			if err != nil {
				t.Fatal(err)
			}
			d, err := deal.Parse(deal.Reveal(tab, 1))
			if err != nil {
				t.Fatal(err)
			}
			got, err := g.Start(adapter.View(d.Table()))
			if err != nil {
				t.Fatal(err)
			}
			a, _ := want.MarshalBinary()
			b, _ := got.MarshalBinary()
			if !bytes.Equal(a, b) {
				t.Fatalf("%s, %d seats, creator %d: the reveal deals another game", g.ID(), n, creator)
			}
		}
	}
}

func checkTell(t *testing.T, g adapter.Game, l adapter.Loc) {
	lo, _ := g.SeatRange()
	shuffles := 0
	for seed := uint64(1); seed <= 6; seed++ {
		tab := &record.Table{GameID: g.ID(), Seed: seed}
		for i := range lo + 1 {
			tab.Seats = append(tab.Seats, record.Seat{UserID: int64(i + 1), Name: fmt.Sprint("Игрок ", i+1)})
		}
		playOut(t, g, tab, rand.New(rand.NewPCG(seed, 1)))
		d, err := deal.Parse(deal.Reveal(tab, seed))
		if err != nil {
			t.Fatal(err)
		}
		deals, err := deal.Tell(g, d, tab.Log, l)
		if err != nil {
			t.Fatal(err)
		}
		first, err := deal.Tell(g, d, nil, l)
		if err != nil || len(first) != 1 || first[0] != deals[0] {
			t.Fatalf("%s: the first deal alone: %q, %v", g.ID(), first, err)
		}
		for _, text := range deals {
			if text == "" || strings.Contains(text, "{{") || strings.Contains(text, g.ID()+".") {
				t.Fatalf("%s: not the catalog's words: %q", g.ID(), text)
			}
		}
		shuffles += len(deals) - 1
	}
	if shuffles == 0 {
		t.Errorf("%s: no shuffle after the first in six games", g.ID())
	}
}

// dealsText is a whole game of random play told from its reveal and log,
// in every language.
func dealsText(t *testing.T, g adapter.Game, cat *locales.Catalog) string {
	lo, _ := g.SeatRange()
	tab := &record.Table{GameID: g.ID(), Seed: 42, Creator: 1}
	for i := range max(lo, 3) {
		tab.Seats = append(tab.Seats, record.Seat{UserID: int64(i + 1), Name: golden.Names[i]})
	}
	playOut(t, g, tab, rand.New(rand.NewPCG(42, 2)))
	reveal := deal.Reveal(tab, 7)
	d, err := deal.Parse(reveal)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, lang := range cat.Langs() {
		deals, err := deal.Tell(g, d, tab.Log, adapter.NewLoc(cat, lang))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "════ %s, %s, 🔒 %s 🔓 %s\n%s\n\n", g.ID(), lang, deal.Commitment(reveal), reveal, strings.Join(deals, "\n──\n"))
	}
	return sb.String()
}

// playOut plays tab's game from its start to the end at random, logging
// every move in tab.
func playOut(t *testing.T, g adapter.Game, tab *record.Table, r *rand.Rand) {
	st, err := g.Start(adapter.View(tab))
	if err != nil {
		t.Fatal(err)
	}
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
}
