package chekharda

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// Every round starts with 7 cards each, dealt from a shuffled 72-card
// deck; pairs are laid at once, so no hand ever holds two of a kind.
func TestNewDealsSevenAndLaysPairs(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for seed := uint64(0); seed < 100; seed++ {
			dealer := game.Seat(seed % uint64(players))
			st, err := New(Config{Players: players, Dealer: dealer, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			checkCards(t, st)
			mustValid(t, st)
			if st.Round() != 1 || st.Dealer() != dealer || st.DeckSize() != NumCards-HandSize*players {
				t.Fatalf("round %d dealer %d deck %d", st.Round(), st.Dealer(), st.DeckSize())
			}
			p := st.PublicView()
			laid := 0
			for i, s := range p.Seats {
				if s.Hand+s.SetCards != HandSize {
					t.Fatalf("seat %d: %d in hand + %d in sets", i, s.Hand, s.SetCards)
				}
				laid += s.SetCards
			}
			ev := p.Events
			if ev[0].Type != EventRound || ev[0].Seat != dealer || ev[0].N != HandSize || ev[0].Seq != 1 {
				t.Fatalf("first event %+v", ev[0])
			}
			for _, e := range ev[1:] {
				if e.Type == EventLay {
					laid -= e.N
				}
			}
			if laid != 0 {
				t.Fatalf("lay events do not match the sets: %+v", ev)
			}
		}
	}
}

// A table given in notation is treated as a fresh deal: pairs (and
// triples) in a hand are laid, clockwise from the dealer's left.
func TestLayPairs(t *testing.T) {
	st := deal(t, "PPCMMMT | AZ / RR | SCC ; deck J")
	p := st.PublicView()
	want := []Set{{0, Monkey, 3}, {0, Pig, 2}, {1, Robot, 2}, {2, Champion, 2}}
	if !slices.Equal(p.Sets, want) {
		t.Fatalf("sets %+v", p.Sets)
	}
	if v := st.SeatView(0); !slices.Equal(v.Hand, []Kind{Champion, Tea}) {
		t.Fatalf("hand %v", v.Hand)
	}
	// Dealer 0: seat 1 first (nothing), seat 2 (CC), then seat 0 (M, P in
	// Kind order).
	var got []string
	for _, e := range p.Events[1:] {
		got = append(got, e.Type.String()+e.Kind.String())
	}
	if !slices.Equal(got, []string{"layC", "layM", "layP"}) || p.Events[1].Seat != 2 {
		t.Fatalf("events %v", got)
	}
	// A pair merges with the seat's own set of that kind.
	st = deal(t, "PPC / PPP | A ")
	if st.seats[0].set[Pig] != 5 || lastEvent(st).Size != 5 || lastEvent(st).N != 2 {
		t.Fatalf("merge: %s, %+v", st.Notation(), lastEvent(st))
	}
}

func TestSteal(t *testing.T) {
	st := deal(t, "PC / MM | A / PP | Z / TT")
	if l := st.Legal(0); !slices.Equal(l, acts(StealAction(Pig, 1))) {
		t.Fatalf("legal %v", l)
	}
	if to := st.ToAct(); !sameSeats(to, seats(0, game.System)) {
		t.Fatalf("ToAct %v", to)
	}
	apply(t, st, "0=steal:P@1")
	if st.seats[0].set[Pig] != 3 || st.seats[1].set[Pig] != 0 || st.seats[0].hand[Pig] != 0 {
		t.Fatal(st.Notation())
	}
	e := lastEvent(st)
	if e.Type != EventSteal || e.Seat != 0 || e.Victim != 1 || e.Kind != Pig || e.N != 2 || e.Size != 3 {
		t.Fatalf("event %+v", e)
	}
	// Now seat 0's set can be stolen back by anyone with a single pig.
	st = deal(t, "PC / MM | AP / PP | Z / TT")
	apply(t, st, "0=steal:P@1 1=steal:P@0")
	if st.seats[1].set[Pig] != 4 || st.seats[0].set[Pig] != 0 {
		t.Fatal(st.Notation())
	}
}

// A stolen set merges with the thief's own set of that kind.
func TestStealMerges(t *testing.T) {
	st := deal(t, "PC / PP | A / PPP | Z / TT")
	if l := st.Legal(0); !slices.Equal(l, acts(StealAction(Pig, 1), AddAction(Pig))) {
		t.Fatalf("legal %v", l)
	}
	apply(t, st, "0=steal:P@1")
	if st.seats[0].set[Pig] != 6 || lastEvent(st).Size != 6 || lastEvent(st).N != 3 {
		t.Fatal(st.Notation())
	}
}

func TestAdd(t *testing.T) {
	st := deal(t, "PC / PP | A / TT")
	apply(t, st, "0=add:P")
	if st.seats[0].set[Pig] != 3 || st.seats[0].hand[Pig] != 0 {
		t.Fatal(st.Notation())
	}
	if e := lastEvent(st); e.Type != EventAdd || e.Seat != 0 || e.Kind != Pig || e.N != 1 || e.Size != 3 || e.Victim != -1 {
		t.Fatalf("event %+v", e)
	}
}

func TestRefusals(t *testing.T) {
	st := deal(t, "PC / MM | A / PP | Z / TT")
	expectStep(t, st, "0=steal:P@2", CodeSetGone)      // seat 2 has no pig set
	expectStep(t, st, "0=steal:T@2", CodeNoSingleCard) // seat 0 holds no tea
	expectStep(t, st, "0=steal:M@0", CodeOwnSet)       // stealing from oneself
	expectStep(t, st, "0=add:C", CodeNoOwnSet)         // a champion, but no champion set
	expectStep(t, st, "0=add:P", CodeNoOwnSet)         // pig set is seat 1's
	expectStep(t, st, "0=add:T", CodeNoSingleCard)     // no tea in hand
	expectStep(t, st, "0=steal:P@4", CodeBadSeat)      // nobody in seat 4
	expectStep(t, st, "0=draw", CodeNoDraw)            // the dealer deals: no drawing
	expectStep(t, st, "0=deal", CodeNotYourTurn)       // a player cannot deal
	expectStep(t, st, "0=next", CodeNotYourTurn)
	expectStep(t, st, "sys=steal:P@1", CodeNotYourTurn) // the platform does not steal
	expectStep(t, st, "sys=next", CodeWrongPhase)       // the round is being played
	expectErr(t, st, 3, StealAction(Pig, 1), CodeBadSeat)
	expectErr(t, st, -2, DealAction(), CodeBadSeat)
	for _, a := range []game.Action{-1, MaxAction + 1, 1000} {
		expectErr(t, st, 0, a, CodeUnknownAction)
	}
	// Between rounds only the platform's next-round move is possible.
	st = deal(t, "P / MM | A / PP | Z / TT")
	apply(t, st, "0=steal:P@1") // the last card: seat 0 goes out
	if st.Phase() != PhaseRoundEnd {
		t.Fatalf("phase %s", st.Phase())
	}
	expectStep(t, st, "1=steal:P@0", CodeRoundOver)
	expectStep(t, st, "sys=deal", CodeRoundOver)
	if !sameSeats(st.ToAct(), seats(game.System)) || !slices.Equal(st.Legal(game.System), acts(NextRoundAction())) {
		t.Fatalf("between rounds: ToAct %v", st.ToAct())
	}
}

// The dealer's deal is a platform move: game.System is in ToAct whenever
// the deck has cards; Stuck says when nobody can act, so the platform deals
// at once instead of waiting for the quiet pause.
func TestDealWhenStuck(t *testing.T) {
	st := deal(t, "CT / MM | AZ ; deck P C")
	if !st.Stuck() || !sameSeats(st.ToAct(), seats(game.System)) || len(st.Legal(0)) != 0 {
		t.Fatalf("stuck %v ToAct %v", st.Stuck(), st.ToAct())
	}
	if !slices.Equal(st.Legal(game.System), acts(DealAction())) {
		t.Fatalf("system legal %v", st.Legal(game.System))
	}
	seq := st.PublicView().Seq
	deck := st.DeckSize()
	apply(t, st, "sys=deal") // dealer 0: seat 1 gets P, then seat 0 gets C (a pair: laid)
	if st.DeckSize() != deck-2 || st.seats[1].hand[Pig] != 1 || st.seats[0].set[Champion] != 2 || st.seats[0].hand[Champion] != 0 {
		t.Fatal(st.Notation())
	}
	ev := eventsSince(st, seq)
	if len(ev) != 2 || ev[0].Type != EventDeal || ev[0].Seat != 0 || ev[0].N != 2 || ev[1].Type != EventLay || ev[1].Seat != 0 {
		t.Fatalf("events %+v", ev)
	}
	// The quiet-pause deal: seat 0 could steal, the platform may deal anyway.
	st = deal(t, "PC / MM | A / PP ; deck Z J")
	if st.Stuck() || !sameSeats(st.ToAct(), seats(0, game.System)) {
		t.Fatalf("stuck %v ToAct %v", st.Stuck(), st.ToAct())
	}
	apply(t, st, "sys=deal 0=steal:P@1")
}

// The last deal reaches only as many players as there are cards,
// clockwise from the dealer's left.
func TestDealShortDeck(t *testing.T) {
	st := deal(t, "AZ / CCCCCC TTTTTT MMMMMM PPPPPP | AZ / FFFFFF HHHHHH BBBBBB SSSSSS ZZ | AZ / JJJJJJ RRRRRR AA ; deck A Z")
	if st.DeckSize() != 2 || !sameSeats(st.ToAct(), seats(0, 1, 2, game.System)) {
		t.Fatalf("deck %d ToAct %v", st.DeckSize(), st.ToAct())
	}
	apply(t, st, "sys=deal")
	if st.DeckSize() != 0 || st.seats[1].set[Alien] != 2 || st.seats[2].set[Zone] != 2 || st.seats[0].handCards() != 2 {
		t.Fatal(st.Notation())
	}
	if e := eventsSince(st, 0); e[1].Type != EventDeal || e[1].N != 2 {
		t.Fatalf("deal event %+v", e[1])
	}
	// No more dealing; the round goes on while someone can act.
	if st.Phase() != PhasePlay || slices.Contains(st.ToAct(), game.System) {
		t.Fatalf("phase %s ToAct %v", st.Phase(), st.ToAct())
	}
	expectStep(t, st, "sys=deal", CodeDeckEmpty)
}

// «Хотите большего?»: no dealer's deal; a player who cannot act draws.
func TestVariantDraw(t *testing.T) {
	cfg := Config{Players: 2, DrawForSelf: true}
	st := dealCfg(t, cfg, "PC / TT | A / PP ; deck Z A")
	if st.Stuck() || !sameSeats(st.ToAct(), seats(0, 1)) {
		t.Fatalf("ToAct %v", st.ToAct())
	}
	if !slices.Equal(st.Legal(0), acts(StealAction(Pig, 1))) || !slices.Equal(st.Legal(1), acts(DrawAction())) {
		t.Fatalf("legal %v / %v", st.Legal(0), st.Legal(1))
	}
	if len(st.Legal(game.System)) != 0 {
		t.Fatal("system may deal in the variant")
	}
	expectStep(t, st, "0=draw", CodeNotStuck)
	expectStep(t, st, "sys=deal", CodeNoDeal)
	deck := st.DeckSize()
	apply(t, st, "1=draw") // Z
	if st.seats[1].hand[Zone] != 1 || st.DeckSize() != deck-1 {
		t.Fatal(st.Notation())
	}
	if e := lastEvent(st); e.Type != EventDraw || e.Seat != 1 {
		t.Fatalf("event %+v", e)
	}
	apply(t, st, "1=draw") // A: a pair, laid; seat 1 still holds Z
	if st.seats[1].set[Alien] != 2 || st.DeckSize() != deck-2 || st.Phase() != PhasePlay {
		t.Fatal(st.Notation())
	}
	// A draw that completes a pair of one's last card is going out.
	st = dealCfg(t, cfg, "C / TT | A / PP ; deck C")
	apply(t, st, "0=draw")
	if st.Phase() != PhaseRoundEnd || st.PublicView().Last.Out != 0 {
		t.Fatalf("phase %s", st.Phase())
	}
}

// The deck is empty and nobody can act: the round ends with no winner,
// inside the Apply that caused it.
func TestDeckExhaustedDeadlock(t *testing.T) {
	const table = "ZP / CCCCCC TTTTTT | Z / PPPPP MMMMMM | Z / FFFFFF HHHHHH | Z / BBBBBB SSSSSS | Z / JJJJJJ RRRRRR | Z / AAAAAA"
	st := deal(t, table)
	if st.DeckSize() != 0 || !sameSeats(st.ToAct(), seats(0)) || st.Stuck() {
		t.Fatalf("deck %d ToAct %v", st.DeckSize(), st.ToAct())
	}
	v := dealCfg(t, Config{Players: 6, DrawForSelf: true}, table)
	if !sameSeats(v.ToAct(), seats(0)) || len(v.Legal(1)) != 0 {
		t.Fatalf("variant, deck empty: ToAct %v", v.ToAct())
	}
	expectStep(t, v, "1=draw", CodeDeckEmpty)
	apply(t, st, "0=steal:P@1")
	p := st.PublicView()
	if st.Phase() != PhaseRoundEnd || p.Last == nil || p.Last.Out != -1 {
		t.Fatalf("phase %s last %+v", st.Phase(), p.Last)
	}
	if e := lastEvent(st); e.Type != EventDeadlock || e.Seat != -1 {
		t.Fatalf("event %+v", e)
	}
	want := []int{17, 5, 11, 11, 11, 5} // sets − 1 card in hand, no bonus
	for i, w := range want {
		if sc := p.Last.Seats[i]; sc.Score != w || sc.Bonus != 0 || p.Seats[i].Total != w {
			t.Fatalf("seat %d: %+v total %d, want %d", i, sc, p.Seats[i].Total, w)
		}
	}
	// The same after the last card is drawn in the variant, and dealt.
	const last = "ZA / CCCCCC TTTTTT | ZA / MMMMMM PPPPPP | ZA / FFFFFF HHHHHH | ZA / BBBBBB SSSSSS | ZA / JJJJJJ | A / RRRRRR ; deck Z"
	st = dealCfg(t, Config{Players: 6, DrawForSelf: true}, last)
	if !sameSeats(st.ToAct(), seats(0, 1, 2, 3, 4, 5)) {
		t.Fatalf("ToAct %v", st.ToAct())
	}
	apply(t, st, "5=draw")
	if st.Phase() != PhaseRoundEnd || st.PublicView().Last.Out != -1 {
		t.Fatalf("variant: phase %s", st.Phase())
	}
	st = dealCfg(t, Config{Players: 6, Dealer: 4}, last) // seat 5 is dealt the Z
	if !st.Stuck() {
		t.Fatal("not stuck")
	}
	apply(t, st, "sys=deal")
	if st.Phase() != PhaseRoundEnd || st.PublicView().Last.Out != -1 || st.seats[5].hand[Zone] != 1 {
		t.Fatalf("deal: phase %s %s", st.Phase(), st.Notation())
	}
}

// Going out: the hand becomes empty; the round stops at once.
func TestGoingOut(t *testing.T) {
	st := deal(t, "P / CC | AM / PP ; deck Z")
	apply(t, st, "0=steal:P@1")
	p := st.PublicView()
	if st.Phase() != PhaseRoundEnd || p.Last.Out != 0 || p.Last.Round != 1 {
		t.Fatalf("phase %s last %+v", st.Phase(), p.Last)
	}
	// Seat 0: 5 set cards + 5; seat 1: 0 − 2 → 0, never below.
	if got := p.Last.Seats; got[0] != (SeatScore{SetCards: 5, Bonus: 5, Score: 10}) || got[1] != (SeatScore{HandCards: 2}) {
		t.Fatalf("scores %+v", got)
	}
	if p.Seats[0].Total != 10 || p.Seats[1].Total != 0 {
		t.Fatalf("totals %d %d", p.Seats[0].Total, p.Seats[1].Total)
	}
	ev := p.Events
	if ev[len(ev)-2].Type != EventSteal || ev[len(ev)-1].Type != EventOut || ev[len(ev)-1].Seat != 0 {
		t.Fatalf("events %+v", ev[len(ev)-2:])
	}
	// Going out by adding.
	st = deal(t, "P / PP | AM / TT")
	apply(t, st, "0=add:P")
	if st.Phase() != PhaseRoundEnd || st.PublicView().Last.Out != 0 {
		t.Fatal("add: not out")
	}
	// Going out on a deal: the dealt card pairs the last one.
	st = deal(t, "C / TT | AM ; deck Z C")
	apply(t, st, "sys=deal")
	if p := st.PublicView(); st.Phase() != PhaseRoundEnd || p.Last.Out != 0 || p.Last.Seats[0].Score != 9 {
		t.Fatalf("deal: phase %s %+v", st.Phase(), p.Last)
	}
	// Two hands emptied by one deal: the first clockwise from the dealer's
	// left went out.
	st = dealCfg(t, Config{Players: 3, Dealer: 2}, "T / CC | A | M ; deck T A M")
	apply(t, st, "sys=deal") // dealer 2: seat 0 gets T, seat 1 A, seat 2 M: all three empty
	if p := st.PublicView(); p.Last.Out != 0 || p.Last.Seats[0].Bonus != OutBonus || p.Last.Seats[2].Bonus != 0 {
		t.Fatalf("three at once: %+v", p.Last)
	}
	st = dealCfg(t, Config{Players: 3, Dealer: 0}, "T / CC | A | M ; deck A M C")
	apply(t, st, "sys=deal") // dealer 0: seat 1 gets A, seat 2 M (both empty), seat 0 C
	if p := st.PublicView(); p.Last.Out != 1 || p.Last.Seats[1].Bonus != OutBonus || p.Last.Seats[2].Bonus != 0 || p.Seats[2].Hand != 0 {
		t.Fatalf("simultaneous: %+v", p.Last)
	}
	// A hand emptied by the very deal of the round.
	st = deal(t, "CCTTMMM | AZ")
	if p := st.PublicView(); st.Phase() != PhaseRoundEnd || p.Last.Out != 0 || p.Seats[0].Total != 12 {
		t.Fatalf("out on the deal: %s %+v", st.Phase(), p.Last)
	}
}

func TestScoringNeverBelowZero(t *testing.T) {
	for _, c := range []struct{ sets, hand, want int }{
		{0, 3, 0}, {2, 5, 0}, {5, 2, 3}, {4, 4, 0},
	} {
		if got := roundScore(c.sets, c.hand, false); got != c.want {
			t.Fatalf("%d sets, %d hand: %d", c.sets, c.hand, got)
		}
		if got := roundScore(c.sets, c.hand, true); got != max(c.sets-c.hand+OutBonus, 0) {
			t.Fatalf("%d sets, %d hand, out: %d", c.sets, c.hand, got)
		}
	}
	st := deal(t, "P / CC | AMZJRS / PP")
	setTotals(st, 3, 4, 9)
	apply(t, st, "0=steal:P@1")
	if p := st.PublicView(); p.Seats[1].Total != 9 || p.Last.Seats[1].Score != 0 || p.Last.Seats[1].HandCards != 6 {
		t.Fatalf("%+v", p.Last.Seats[1])
	}
}

// Rounds follow until someone reaches the target; the dealer moves
// clockwise; the totals add up.
func TestRoundsAndTarget(t *testing.T) {
	st, err := New(Config{Players: 3, Target: TargetShort, Dealer: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if st.Config().Target != TargetShort {
		t.Fatal("target")
	}
	rounds, prev := 1, [3]int{}
	for !st.Over() {
		if st.Phase() == PhaseRoundEnd {
			p := st.PublicView()
			for i := range 3 {
				if p.Seats[i].Total != prev[i]+p.Last.Seats[i].Score {
					t.Fatalf("total of seat %d", i)
				}
				prev[i] = p.Seats[i].Total
				if prev[i] >= TargetShort {
					t.Fatal("round end with the target reached")
				}
			}
			apply(t, st, "sys=next")
			rounds++
			if st.Round() != rounds || st.Dealer() != game.Seat((2+rounds-1)%3) {
				t.Fatalf("round %d dealer %d", st.Round(), st.Dealer())
			}
			continue
		}
		// Everyone plays Cook; the platform deals when nobody moves.
		moved := false
		for s := game.Seat(0); s < 3 && !moved; s++ {
			if a, ok := Decide(Cook, st.SeatView(s), uint64(rounds)); ok {
				if err := st.Apply(s, a); err != nil {
					t.Fatal(err)
				}
				moved = true
			}
		}
		if !moved {
			apply(t, st, "sys=deal")
		}
		checkCards(t, st)
	}
	r := st.Result()
	best := slices.Max(r.Scores)
	if best < TargetShort || len(r.Winners) == 0 || r.Scores[r.Winners[0]] != best {
		t.Fatalf("result %+v", r)
	}
	t.Logf("short game: %d rounds, %v", rounds, r)
	expectErr(t, st, game.System, NextRoundAction(), CodeGameOver)
	expectErr(t, st, 0, StealAction(Pig, 1), CodeGameOver)
	if len(st.ToAct()) != 0 {
		t.Fatal("ToAct after the end")
	}
}

// Several pass the target in the same round: the highest total wins; a
// tie at the top is a shared win.
func TestTies(t *testing.T) {
	// Seat 0 goes out: 5 + 5 = 10 → 80; seat 1: 6 − 1 = 5 → 80. Shared.
	st := deal(t, "P / CC | A / MMMMMM | Z / PP")
	setTotals(st, 5, 70, 75, 76)
	apply(t, st, "0=steal:P@2")
	if !st.Over() || !sameSeats(st.Winners(), seats(0, 1)) {
		t.Fatalf("over %v winners %v", st.Over(), st.Winners())
	}
	if r := st.Result(); !slices.Equal(r.Scores, []int{80, 80, 76}) || !sameSeats(r.Winners, seats(0, 1)) {
		t.Fatalf("result %+v", r)
	}
	if p := st.PublicView(); !sameSeats(p.Winners, seats(0, 1)) || p.Phase != PhaseOver {
		t.Fatalf("public %+v", p.Winners)
	}
	// Both pass 77, the higher total wins alone.
	st = deal(t, "P / CC | A / MMMMMM | Z / PP")
	setTotals(st, 5, 71, 75, 0)
	apply(t, st, "0=steal:P@2")
	if !st.Over() || !sameSeats(st.Winners(), seats(0)) {
		t.Fatalf("winners %v", st.Winners())
	}
	// Below the target nobody wins yet: the next round.
	st = deal(t, "P / CC | A / MMMMMM | Z / PP")
	setTotals(st, 5, 60, 60, 0)
	apply(t, st, "0=steal:P@2")
	if st.Over() || st.Phase() != PhaseRoundEnd || st.Winners() != nil {
		t.Fatal("ended below the target")
	}
	apply(t, st, "sys=next")
	if st.Round() != 6 || st.Phase() != PhasePlay && st.Phase() != PhaseRoundEnd {
		t.Fatalf("round %d", st.Round())
	}
}

// An action is judged against the current state only: a button pressed on
// an older view works while the move is still legal, and gets a precise
// refusal once it is not.
func TestStalePressJudgedNow(t *testing.T) {
	st := deal(t, "PCM / MM | AP / TT | Z / PP ; deck J S Z")
	old := st.SeatView(1) // seat 1 sees "steal 🐷 from seat 2"
	if !slices.Contains(old.Legal, StealAction(Pig, 2)) {
		t.Fatalf("legal %v", old.Legal)
	}
	apply(t, st, "sys=deal 0=add:M") // other things happen...
	if err := st.Apply(1, StealAction(Pig, 2)); err != nil {
		t.Fatalf("stale but legal press refused: %v", err)
	}
	// Seat 0's pig press from the old view is now refused: the set moved.
	expectErr(t, st, 0, StealAction(Pig, 2), CodeSetGone)
	if e, ok := st.PublicView().LastSteal(Pig, 2); !ok || e.Seat != 1 {
		t.Fatalf("who was faster: %+v", e)
	}
}

func TestNotation(t *testing.T) {
	st := deal(t, "PC / MM | AP / TT | Z / PP ; deck J S")
	again := dealCfg(t, Config{Players: 3}, st.Notation())
	if again.Notation() != st.Notation() || again.deck != st.deck {
		t.Fatalf("%s\n%s", st.Notation(), again.Notation())
	}
	for _, bad := range []string{"PX | A", "P | A / PC", "P | A / P", "PPPPPPP | P", "P | A ; dock", "P | A / PP PP"} {
		if _, err := NewFromDeal(Config{Players: 2}, bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, a := range []game.Action{0, 5, 71, 72, 83, 84, 85, 86} {
		m, ok := Decode(a)
		if !ok || m.Action() != a {
			t.Fatalf("%d: %+v", a, m)
		}
		back, err := ParseMove(m.String())
		if err != nil || back != m {
			t.Fatalf("%s: %v", m, err)
		}
	}
	for _, bad := range []string{"steal:P", "steal:P@6", "add:", "add:X", "stea:P@1", "add:PP"} {
		if _, err := ParseMove(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestKinds(t *testing.T) {
	ids, emoji, letters := map[string]bool{}, map[string]bool{}, map[byte]bool{}
	for _, k := range Kinds() {
		in := k.Info()
		if in.ID == "" || in.Name == "" || in.Emoji == "" || ids[in.ID] || emoji[in.Emoji] || letters[in.Letter] {
			t.Fatalf("kind %d: %+v", k, in)
		}
		for _, c := range in.ID {
			if c < 'a' || c > 'z' {
				t.Fatalf("id %q", in.ID)
			}
		}
		if len([]rune(in.Emoji)) != 1 {
			t.Fatalf("emoji of %s is %d code points", in.ID, len([]rune(in.Emoji)))
		}
		ids[in.ID], emoji[in.Emoji], letters[in.Letter] = true, true, true
		if back, ok := KindByID(in.ID); !ok || back != k {
			t.Fatal(in.ID)
		}
		if back, ok := ParseKind(in.Letter); !ok || back != k {
			t.Fatal(in.Letter)
		}
	}
	if len(ids) != NumKinds || Champion.Name() != "Эль Чемпионо" || Tea.Name() != "Чай со слоном" || Pig.Emoji() != "🐷" {
		t.Fatal("kind table")
	}
	if NoKind.Valid() || Kind(13).Valid() || Kind(13).String() != "-" {
		t.Fatal("invalid kinds")
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{{Players: 1}, {Players: 7}, {Players: 3, Dealer: 3}, {Players: 3, Dealer: -1},
		{Players: 2, Target: -1}, {Players: 2, Target: MaxTarget + 1}} {
		if _, err := New(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	st, err := New(Config{Players: 2})
	if err != nil || st.Config().Target != TargetFull {
		t.Fatal(err)
	}
}
