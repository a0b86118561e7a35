package chef

import (
	"testing"

	"github.com/trickchef/trickchef/game"
)

// Every action value decodes, renders, parses and encodes back; nothing
// else decodes.
func TestActionEncoding(t *testing.T) {
	seen := map[string]bool{}
	for a := game.Action(-3); a <= MaxAction+3; a++ {
		m, ok := DecodeAction(a)
		if ok != (a >= 0 && a <= MaxAction) {
			t.Fatalf("action %d decodes: %v", a, ok)
		}
		if !ok {
			continue
		}
		s := m.String()
		if seen[s] {
			t.Fatalf("%s twice", s)
		}
		seen[s] = true
		p, err := ParseMove(s)
		if err != nil || p != m || p.Action() != a {
			t.Fatalf("action %d: %s parses to %+v (%v)", a, s, p, err)
		}
	}
	if MaxAction != 60 || len(seen) != 61 {
		t.Fatalf("MaxAction %d, %d moves", MaxAction, len(seen))
	}
	for _, c := range []struct {
		m Move
		a game.Action
	}{
		{Move{Kind: KindDraw}, 0}, {Move{Kind: KindTake}, 1}, {Move{Kind: KindEnd}, 2},
		{Move{Kind: KindAnnounce}, 3}, {Move{Kind: KindRedraw}, 4},
		{Move{Kind: KindPlay, Card: EmptyPlate}, 5}, {Move{Kind: KindPlay, Card: BlankMenu}, 6},
		{Move{Kind: KindDiscard, Dish: Starter}, 7}, {Move{Kind: KindDiscard, Dish: Drink}, 12},
		{Move{Kind: KindPlay, Card: Diet, Dish: Starter}, 13}, {Move{Kind: KindPlay, Card: ChefCard, Dish: Drink}, 24},
		{Move{Kind: KindPlay, Card: Hangover, Dish: Starter, Dish2: Starter}, 25},
		{Move{Kind: KindPlay, Card: Hangover, Dish: Sauce, Dish2: Starter}, 31},
		{Move{Kind: KindPlay, Card: Hangover, Dish: Drink, Dish2: Drink}, 60},
	} {
		if got := c.m.Action(); got != c.a {
			t.Errorf("%s: %d, want %d", c.m, got, c.a)
		}
	}
	for _, m := range []Move{
		{}, {Kind: KindDraw, Dish: Starter}, {Kind: KindDiscard, Dish: Hangover}, {Kind: KindDiscard},
		{Kind: KindPlay, Card: Addition}, {Kind: KindPlay, Card: Starter}, {Kind: KindPlay, Card: Diet},
		{Kind: KindPlay, Card: EmptyPlate, Dish: Starter}, {Kind: KindPlay, Card: Hangover, Dish: Starter},
		{Kind: KindPlay, Card: ChefCard, Dish: Starter, Dish2: Sauce}, {Kind: 99},
	} {
		if m.Action() != -1 {
			t.Errorf("%+v encodes as %d", m, m.Action())
		}
	}
	if DiscardAction(ChefCard) != -1 || PlayAction(Diet, NoCard, NoCard) != -1 || PlayAction(Hangover, Sauce, Side) != 25+6+3 {
		t.Error("constructors")
	}
}

func TestParseMove(t *testing.T) {
	for _, s := range []string{"", "draw:o", "discard", "discard:H", "discard:oo", "play", "play:X", "play:D", "play:D:",
		"play:D:ro", "play:H:r", "play:H:rrr", "play:E:o", "play:A", "play:o", "take:1", "pass", "play:C:O"} {
		if m, err := ParseMove(s); err == nil {
			t.Errorf("%q parses to %+v", s, m)
		}
	}
	for s, want := range map[string]game.Action{"DRAW": 0, " Take ": 1, "Play:H:rb": PlayAction(Hangover, Sauce, Dessert)} {
		if m, err := ParseMove(s); err != nil || m.Action() != want {
			t.Errorf("%q: %v %v", s, m, err)
		}
	}
}

func TestCardsNotation(t *testing.T) {
	cs, err := ParseCards("orpgbnHDEMCA")
	if err != nil || len(cs) != 12 || FormatCards(cs) != "orpgbnHDEMCA" {
		t.Fatalf("%v %v", cs, err)
	}
	for i, c := range cs {
		if c != Card(i+1) || !c.Valid() || c.Key() == "" || c.IsDish() != (c.Colour() != "") {
			t.Fatalf("card %d: %s %s %s", i, c, c.Key(), c.Colour())
		}
		if c.IsAction() != (c >= Hangover && c <= ChefCard) {
			t.Fatal("IsAction")
		}
	}
	if _, err := ParseCards("oX"); err == nil {
		t.Error("bad letter accepted")
	}
	if cs, err := ParseCards("-"); err != nil || cs != nil || FormatCards(nil) != "-" {
		t.Error("no cards")
	}
	if NoCard.String() != "-" || NoCard.Valid() || Dish(0) != Starter || Dish(5) != Drink || Dish(6) != NoCard || Dish(-1) != NoCard {
		t.Error("NoCard or Dish")
	}
	total := 0
	for c := NoCard; c <= Addition; c++ {
		total += BoxCount(c)
	}
	if total != DeckSize || DeckSize != 100 {
		t.Fatalf("box of %d", total)
	}
	var n [NumKinds]int
	n[Sauce], n[Starter], n[Hangover] = 2, 1, 1
	if FormatCounts(n) != "orrH" || FormatCounts([NumKinds]int{}) != "-" {
		t.Error("FormatCounts")
	}
}

func TestParseDeal(t *testing.T) {
	st := deal(t, "0:orpgbn 1:oH 2:- discard:rgA pile:Ao turn:1 ccw auto rebuilds:1 seed:9")
	p := st.PublicView()
	if p.Players != 3 || p.Turn != 1 || p.Clockwise || !p.AutoAnnounce || p.Rebuilds != 1 || p.DiscardTop != Addition ||
		!p.Seats[0].Announced || p.Seats[1].Cards[Hangover] != 1 || st.pile[st.npile-1] != Addition || st.pile[st.npile-2] != Starter {
		t.Fatalf("deal %+v", p)
	}
	if st.Config() != (Config{Players: 3, First: 1, AutoAnnounce: true, Seed: 9}) {
		t.Fatalf("config %+v", st.Config())
	}
	st = deal(t, "0:H 1:orp discard:g removed:rr")
	if st.PublicView().Removed[Sauce] != 2 {
		t.Fatal("removed")
	}
	for _, bad := range []string{
		"", "0:o", "0:o 1:o", "0:o 1:o discard:", "0:o 2:o discard:g", "0:oooooooooooo 1:- discard:g",
		"0:o 1:o discard:g turn:2", "0:o 1:o discard:g rebuilds:3", "0:o 1:o discard:g bogus:1",
		"0:orp 1:o 2:- discard:g announced:0", "0:o 1:o 2:- discard:g removed:r", "0:o 1:o discard:g pile:AAAAAAAAAAA",
		"0:o 1:o discard:g rest:x", "0:o 1:o discard:gX", "0:o 1:o discard:g announced:5",
		"0:o 1:o discard:g rest:discard pile:-", "0:o 1:o discard:g turn:x",
	} {
		if _, err := ParseDeal(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
