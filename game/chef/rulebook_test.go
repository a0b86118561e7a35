package chef

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// The examples and explicit statements of the original rulebook, one test
// each.

// "If the first card turned is an action card, keep turning until a dish
// shows; then the player left of the dealer begins."
func TestRulebookSetup(t *testing.T) {
	sawAction := false
	for seed := uint64(0); seed < 200; seed++ {
		for _, n := range []int{MinPlayers, 5, MaxPlayers} {
			first := game.Seat(seed % uint64(n))
			st, err := New(Config{Players: n, First: first, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			mustValid(t, st)
			p := st.PublicView()
			if !p.DiscardTop.IsDish() || p.Turn != first || p.Step != StepTurn || p.TurnNumber != 1 || !p.Clockwise {
				t.Fatalf("seed %d: %+v", seed, p)
			}
			for _, c := range p.Discard[:len(p.Discard)-1] {
				if c.IsDish() {
					t.Fatalf("seed %d: a dish under the first dish: %v", seed, p.Discard)
				}
				sawAction = true
			}
			if p.Pile+len(p.Discard) != DeckSize {
				t.Fatalf("seed %d: %d cards", seed, p.Pile+len(p.Discard))
			}
			for _, s := range p.Seats {
				if s.Dishes+s.Actions != 0 {
					t.Fatal("cards dealt")
				}
			}
			if got := moves(st.Legal(first)); got != "draw take" {
				t.Fatalf("first legal %s", got)
			}
		}
	}
	if !sawAction {
		t.Fatal("no setup turned an action card first")
	}
	for _, cfg := range []Config{{Players: 1}, {Players: 9}, {Players: 3, First: 3}, {Players: 2, First: -1}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

// "One may draw a card from the pile and discard one of one's dishes, but
// not draw a dish from the pile and play an action card in the same turn."
func TestRulebookNoDishAndAction(t *testing.T) {
	st := deal(t, "0:oH 1:rg 2:- discard:b pile:p")
	apply(t, st, "draw")
	expectErr(t, st, 0, PlayAction(Hangover, Sauce, Side), CodeNotTheDrawnCard)
	apply(t, st, "discard:o")
	expectSummary(t, st, "0:pH turn:1")
}

// "Penalty cards cannot be played if the next player does not have enough
// dishes to discard."
func TestRulebookPenaltyNeedsDishes(t *testing.T) {
	st := deal(t, "0:HD 1:oC 2:- discard:b")
	expectErr(t, st, 0, PlayAction(Hangover, Starter, Starter), CodeNotEnoughDishes)
	apply(t, st, "play:D:o")
	expectSummary(t, st, "1:C top:o turn:2")
}

// Hangover: "the next player discards two dishes chosen by the player who
// inflicted it, and skips a turn. With two players the discarded cards can
// be used by neither player."
func TestRulebookHangover(t *testing.T) {
	st := deal(t, "0:H 1:orpgb 2:- discard:n")
	apply(t, st, "play:H:gr")
	p := st.PublicView()
	if !slices.Equal(p.Discard[len(p.Discard)-4:], []Card{Drink, Hangover, Side, Sauce}) {
		t.Fatalf("discard %v", FormatCards(p.Discard))
	}
	expectSummary(t, st, "1:opb skip:1 turn:2")
	e := lastEvents(st, 1)[0]
	if e.Kind != EventPlay || e.Seat != 0 || e.Target != 1 || e.Card != Hangover || e.Dishes != [2]Card{Side, Sauce} || !e.Skips() {
		t.Fatalf("event %+v", e)
	}
	// Two players: the dishes leave the game.
	st = deal(t, "0:H 1:orpgb discard:n")
	apply(t, st, "play:H:gr")
	expectSummary(t, st, "1:opb removed:rg top:H turn:0")
	if st.PublicView().Removed[Side] != 1 {
		t.Fatal("removed")
	}
}

// Chef: "take any dish of the next player ... the next player does not skip
// a turn ... cannot be played if that player has no dish."
func TestRulebookChef(t *testing.T) {
	st := deal(t, "0:C 1:oE 2:- discard:n")
	apply(t, st, "play:C:o")
	expectSummary(t, st, "0:o 1:E top:C turn:1 skip:-")
	st = deal(t, "0:C 1:E 2:- discard:n")
	expectErr(t, st, 0, PlayAction(ChefCard, Starter, NoCard), CodeNoDishToTake)
	if got := moves(st.Legal(0)); got != "draw take" {
		t.Fatalf("legal %s", got)
	}
}

// "Only if you completed the menu waiting for the Addition and you draw the
// Chef may you discard it and draw a second time. If you keep it, it keeps
// its function of taking a dish from the next player."
func TestRulebookChefRedraw(t *testing.T) {
	st := deal(t, "0:orpgbn 1:g 2:- announced:0 discard:o pile:CA")
	apply(t, st, "draw")
	if !slices.Contains(st.Legal(0), RedrawAction()) {
		t.Fatal("no redraw")
	}
	apply(t, st, "redraw")
	if w := st.Winners(); !slices.Equal(w, []game.Seat{0}) {
		t.Fatalf("winners %v", w)
	}
	ev := lastEvents(st, 4)
	kinds := []EventKind{ev[0].Kind, ev[1].Kind, ev[2].Kind, ev[3].Kind}
	if !slices.Equal(kinds, []EventKind{EventDraw, EventRedraw, EventDraw, EventWin}) {
		t.Fatalf("events %+v", ev)
	}
	// Kept: a Chef in front, played later at the next player.
	st = deal(t, "0:orpgbn 1:g 2:- announced:0 discard:o pile:Cpp")
	apply(t, st, "draw end draw end draw end play:C:g")
	expectSummary(t, st, "0:orpggbn 1:p turn:1")
}

// "Each time a player draws the Addition without having the six dishes, he
// must discard it at once ... this can let the next player win by taking
// the Addition just discarded."
func TestRulebookAdditionForTheNext(t *testing.T) {
	st := deal(t, "0:orp 1:orpgbn 2:- announced:1 discard:o pile:A")
	apply(t, st, "draw")
	expectSummary(t, st, "0:orp top:A turn:1")
	if got := moves(st.Legal(1)); got != "draw take" {
		t.Fatalf("legal %s", got)
	}
	apply(t, st, "take")
	expectSummary(t, st, "winners:1 1:orpgbnA")
	ev := lastEvents(st, 4)
	if ev[0].Kind != EventDraw || ev[0].Card != Addition || ev[1].Kind != EventBillDiscarded || ev[2].Kind != EventTake || ev[3].Kind != EventWin || ev[3].Seat != 1 {
		t.Fatalf("events %+v", ev)
	}
}

// "If a player forgets to ask for the bill while having the complete menu,
// he loses the chance to win this turn."
func TestRulebookForgotToAnnounce(t *testing.T) {
	st := deal(t, "0:orpgbn 1:- 2:- discard:o pile:A")
	apply(t, st, "draw")
	expectSummary(t, st, "0:orpgbn top:A turn:1 ann:-")
	// Seat 1 cannot use it; seat 0 may take it next time only after
	// announcing.
	apply(t, st, "draw end draw end")
	if st.discTop() == Addition {
		expectErr(t, st, 0, TakeAction(), CodeNotAnnounced)
	}
}

// "The winner keeps only the six dishes plus the Addition: no action card."
func TestRulebookOnlySixDishes(t *testing.T) {
	st := deal(t, "0:orpgbnM 1:- 2:- discard:o pile:A")
	expectErr(t, st, 0, AnnounceAction(), CodeNotComplete)
	apply(t, st, "play:M 2=draw")
	expectSummary(t, st, "0:orpgbn top:A turn:1")
}

// "If the pile runs out, shuffle the discard pile into a new pile, leaving
// the last discarded card as the first card of the new discard pile."
func TestRulebookReshuffle(t *testing.T) {
	st := deal(t, "0:o 1:- 2:- discard:rgb pile:p rest:discard")
	before := st.PublicView()
	apply(t, st, "draw discard:o")
	p := st.PublicView()
	if p.Pile != len(before.Discard) || !slices.Equal(p.Discard, []Card{Starter}) || p.Rebuilds != 1 {
		t.Fatalf("pile %d discard %v rebuilds %d", p.Pile, FormatCards(p.Discard), p.Rebuilds)
	}
	if e := lastEvents(st, 1)[0]; e.Kind != EventRebuild || e.Card != Starter || e.Seat != -1 {
		t.Fatalf("event %+v", e)
	}
	var want [NumKinds]int
	for _, c := range before.Discard {
		want[c]++
	}
	if p.PileCards != want {
		t.Fatalf("pile %v, want %v", p.PileCards, want)
	}
}
