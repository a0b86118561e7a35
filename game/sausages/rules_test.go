package sausages

import (
	"slices"
	"strconv"
	"testing"

	"github.com/trickchef/trickchef/game"
)

func TestNewConfig(t *testing.T) {
	for _, cfg := range []Config{{Players: 2}, {Players: 7}, {Players: 3, First: 3}, {Players: 4, First: -1}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
	for n := MinPlayers; n <= MaxPlayers; n++ {
		st := newGame(t, n, game.Seat(n-1))
		p := st.PublicView()
		if p.Phase != PhaseSetup || p.Round != 1 || p.RoundFirst != game.Seat(n-1) || len(p.ToAct) != n || p.Total != 0 {
			t.Fatalf("%d players: %+v", n, p)
		}
		for s := game.Seat(0); s < game.Seat(n); s++ {
			v := st.SeatView(s)
			if v.Hand != (Hand{3, 1}) || len(v.Stack) != 0 || v.Seats[s].Side != 1 || v.Seats[s].Owned != 4 || v.Seats[s].Out {
				t.Fatalf("seat %d: %+v", s, v)
			}
			if got := moves(v.Legal); got != "place:S place:B" {
				t.Fatalf("setup legal %s", got)
			}
		}
		mustValid(t, st)
	}
}

// Setup is simultaneous: everyone still to place is in ToAct, in seat
// order, and may place in any order. [ruling]
func TestSetupSimultaneous(t *testing.T) {
	st := newGame(t, 3, 1)
	apply(t, st, "2=place:B")
	if got := st.ToAct(); !slices.Equal(got, seats(0, 1)) {
		t.Fatalf("ToAct %v", got)
	}
	expectErr(t, st, 2, PlaceAction(Sausage), CodeNotYourTurn)
	expectErr(t, st, 0, BidAction(1), CodeWrongPhase)
	expectErr(t, st, 0, PassAction(), CodeWrongPhase)
	expectErr(t, st, 3, PlaceAction(Sausage), CodeBadSeat)
	expectErr(t, st, 0, 99, CodeUnknownAction)
	apply(t, st, "1=place:S")
	if st.Phase() != PhaseSetup {
		t.Fatal("setup ended early")
	}
	apply(t, st, "0=place:S")
	p := st.PublicView()
	if p.Phase != PhaseAdd || !slices.Equal(p.ToAct, seats(1)) || p.Total != 3 {
		t.Fatalf("after setup: phase %s ToAct %v total %d", p.Phase, p.ToAct, p.Total)
	}
	// Seat 2 placed its boot: it cannot place another.
	apply(t, st, "place:S")
	expectErr(t, st, 2, PlaceAction(Boot), CodeNoSuchCard)
	if got := st.SeatView(2).Stack; FormatCards(got) != "B" {
		t.Fatalf("stack %v", got)
	}
}

func TestAddOrChallenge(t *testing.T) {
	st := newGame(t, 3, 0)
	lay(t, st, "SS S S")
	if st.turn != 1 {
		t.Fatalf("turn %d", st.turn)
	}
	expectErr(t, st, 0, PlaceAction(Sausage), CodeNotYourTurn)
	expectErr(t, st, 1, PassAction(), CodeWrongPhase)
	expectErr(t, st, 1, RevealAction(0), CodeWrongPhase)
	expectErr(t, st, 1, BidAction(5), CodeBidTooHigh) // 4 cards on the boards
	if got := moves(st.Legal(1)); got != "place:S place:B bid:1 bid:2 bid:3 bid:4" {
		t.Fatalf("legal %s", got)
	}
	apply(t, st, "place:B")
	apply(t, st, "bid:2")
	p := st.PublicView()
	if p.Phase != PhaseBid || p.Bid != 2 || p.Bidder != 2 || !slices.Equal(p.ToAct, seats(0)) {
		t.Fatalf("after opening: %+v", p)
	}
	if !slices.Equal(p.Bids, []BidEvent{{2, 2}}) {
		t.Fatalf("bids %v", p.Bids)
	}
	expectErr(t, st, 0, PlaceAction(Sausage), CodeWrongPhase)
}

// A player with no cards in hand must challenge.
func TestMustChallenge(t *testing.T) {
	st := newGame(t, 3, 0)
	lay(t, st, "SSSB SSSB SSSB")
	if st.turn != 0 {
		t.Fatalf("turn %d", st.turn)
	}
	expectErr(t, st, 0, PlaceAction(Sausage), CodeMustChallenge)
	expectErr(t, st, 0, PlaceAction(Boot), CodeMustChallenge)
	l := st.Legal(0)
	if len(l) != 12 || mustDecode(l[0]).N != 1 || mustDecode(l[11]).N != 12 {
		t.Fatalf("legal %s", moves(l))
	}
	expectErr(t, st, 0, BidAction(13), CodeBidTooHigh)
}

// The published rules' 4-player example: seats 0–2 add a second card, seat
// 3 opens at 3, seat 0 raises to 5, seats 1 and 2 pass, seat 3 passes too;
// seat 0 turns its own two sausages, then seat 1's top card, seat 2's card
// and seat 3's only card: success. (The published example turns the
// *bottom* card of player 3; we turn the top one, see rulings.go and
// docs/rules/sausages.md.)
func TestRulebookExample(t *testing.T) {
	st := newGame(t, 4, 0)
	lay(t, st, "SS SS SS S")
	apply(t, st, "bid:3 bid:5 pass pass pass")
	p := st.PublicView()
	if p.Phase != PhaseAttempt || p.Challenger != 0 || p.Target != 5 || len(p.Revealed) != 2 {
		t.Fatalf("attempt: %+v", p)
	}
	want := []BidEvent{{3, 3}, {0, 5}, {1, 0}, {2, 0}, {3, 0}}
	if !slices.Equal(p.Bids, want) {
		t.Fatalf("bids %v", p.Bids)
	}
	apply(t, st, "reveal:1 reveal:2 reveal:3")
	p = st.PublicView()
	if p.Phase != PhaseSetup || p.Seats[0].Side != 2 || p.RoundFirst != 0 || p.Round != 2 {
		t.Fatalf("after success: %+v", p)
	}
	o := p.LastRound
	if o == nil || !o.Success || o.Challenger != 0 || o.N != 5 || len(o.Revealed) != 5 || o.Won {
		t.Fatalf("outcome %+v", o)
	}
	for s := 0; s < 4; s++ {
		if p.Seats[s].Hand != 4 || p.Seats[s].Stack != 0 {
			t.Fatalf("cards not taken back: %+v", p.Seats[s])
		}
	}
}

func TestBiddingBoundsAndPassLocksOut(t *testing.T) {
	st := newGame(t, 4, 0)
	lay(t, st, "SS SS S S") // 6 cards; seat 2 to act
	apply(t, st, "bid:2")
	expectErr(t, st, 3, BidAction(2), CodeBidTooLow)
	expectErr(t, st, 3, BidAction(1), CodeBidTooLow)
	expectErr(t, st, 3, BidAction(7), CodeBidTooHigh)
	expectErr(t, st, 3, PlaceAction(Sausage), CodeWrongPhase)
	if got := moves(st.Legal(3)); got != "pass bid:3 bid:4 bid:5 bid:6" {
		t.Fatalf("legal %s", got)
	}
	apply(t, st, "pass") // seat 3
	expectErr(t, st, 3, BidAction(4), CodeAlreadyPassed)
	expectErr(t, st, 3, PassAction(), CodeAlreadyPassed)
	expectErr(t, st, 1, BidAction(3), CodeNotYourTurn)
	apply(t, st, "bid:3 bid:4") // seats 0, 1
	if st.turn != 2 {
		t.Fatalf("turn %d", st.turn)
	}
	apply(t, st, "bid:5") // seat 2; seat 3 is skipped
	if st.turn != 0 || !st.PublicView().Seats[3].Passed {
		t.Fatalf("turn %d", st.turn)
	}
	apply(t, st, "pass pass") // 0, 1: all but seat 2 have passed
	p := st.PublicView()
	if p.Phase != PhaseAttempt || p.Challenger != 2 || p.Target != 5 {
		t.Fatalf("%+v", p)
	}
}

// Bidding the total ends the bidding at once, opening or raising.
func TestBidTotalEndsBidding(t *testing.T) {
	st := newGame(t, 3, 0)
	lay(t, st, "S S S")
	apply(t, st, "bid:3")
	if p := st.PublicView(); p.Phase != PhaseAttempt || p.Challenger != 0 || len(p.Revealed) != 1 {
		t.Fatalf("opening at the total: %+v", p)
	}
	st = newGame(t, 4, 0)
	lay(t, st, "S S S S")
	apply(t, st, "bid:1 bid:4")
	if p := st.PublicView(); p.Phase != PhaseAttempt || p.Challenger != 1 || p.Seats[2].Passed || p.Seats[3].Passed {
		t.Fatalf("raise to the total: %+v", p)
	}
}

// The challenger's own stack is turned first, all of it, automatically;
// then one opponent card per action, from the top.
func TestAttemptOwnFirstThenTopCards(t *testing.T) {
	st := newGame(t, 3, 0)
	lay(t, st, "SS BS SB")
	apply(t, st, "bid:4 pass pass")
	p := st.PublicView()
	if p.Phase != PhaseAttempt || !slices.Equal(p.Revealed, []Reveal{{0, Sausage}, {0, Sausage}}) || p.Seats[0].Revealed != 2 {
		t.Fatalf("own stack: %+v", p)
	}
	expectErr(t, st, 0, RevealAction(0), CodeStackEmpty)
	expectErr(t, st, 0, RevealAction(3), CodeBadSeat)
	expectErr(t, st, 0, PassAction(), CodeWrongPhase)
	expectErr(t, st, 1, RevealAction(2), CodeNotYourTurn)
	if got := moves(st.Legal(0)); got != "reveal:1 reveal:2" {
		t.Fatalf("legal %s", got)
	}
	apply(t, st, "reveal:1") // seat 1's top card: a sausage
	if p := st.PublicView(); p.Revealed[2] != (Reveal{1, Sausage}) || p.Seats[1].Revealed != 1 || p.Phase != PhaseAttempt {
		t.Fatalf("%+v", p)
	}
	apply(t, st, "reveal:1") // then its boot underneath
	p = st.PublicView()
	if p.Phase != PhasePick || !slices.Equal(p.ToAct, seats(1)) || p.Revealed[3] != (Reveal{1, Boot}) {
		t.Fatalf("%+v", p)
	}
	// An exhausted stack cannot be revealed from.
	st = newGame(t, 3, 0)
	lay(t, st, "S S S")
	apply(t, st, "bid:3 reveal:1")
	expectErr(t, st, 0, RevealAction(1), CodeStackEmpty)
	apply(t, st, "reveal:2")
	if st.PublicView().LastRound == nil || !st.PublicView().LastRound.Success {
		t.Fatal("want success")
	}
}

// [ruling] The whole own stack is turned even if it exceeds the bid: a
// boot under the top card fails a bid of 1, and a safe stack that reaches
// the bid succeeds without any reveal action.
func TestWholeOwnStack(t *testing.T) {
	st := newGame(t, 3, 0)
	lay(t, st, "BS SS SS")
	apply(t, st, "bid:1 pass pass")
	p := st.PublicView()
	if p.Phase != PhaseLose || p.LastRound == nil || !p.LastRound.OwnBoot || len(p.LastRound.Revealed) != 2 {
		t.Fatalf("%+v", p)
	}
	if !slices.Equal(p.LastRound.Revealed, []Reveal{{0, Sausage}, {0, Boot}}) {
		t.Fatalf("reveal order (top first) %v", p.LastRound.Revealed)
	}
	st = newGame(t, 3, 0)
	lay(t, st, "SSS SSS SSS")
	apply(t, st, "bid:2 pass pass")
	if p := st.PublicView(); p.Phase != PhaseSetup || p.Seats[0].Side != 2 || len(p.LastRound.Revealed) != 3 {
		t.Fatalf("%+v", p)
	}
}

// Success turns the board to side 2; a second success wins.
func TestSuccessSideTwoThenWin(t *testing.T) {
	st := newGame(t, 3, 1)
	lay(t, st, "S S S") // seat 1 first
	apply(t, st, "bid:3 reveal:2 reveal:0")
	if p := st.PublicView(); p.Seats[1].Side != 2 || p.RoundFirst != 1 || p.Phase != PhaseSetup || p.Winner != -1 {
		t.Fatalf("%+v", p)
	}
	lay(t, st, "S S S")
	apply(t, st, "bid:2 pass pass reveal:0")
	p := st.PublicView()
	if !st.Over() || p.Winner != 1 || !p.LastRound.Won || len(p.ToAct) != 0 {
		t.Fatalf("%+v", p)
	}
	if w, ok := st.Winner(); !ok || w != 1 {
		t.Fatal("Winner")
	}
	if r := st.Result(); !slices.Equal(r.Winners, seats(1)) || !slices.Equal(r.Scores, []int{0, 2, 0}) {
		t.Fatalf("result %+v", r)
	}
	expectErr(t, st, 0, PlaceAction(Sausage), CodeGameOver)
	if len(st.Legal(1)) != 0 {
		t.Fatal("legal after the end")
	}
	mustValid(t, st)
}

// Failure on an opponent's boot: cards go back, the boot's owner picks one
// of the challenger's shuffled cards blind; only the challenger learns
// which; the challenger starts the next round.
func TestFailureOpponentBootBlindPick(t *testing.T) {
	for _, pickBoot := range []bool{false, true} {
		st := newGame(t, 3, 0)
		lay(t, st, "S B S")
		apply(t, st, "bid:2 pass pass reveal:1")
		p := st.PublicView()
		if p.Phase != PhasePick || !slices.Equal(p.ToAct, seats(1)) || p.Total != 0 || p.Seats[0].Hand != 4 {
			t.Fatalf("%+v", p)
		}
		if o := p.LastRound; o.Success || o.BootOwner != 1 || o.OwnBoot || o.Lost {
			t.Fatalf("outcome %+v", o)
		}
		expectErr(t, st, 0, PickAction(0), CodeNotYourTurn)
		expectErr(t, st, 1, LoseAction(Sausage), CodeWrongPhase)
		if got := moves(st.Legal(1)); got != "pick:0 pick:1 pick:2 pick:3" {
			t.Fatalf("legal %s", got)
		}
		boot := int(st.fan) - 1
		if boot < 0 {
			t.Fatal("challenger's boot not in the fan")
		}
		i := (boot + 1) % 4
		if pickBoot {
			i = boot
		}
		apply(t, st, "pick:"+strconv.Itoa(i))
		want, hand := Sausage, Hand{2, 1}
		if pickBoot {
			want, hand = Boot, Hand{3, 0}
		}
		if v := st.SeatView(0); v.Lost != want || v.Hand != hand {
			t.Fatalf("challenger view: lost %s hand %+v", v.Lost, v.Hand)
		}
		for s := game.Seat(1); s < 3; s++ {
			if st.SeatView(s).Lost != NoCard {
				t.Fatalf("seat %d learns the lost card", s)
			}
		}
		p = st.PublicView()
		if p.Phase != PhaseSetup || p.RoundFirst != 0 || p.Seats[0].Owned != 3 || !p.LastRound.Lost || p.LastRound.Eliminated {
			t.Fatalf("%+v", p)
		}
		mustValid(t, st)
	}
}

// The fan is shuffled with the state's generator: over seeds, the boot
// sits at every index.
func TestBlindPickShuffled(t *testing.T) {
	var seen [4]int
	for seed := uint64(0); seed < 200; seed++ {
		st, _ := New(Config{Players: 3, Seed: seed})
		lay(t, st, "S B S")
		apply(t, st, "bid:2 pass pass reveal:1")
		seen[st.fan-1]++
	}
	for i, n := range seen {
		if n < 20 {
			t.Fatalf("boot at index %d in %d of 200 games: %v", i, n, seen)
		}
	}
}

// Failure on one's own boot: the challenger chooses the kind to lose.
func TestOwnBootChooseLoss(t *testing.T) {
	st := newGame(t, 3, 0)
	lay(t, st, "B S S")
	apply(t, st, "bid:1 pass pass")
	p := st.PublicView()
	if p.Phase != PhaseLose || !slices.Equal(p.ToAct, seats(0)) || !p.LastRound.OwnBoot || p.LastRound.BootOwner != 0 {
		t.Fatalf("%+v", p)
	}
	expectErr(t, st, 1, LoseAction(Sausage), CodeNotYourTurn)
	expectErr(t, st, 0, PickAction(0), CodeWrongPhase)
	if got := moves(st.Legal(0)); got != "lose:S lose:B" {
		t.Fatalf("legal %s", got)
	}
	apply(t, st, "lose:S")
	v := st.SeatView(0)
	if v.Lost != Sausage || v.Hand != (Hand{2, 1}) || v.Phase != PhaseSetup || v.RoundFirst != 0 || v.Round != 2 {
		t.Fatalf("%+v", v)
	}
	if st.SeatView(1).Lost != NoCard || !v.LastRound.Lost {
		t.Fatal("lost card")
	}
	mustValid(t, st)
}

// A player down to one card places it at setup, cannot add, so must
// challenge; on their own boot they are out and name the next first player.
func TestEliminationOnOwnBootNamesFirst(t *testing.T) {
	st := newGame(t, 4, 1)
	for i := 0; i < 3; i++ {
		ownBootLoss(t, st, 1, Sausage)
	}
	if v := st.SeatView(1); v.Hand != (Hand{0, 1}) || st.roundFirst != 1 || v.Round != 4 {
		t.Fatalf("%+v", v)
	}
	mustValid(t, st)
	apply(t, st, "0=place:S 1=place:B 2=place:S 3=place:S")
	expectErr(t, st, 1, PlaceAction(Boot), CodeMustChallenge)
	apply(t, st, "1=bid:1 pass pass pass")
	if st.phase != PhaseLose {
		t.Fatalf("phase %s", st.phase)
	}
	expectErr(t, st, 1, LoseAction(Sausage), CodeNoSuchCard)
	apply(t, st, "lose:B")
	p := st.PublicView()
	if p.Phase != PhaseName || !slices.Equal(p.ToAct, seats(1)) || !p.Seats[1].Out || !p.LastRound.Eliminated {
		t.Fatalf("%+v", p)
	}
	if got := moves(st.Legal(1)); got != "name:0 name:2 name:3" {
		t.Fatalf("legal %s", got)
	}
	expectErr(t, st, 1, NameAction(1), CodeBadSeat)
	expectErr(t, st, 1, NameAction(4), CodeBadSeat)
	expectErr(t, st, 1, NameAction(9), CodeUnknownAction)
	expectErr(t, st, 0, NameAction(0), CodeNotYourTurn)
	mustValid(t, st)
	apply(t, st, "name:3")
	p = st.PublicView()
	if p.RoundFirst != 3 || !slices.Equal(p.ToAct, seats(0, 2, 3)) {
		t.Fatalf("%+v", p)
	}
	// The out seat is skipped everywhere.
	expectErr(t, st, 1, PlaceAction(Sausage), CodeNotYourTurn)
	lay(t, st, "SS - S SS") // 3, 0 add; seat 2 to act
	if st.turn != 2 {
		t.Fatalf("turn %d", st.turn)
	}
	apply(t, st, "bid:1 bid:2") // 2, 3
	if st.turn != 0 {
		t.Fatalf("turn %d, want 0 (seat 1 out)", st.turn)
	}
	apply(t, st, "bid:3 pass pass") // 0; 2, 3 pass
	expectErr(t, st, 0, RevealAction(1), CodeStackEmpty)
	mustValid(t, st)
}

// A challenger put out by an opponent's boot: that opponent starts.
func TestEliminationOnOpponentBoot(t *testing.T) {
	st := newGame(t, 3, 0)
	ownBootLoss(t, st, 0, Boot)
	oppBootLoss(t, st, 0, 2)
	oppBootLoss(t, st, 0, 2)
	if v := st.SeatView(0); v.Hand != (Hand{1, 0}) || v.RoundFirst != 0 {
		t.Fatalf("%+v", v)
	}
	// The last card: seat 0 must challenge; seat 2 picks among one card.
	apply(t, st, "0=place:S 1=place:S 2=place:B bid:2 pass pass reveal:2")
	expectErr(t, st, 2, PickAction(1), CodeBadPick)
	if got := moves(st.Legal(2)); got != "pick:0" {
		t.Fatalf("legal %s", got)
	}
	apply(t, st, "pick:0")
	p := st.PublicView()
	if !p.Seats[0].Out || p.RoundFirst != 2 || p.Phase != PhaseSetup || !slices.Equal(p.ToAct, seats(1, 2)) {
		t.Fatalf("%+v", p)
	}
	if o := p.LastRound; !o.Eliminated || o.BootOwner != 2 || o.OwnBoot {
		t.Fatalf("%+v", o)
	}
	if v := st.SeatView(0); v.Lost != Sausage || len(v.Legal) != 0 {
		t.Fatalf("%+v", v)
	}
	mustValid(t, st)
}

// oppBootLoss plays a round in which loser challenges at 2 (or one more
// than the opening bid), turns over its own sausage and then owner's boot;
// owner picks index 0 of the loser's cards.
func oppBootLoss(t *testing.T, st *State, loser, owner game.Seat) {
	t.Helper()
	for _, s := range st.ToAct() {
		c := Sausage
		if s == owner {
			c = Boot
		}
		apply(t, st, strconv.Itoa(int(s))+"=place:"+c.String())
	}
	for st.phase == PhaseAdd || st.phase == PhaseBid {
		s := game.Seat(st.turn)
		a := PassAction()
		switch {
		case s == loser:
			a = BidAction(max(2, int(st.bid)+1))
		case st.phase == PhaseAdd:
			a = BidAction(1)
		}
		if err := st.Apply(s, a); err != nil {
			t.Fatal(err)
		}
	}
	apply(t, st, "reveal:"+strconv.Itoa(int(owner))+" pick:0")
}

func TestLastOneStanding(t *testing.T) {
	st := newGame(t, 3, 0)
	for i := 0; i < 3; i++ {
		ownBootLoss(t, st, 1, Sausage)
	}
	ownBootLoss(t, st, 1, Boot) // out; names seat 2
	if p := st.PublicView(); p.RoundFirst != 2 || !p.Seats[1].Out || st.Over() {
		t.Fatalf("%+v", p)
	}
	for i := 0; i < 3; i++ {
		ownBootLoss(t, st, 2, Sausage)
	}
	// Seat 2 is down to its boot and starts; it must challenge, loses the
	// boot and only seat 0 is left.
	apply(t, st, "0=place:S 2=place:B")
	apply(t, st, "bid:1 pass lose:B")
	p := st.PublicView()
	if !st.Over() || p.Winner != 0 || p.Phase != PhaseOver || !p.LastRound.Eliminated {
		t.Fatalf("%+v", p)
	}
	if r := st.Result(); !slices.Equal(r.Winners, seats(0)) {
		t.Fatalf("%+v", r)
	}
	mustValid(t, st)
}

func TestActionCodec(t *testing.T) {
	for a := game.Action(-3); a <= MaxAction+3; a++ {
		m, ok := Decode(a)
		if ok != (a >= 0 && a <= MaxAction) {
			t.Fatalf("Decode(%d) ok=%v", a, ok)
		}
		if !ok {
			continue
		}
		if m.Action() != a {
			t.Fatalf("%d → %+v → %d", a, m, m.Action())
		}
		back, err := ParseMove(m.String())
		if err != nil || back != m {
			t.Fatalf("%d: %q → %+v, %v", a, m.String(), back, err)
		}
	}
	for _, bad := range []string{"", "place", "place:X", "place:SS", "bid:0", "bid:25", "bid:-1", "bid:+3", "reveal:6", "pick:4", "name:x", "jump:1", "lose:"} {
		if _, err := ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q) accepted", bad)
		}
	}
	for _, a := range []game.Action{PlaceAction(NoCard), LoseAction(3), BidAction(0), BidAction(25), RevealAction(-1), RevealAction(6), NameAction(6), PickAction(4), PickAction(-1)} {
		if a != -1 {
			t.Errorf("invalid move encodes as %d", a)
		}
	}
	if got, _ := ParseCards("SsbB"); FormatCards(got) != "SSBB" {
		t.Fatal(got)
	}
	if _, err := ParseCards("SX"); err == nil {
		t.Fatal("bad cards accepted")
	}
	if FormatHand(Hand{2, 1}) != "SSB" {
		t.Fatal("FormatHand")
	}
}
