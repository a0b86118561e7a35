package deal_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/chekharda"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/sausages"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/locales"
)

// A reveal is one word that reads back as itself, and its commitment is
// the SHA-256 prefix anyone can compute (printf %s word | sha256sum).
func TestReveal(t *testing.T) {
	r := deal.New("trickchef", 3, map[string]int{"removed": 1}, 255, 0x0123456789abcdef)
	if want := "trickchef:3:-:removed=1:00000000000000ff:0123456789abcdef"; r != want {
		t.Fatalf("reveal %q, want %q", r, want)
	}
	tab := &record.Table{GameID: "trickchef", Creator: 7, Seed: 255, Options: map[string]int{"removed": 1, "zero": 0},
		Seats: []record.Seat{{UserID: 7, Name: "Оля"}, {UserID: 8}, {Name: "Робот", AI: "cook"}}}
	r = deal.Reveal(tab, 0x0123456789abcdef)
	if want := "trickchef:3:0:removed=1:00000000000000ff:0123456789abcdef"; r != want {
		t.Fatalf("reveal %q, want %q", r, want)
	}
	if c := deal.Commitment(r); c != "123295a7eb22d637" || !deal.Check(r, c) || deal.Check(r+"x", c) {
		t.Fatalf("commitment %q", c)
	}
	d, err := deal.Parse(r)
	if err != nil {
		t.Fatal(err)
	}
	if d.Game != "trickchef" || d.Seats != 3 || d.Creator != 0 || d.Options["removed"] != 1 || d.Seed != 255 || d.Salt != 0x0123456789abcdef || d.String() != r {
		t.Fatalf("parsed %+v", d)
	}
	if strings.ContainsAny(r, " \n\t") {
		t.Fatalf("%q is not one word", r)
	}
	// The creator leaves the game: a robot takes the seat, and the
	// reveal (so the commitment shown since the deal) stays the same.
	tab.Seats[0] = record.Seat{Name: "Робот 2", AI: "cook", Leaver: &record.Leaver{UserID: 7, Name: "Оля"}}
	if got := deal.Reveal(tab, 0x0123456789abcdef); got != r {
		t.Fatalf("the creator left: reveal %q, want %q", got, r)
	}
}

// Anything but a reveal as String writes it is refused.
func TestParseRefuses(t *testing.T) {
	good := "chekharda:4:-:target=1,variant=1:00000000000000ff:0123456789abcdef"
	if _, err := deal.Parse(good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		"", "trickchef", good + ":x", strings.Replace(good, "chekharda", "Chekharda", 1),
		strings.Replace(good, ":4:", ":0:", 1), strings.Replace(good, ":4:", ":04:", 1), strings.Replace(good, ":4:", ":+4:", 1),
		strings.Replace(good, ":-:", ":4:", 1), strings.Replace(good, ":-:", ":-1:", 1),
		strings.Replace(good, "target=1,variant=1", "variant=1,target=1", 1), strings.Replace(good, "target=1", "target=0", 1),
		strings.Replace(good, "target=1", "target", 1), strings.Replace(good, "target=1,variant=1", "target=1,target=2", 1),
		strings.Replace(good, "00000000000000ff", "ff", 1), strings.Replace(good, "00000000000000ff", "00000000000000FF", 1),
		strings.Replace(good, "0123456789abcdef", "0123456789abcdeg", 1),
	} {
		if d, err := deal.Parse(bad); err == nil {
			t.Errorf("%q read as %+v", bad, d)
		}
	}
}

// The table a reveal gives deals exactly the game the original table
// dealt, in every game, with options and a creator at any seat.
func TestTableDealsTheSame(t *testing.T) {
	for _, g := range []adapter.Game{trickchef.Game(), sausages.Game(), chef.Game(), chekharda.Game()} {
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
}

// Every game tells its first deal from the reveal and, with the moves,
// each later shuffle: Трик-н-Шеф's three rounds, Чехарда's rounds, Меню
// шефа's rebuilt piles, Сосиски's blind picks; a log of another game is
// refused.
func TestTell(t *testing.T) {
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	l := adapter.NewLoc(cat, "ru")
	for _, g := range []adapter.Game{trickchef.Game(), sausages.Game(), chef.Game(), chekharda.Game()} {
		lo, _ := g.SeatRange()
		shuffles := 0
		for seed := uint64(1); seed <= 6; seed++ {
			tab := &record.Table{GameID: g.ID(), Seed: seed}
			for i := range lo + 1 {
				tab.Seats = append(tab.Seats, record.Seat{UserID: int64(i + 1), Name: fmt.Sprint("Игрок ", i+1)})
			}
			st, err := g.Start(adapter.View(tab))
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(seed, 1))
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
			if g.ID() == "trickchef" && len(deals) != 3 {
				t.Fatalf("trickchef: %d deals, want a round's each", len(deals))
			}
			shuffles += len(deals) - 1
		}
		if shuffles == 0 {
			t.Errorf("%s: no shuffle after the first in six games", g.ID())
		}
	}
	d, _ := deal.Parse(deal.New("chef", 3, nil, 1, 1))
	if _, err := deal.Tell(trickchef.Game(), d, nil, l); err == nil {
		t.Error("a reveal of Меню шефа told as Трик-н-Шеф")
	}
	d, _ = deal.Parse(deal.New("trickchef", 3, nil, 1, 1))
	if _, err := deal.Tell(trickchef.Game(), d, record.MoveLog{{Seat: 2, Action: 99}}, l); err == nil {
		t.Error("a log that does not replay told")
	}
}

// TestDealsGolden pins how each game tells its deals: a whole game of
// random play per game, told from its reveal and log, in every language.
func TestDealsGolden(t *testing.T) {
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, g := range []adapter.Game{trickchef.Game(), sausages.Game(), chef.Game(), chekharda.Game()} {
		lo, _ := g.SeatRange()
		tab := &record.Table{GameID: g.ID(), Seed: 42, Creator: 1}
		for i := range max(lo, 3) {
			tab.Seats = append(tab.Seats, record.Seat{UserID: int64(i + 1), Name: golden.Names[i]})
		}
		st, err := g.Start(adapter.View(tab))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(42, 2))
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
		reveal := deal.Reveal(tab, 7)
		d, err := deal.Parse(reveal)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range cat.Langs() {
			deals, err := deal.Tell(g, d, tab.Log, adapter.NewLoc(cat, lang))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sb, "════ %s, %s, 🔒 %s 🔓 %s\n%s\n\n", g.ID(), lang, deal.Commitment(reveal), reveal, strings.Join(deals, "\n──\n"))
		}
	}
	golden.Check(t, "deals", sb.String())
}
