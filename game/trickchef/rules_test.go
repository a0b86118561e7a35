package trickchef

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

func cfg4() Config { return DefaultConfig(4, 0, 42) }

// picks takes the set-aside chefs R, Y, B for seats 0..2; seat 3 gets G
// automatically.
const picks = "chef:R chef:Y chef:B "

func TestRoundStartPicksAndAutoAssign(t *testing.T) {
	st := newDeal(t, cfg4())
	if st.Phase() != PhasePick || st.PublicView().ToAct != 0 {
		t.Fatalf("phase %s to act %d", st.Phase(), st.PublicView().ToAct)
	}
	apply(t, st, "chef:B")
	expectErr(t, st, 1, ChefAction(Blue), CodeChefNotAvailable)
	expectErr(t, st, 1, PlayAction(Card{Red, 1}, 0), CodeWrongPhase)
	expectErr(t, st, 0, ChefAction(Red), CodeNotYourTurn)
	if got := st.Legal(1); !slices.Equal(got, []game.Action{ChefAction(Red), ChefAction(Yellow), ChefAction(Green)}) {
		t.Fatalf("legal picks %v", got)
	}
	apply(t, st, "chef:G chef:R")
	p := st.PublicView()
	if p.Phase != PhasePlay || p.ToAct != 0 || p.Seats[3].Chefs != [4]int{0, 1, 0, 0} {
		t.Fatalf("after picks: phase %s to act %d seat 3 chefs %v", p.Phase, p.ToAct, p.Seats[3].Chefs)
	}
	if p.SetAside != [4]int{} || p.Pool != [4]int{4, 4, 4, 4} || p.Reserve != 20 {
		t.Fatalf("tokens: aside %v pool %v reserve %d", p.SetAside, p.Pool, p.Reserve)
	}
}

// The five trick examples of the published rules (docs/rules/trickchef.md).
func TestRulebookTrickExamples(t *testing.T) {
	t.Run("1 four red: 10 wins", func(t *testing.T) {
		st := newDeal(t, cfg4(), "R1", "R3", "R7", "R10")
		apply(t, st, picks+"R1 R3 R7 R10")
		lt := st.PublicView().LastTrick
		if lt.Winner != 3 || lt.ChefTaker != 0 {
			t.Fatalf("winner %d taker %d", lt.Winner, lt.ChefTaker)
		}
	})
	// Trick 1 (all suits trump): G10 wins for seat 3; seat 0 plays the
	// lowest card and takes a blue chef, so blue alone is trump in trick 2.
	blueTrump := picks + "G1 G2 G3 G10 chef:B "
	t.Run("2 red 1 3 7 yellow 10 trump blue: red 7 wins", func(t *testing.T) {
		st := newDeal(t, cfg4(), "G1 R3", "G2 R7", "G3 Y10 !R", "G10 R1")
		apply(t, st, blueTrump)
		if tr := st.PublicView().Trumps; !eqSuits(tr, Blue) {
			t.Fatalf("trumps %v", tr)
		}
		apply(t, st, "R1 R3 R7 Y10")
		if lt := st.PublicView().LastTrick; lt.Winner != 1 || !eqSuits(lt.Trumps, Blue) {
			t.Fatalf("winner %d trumps %v", lt.Winner, lt.Trumps)
		}
	})
	t.Run("3 red 1 7 yellow 10 blue 5 trump blue: blue 5 wins", func(t *testing.T) {
		st := newDeal(t, cfg4(), "G1 R7", "G2 Y10 !R", "G3 B5 !R", "G10 R1")
		apply(t, st, blueTrump+"R1 R7 Y10 B5")
		if lt := st.PublicView().LastTrick; lt.Winner != 2 || lt.ChefTaker != 3 {
			t.Fatalf("winner %d taker %d", lt.Winner, lt.ChefTaker)
		}
	})
	t.Run("4 red 1 7 10+2 9+4: red 9 wins with 13", func(t *testing.T) {
		// Seats 1 and 2 earn a coin in each of the first two tricks.
		st := newDeal(t, cfg4(), "G1 G4 R7", "G2 G5 R10", "G3 G6 R9", "G10 G9 R1")
		apply(t, st, picks+"G1 G2 G3 G10 chef:R G9 G4 G5 G6 chef:Y")
		p := st.PublicView()
		if p.Seats[1].Coins != 2 || p.Seats[2].Coins != 2 {
			t.Fatalf("coins %d %d", p.Seats[1].Coins, p.Seats[2].Coins)
		}
		apply(t, st, "R1 R7 R10+1 R9+2")
		lt := st.PublicView().LastTrick
		if lt.Winner != 2 || lt.Cards[3].Effective != 13 || lt.Cards[2].Effective != 12 {
			t.Fatalf("winner %d cards %+v", lt.Winner, lt.Cards)
		}
	})
	t.Run("5 centre 3R 2Y 3B 4G: yellow is trump", func(t *testing.T) {
		if got := Trumps([4]int{3, 2, 3, 4}).Suits(); !eqSuits(got, Yellow) {
			t.Fatalf("trumps %v", got)
		}
		// The same pool reached in play: awards take R, Y, Y, B.
		st := newDeal(t, cfg4())
		apply(t, st, picks+"* * * * chef:R * * * * chef:Y * * * * chef:Y * * * * chef:B")
		p := st.PublicView()
		if p.Pool != [4]int{3, 2, 3, 4} || !eqSuits(p.Trumps, Yellow) {
			t.Fatalf("pool %v trumps %v", p.Pool, p.Trumps)
		}
	})
}

func TestRulebookScoringExample(t *testing.T) {
	won := cards(t, "G1 G4 G8 G10 R5")
	m := cardSet(0)
	for _, c := range won {
		m |= 1 << c.index()
	}
	if got := FormatCards(covered(m, Green, 2).cards()); got != "G1 G4" {
		t.Fatalf("covered %s", got)
	}
	if got := SuitScore(won, Green, 2); got != 1+2 {
		t.Fatalf("stars %d", got)
	}
	if got := SuitScore(won, Green, 9); got != 1+2+3+4 {
		t.Fatalf("spare chefs: stars %d", got)
	}
	if got := SuitScore(won, Blue, 3); got != 0 {
		t.Fatalf("no cards: stars %d", got)
	}
}

func TestStarTable(t *testing.T) {
	want := map[int]int{1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
	for v, s := range want {
		if got := (Card{Blue, v}).Stars(); got != s {
			t.Errorf("stars(%d) = %d, want %d", v, got, s)
		}
	}
}

func TestResolve(t *testing.T) {
	all := SuitSet(15)
	none := SuitSet(0)
	tests := []struct {
		name          string
		plays         string // cards with coins, in playing order
		trumps        SuitSet
		winner, taker int
	}{
		{"all trump on trick 1: highest of any suit", "R5 Y9 B2 G7", all, 1, 2},
		{"led suit wins without trump", "R5 Y9 B2 R7", none, 3, 2},
		{"off-suit non-trump cannot win", "R5 Y10 R6 B1", 1 << Green, 2, 3},
		{"trump beats led suit", "R9 B2 R10 Y1", 1 << Blue, 1, 3},
		{"higher trump wins", "R9 B2 B3 Y1", 1 << Blue, 2, 3},
		{"several trumps compete", "R9 B2 Y3 G1", 1<<Blue | 1<<Yellow, 2, 3},
		{"equal trumps: last played wins", "B7 R9 B7 R1", 1 << Blue, 2, 3},
		{"equal led suit, no trump: last played wins", "R7 R7+0 Y7 R3+2", none, 3, 0},
		{"equal lowest: first played takes the chef", "R4 Y2 B2 R9", none, 3, 1},
		{"coins below zero take the chef", "R1 R2-1 R9 R10", none, 3, 1},
		{"coin +2 swings the win", "R10 R9+1 R8 R1", none, 1, 3},
		{"winner and taker the same", "B1 R5 R6 R7", 1 << Blue, 0, 0},
		{"effective tie across trump and led suit", "R8 B6+1 R3 R2", 1 << Blue, 1, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var plays []Played
			for _, f := range splitFields(tc.plays) {
				m, err := ParseMove(f)
				if err != nil {
					t.Fatal(err)
				}
				plays = append(plays, Played{Card: m.Card, Coins: m.Coins})
			}
			w, c := Resolve(plays, tc.trumps)
			if w != tc.winner || c != tc.taker {
				t.Fatalf("winner %d taker %d, want %d %d", w, c, tc.winner, tc.taker)
			}
		})
	}
}

func splitFields(s string) []string {
	var out []string
	cur := ""
	for _, r := range s + " " {
		if r == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(r)
	}
	return out
}

func TestTrumps(t *testing.T) {
	tests := []struct {
		pool [4]int
		want []Suit
	}{
		{[4]int{4, 4, 4, 4}, []Suit{Red, Yellow, Blue, Green}},
		{[4]int{3, 2, 3, 4}, []Suit{Yellow}},
		{[4]int{0, 2, 2, 4}, []Suit{Yellow, Blue}},
		{[4]int{0, 0, 0, 1}, []Suit{Green}},
		{[4]int{0, 0, 0, 0}, []Suit{}},
		{[4]int{4, 4, 0, 4}, []Suit{Red, Yellow, Green}}, // 3 players, blue removed
	}
	for _, tc := range tests {
		if got := Trumps(tc.pool).Suits(); !slices.Equal(got, tc.want) {
			t.Errorf("Trumps(%v) = %v, want %v", tc.pool, got, tc.want)
		}
	}
}

// A suit is trump while it has the fewest chefs, and stops being trump
// when its last chef leaves the pool.
func TestTrumpEvolvesAndEmptySuitStopsBeingTrump(t *testing.T) {
	st := newDeal(t, cfg4())
	apply(t, st, picks)
	wants := [][]Suit{
		{Red, Yellow, Blue, Green}, // trick 1: all
		{Blue}, {Blue}, {Blue},     // 3, 2, 1 blue chefs left
		{Red, Yellow, Green}, // blue empty: not trump any more
	}
	for i, want := range wants {
		if got := st.PublicView().Trumps; !slices.Equal(got, want) {
			t.Fatalf("trick %d: trumps %v, want %v", i+1, got, want)
		}
		apply(t, st, "* * * *")
		if lt := st.PublicView().LastTrick; !slices.Equal(lt.Trumps, want) {
			t.Fatalf("trick %d resolved with %v", i+1, lt.Trumps)
		}
		if i < 4 {
			apply(t, st, "chef:B")
		} else {
			expectErr(t, st, st.PublicView().ToAct, ChefAction(Blue), CodeChefNotAvailable)
			apply(t, st, "chef:R")
		}
	}
}

// In trick 1 every suit is trump, so an off-suit card can win.
func TestTrickOneOffSuitTrumpWins(t *testing.T) {
	st := newDeal(t, cfg4(), "R5", "R6", "Y9 !R", "R2")
	apply(t, st, picks+"R5 R6 Y9 R2")
	if lt := st.PublicView().LastTrick; lt.Winner != 2 || lt.ChefTaker != 3 {
		t.Fatalf("winner %d taker %d", lt.Winner, lt.ChefTaker)
	}
}

func TestPlayErrors(t *testing.T) {
	st := newDeal(t, cfg4(), "R5 Y1", "R6 Y2", "B1 !R", "R2")
	expectErr(t, st, 0, PlayAction(Card{Red, 5}, 0), CodeWrongPhase)
	apply(t, st, picks)
	expectErr(t, st, 0, ChefAction(Red), CodeWrongPhase)
	expectErr(t, st, 1, PlayAction(Card{Red, 6}, 0), CodeNotYourTurn)
	expectErr(t, st, 4, PlayAction(Card{Red, 6}, 0), CodeBadSeat)
	expectErr(t, st, -1, PlayAction(Card{Red, 6}, 0), CodeBadSeat)
	expectErr(t, st, 0, -1, CodeUnknownAction)
	expectErr(t, st, 0, MaxAction+1, CodeUnknownAction)
	expectErr(t, st, 0, PlayAction(Card{Red, 6}, 0), CodeCardNotInHand)
	expectErr(t, st, 0, PlayAction(Card{Red, 5}, 1), CodeNotEnoughCoins)
	expectErr(t, st, 0, PlayAction(Card{Red, 5}, -1), CodeNotEnoughCoins)
	apply(t, st, "R5")
	expectErr(t, st, 1, PlayAction(Card{Yellow, 2}, 0), CodeMustFollowSuit)
	apply(t, st, "R6")
	apply(t, st, "B1") // void in red: any card
	apply(t, st, "R2")
	if st.PublicView().Phase != PhaseAward {
		t.Fatal("want award phase")
	}
	expectErr(t, st, 2, PlayAction(Card{Red, 3}, 0), CodeWrongPhase)
}

func TestCoinsAndIncome(t *testing.T) {
	// Trick 1: seat 3 wins, seat 0 takes the chef; seats 1 and 2 earn.
	st := newDeal(t, cfg4(), "G1 R1 R2", "G2 R3 R4", "G3 R5", "G10")
	apply(t, st, picks+"G1 G2 G3 G10 chef:G")
	p := st.PublicView()
	if got := p.LastTrick.Income; !slices.Equal(got, seats(1, 2)) {
		t.Fatalf("income %v", got)
	}
	if p.Reserve != 18 || p.Seats[1].Coins != 1 || p.Seats[2].Coins != 1 || p.Seats[0].Coins != 0 {
		t.Fatalf("reserve %d coins %+v", p.Reserve, p.Seats)
	}
	// Seat 3 leads; seat 1 drives R3 to 1 (−2) to take the chef: placed
	// coins return to the reserve, then income is paid.
	apply(t, st, "G9 R2 R3-1 R5")
	p = st.PublicView()
	lt := p.LastTrick
	if lt.ChefTaker != 1 || lt.Cards[2].Effective != 1 || lt.Winner != 3 {
		t.Fatalf("taker %d cards %+v winner %d", lt.ChefTaker, lt.Cards, lt.Winner)
	}
	if !slices.Equal(lt.Income, seats(0, 2)) || p.Reserve != 17 || p.Seats[1].Coins != 0 {
		t.Fatalf("income %v reserve %d seat 1 coins %d", lt.Income, p.Reserve, p.Seats[1].Coins)
	}
}

// [ruling] If the reserve cannot pay everyone, income goes in the trick's
// playing order until it is empty; coins on cards return first.
func TestReserveRunsDry(t *testing.T) {
	cfg := cfg4()
	cfg.First = 2 // playing order 2, 3, 0, 1
	hands := buildDeal(t, 4, Green, "G1", "G6", "G10", "G5")
	t.Run("pay in playing order", func(t *testing.T) {
		st, _ := NewFromDeal(cfg, hands)
		apply(t, st, "chef:R chef:Y chef:B")
		st.reserve, st.coins[0] = 1, 19
		apply(t, st, "G10 G5 G1 G6") // seat 2 wins, seat 0 takes; 3 and 1 owed
		lt := st.PublicView().LastTrick
		if !slices.Equal(lt.Income, seats(3)) || !slices.Equal(lt.NoIncome, seats(1)) || st.reserve != 0 {
			t.Fatalf("income %v unpaid %v reserve %d", lt.Income, lt.NoIncome, st.reserve)
		}
	})
	t.Run("placed coins return before income", func(t *testing.T) {
		st, _ := NewFromDeal(cfg, hands)
		apply(t, st, "chef:R chef:Y chef:B")
		st.reserve, st.coins[1] = 0, 20
		apply(t, st, "G10 G5 G1 G6+1") // seat 1's coin returns, then goes to seat 3
		lt := st.PublicView().LastTrick
		if !slices.Equal(lt.Income, seats(3)) || !slices.Equal(lt.NoIncome, seats(1)) || st.reserve != 0 || st.coins[1] != 19 {
			t.Fatalf("income %v unpaid %v reserve %d coins %v", lt.Income, lt.NoIncome, st.reserve, st.coins)
		}
		if _, err := Unmarshal(mustMarshal(t, st)); err != nil {
			t.Fatal(err)
		}
	})
}

func mustMarshal(t testing.TB, st *State) []byte {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestThreePlayers(t *testing.T) {
	for _, removed := range []Suit{Red, Yellow, Blue, Green} {
		cfg := Config{Players: 3, Removed: removed, First: 1, Seed: 7}
		st, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		p := st.PublicView()
		var pool, aside [4]int
		var suits []Suit
		for s := Suit(0); s < NumSuits; s++ {
			if s != removed {
				pool[s], aside[s] = 4, 1
				suits = append(suits, s)
			}
		}
		if p.Pool != pool || p.SetAside != aside || !slices.Equal(p.Suits, suits) || !slices.Equal(p.Trumps, suits) {
			t.Fatalf("removed %s: pool %v aside %v suits %v trumps %v", removed, p.Pool, p.SetAside, p.Suits, p.Trumps)
		}
		for i := game.Seat(0); i < 3; i++ {
			v := st.SeatView(i)
			if len(v.Hand) != 10 {
				t.Fatalf("hand size %d", len(v.Hand))
			}
			for _, c := range v.Hand {
				if c.Suit == removed {
					t.Fatalf("removed suit dealt: %s", c)
				}
			}
		}
		if p.ToAct != 1 {
			t.Fatalf("first %d", p.ToAct)
		}
		expectErr(t, st, 1, ChefAction(removed), CodeChefNotAvailable)
		// Two picks; the third seat gets the last chef automatically.
		l := st.Legal(1)
		apply(t, st, Move{Kind: KindChef, Suit: mustDecode(l[0]).Suit}.String())
		l = st.Legal(2)
		apply(t, st, Move{Kind: KindChef, Suit: mustDecode(l[0]).Suit}.String())
		if st.Phase() != PhasePlay || st.chefs[0] == [4]uint8{} {
			t.Fatalf("no auto-pick: phase %s", st.Phase())
		}
	}
	if DefaultConfig(3, 0, 1).Removed != Green {
		t.Fatal("default removed suit")
	}
	if _, err := NewFromDeal(Config{Players: 3, Removed: Blue}, buildDeal(t, 4, Blue)[:3]); err == nil {
		t.Fatal("deal with the removed suit accepted")
	}
}

func mustDecode(a game.Action) Move {
	m, ok := Decode(a)
	if !ok {
		panic("bad action")
	}
	return m
}

// With 3 players the pool can run down to one suit; the award is then
// automatic.
func TestForcedChefAward(t *testing.T) {
	st, err := New(Config{Players: 3, Removed: Blue, First: 0, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	apply(t, st, "chef:R chef:Y")
	for trick := 1; trick <= 8; trick++ {
		apply(t, st, "* * *")
		s := "chef:R"
		if trick > 4 {
			s = "chef:Y"
		}
		apply(t, st, s)
	}
	p := st.PublicView()
	if p.Pool != [4]int{0, 0, 0, 4} || !eqSuits(p.Trumps, Green) {
		t.Fatalf("pool %v trumps %v", p.Pool, p.Trumps)
	}
	apply(t, st, "* * *")
	p = st.PublicView()
	if p.Phase != PhasePlay || p.Trick != 10 || !p.LastTrick.ChefChosen || p.LastTrick.ChefSuit != Green || p.Pool[Green] != 3 {
		t.Fatalf("phase %s trick %d last %+v", p.Phase, p.Trick, p.LastTrick)
	}
}

func TestNextRoundFirst(t *testing.T) {
	tests := []struct {
		totals  [4]int
		players int
		prev    game.Seat
		want    game.Seat
	}{
		{[4]int{5, 9, 3, 2}, 4, 0, 1},
		{[4]int{9, 5, 9, 2}, 4, 0, 0},  // tie: the previous first is included
		{[4]int{9, 5, 9, 2}, 4, 1, 2},  // tie: clockwise from seat 1
		{[4]int{9, 5, 9, 2}, 4, 3, 0},  // wraps around
		{[4]int{4, 4, 4, 4}, 4, 2, 2},  // all tied
		{[4]int{1, 7, 7, 99}, 3, 2, 2}, // seat 3 is not playing
	}
	for _, tc := range tests {
		if got := nextRoundFirst(tc.totals, tc.players, tc.prev); got != tc.want {
			t.Errorf("nextRoundFirst(%v, %d, %d) = %d, want %d", tc.totals, tc.players, tc.prev, got, tc.want)
		}
	}
}

// The first player of rounds 2 and 3 follows the totals.
func TestRoundFirstInPlay(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		st, _ := New(DefaultConfig(4, game.Seat(seed%4), seed))
		prev := game.Seat(seed % 4)
		for round := 1; round <= 3; round++ {
			p := st.PublicView()
			if p.Round != round || p.RoundFirst != prev && round == 1 {
				t.Fatalf("round %d first %d", p.Round, p.RoundFirst)
			}
			if round > 1 {
				var totals [4]int
				for i, s := range p.Seats {
					totals[i] = s.Total
				}
				if want := nextRoundFirst(totals, 4, prev); p.RoundFirst != want || p.ToAct != want {
					t.Fatalf("round %d first %d want %d", round, p.RoundFirst, want)
				}
			}
			prev = p.RoundFirst
			for st.PublicView().Round == round && !st.Over() {
				s, _ := st.Current()
				if err := st.Apply(s, Baseline(st.SeatView(s), seed)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestFinalResult(t *testing.T) {
	tests := []struct {
		name    string
		scores  [3][4]uint8 // per round, per seat (as coins held)
		winners []game.Seat
		tb      TieBreak
		totals  []int
	}{
		{"single highest", [3][4]uint8{{5, 1, 1, 1}, {1, 1, 1, 1}, {0, 0, 0, 0}}, seats(0), TieNone, []int{6, 2, 2, 2}},
		{"tie decided by round 3", [3][4]uint8{{5, 1, 2, 1}, {0, 1, 1, 1}, {1, 4, 3, 0}}, seats(1), TieRound3, []int{6, 6, 6, 2}},
		{"shared win", [3][4]uint8{{2, 2, 1, 1}, {1, 1, 1, 1}, {4, 4, 4, 0}}, seats(0, 1), TieShared, []int{7, 7, 6, 2}},
		{"all tied", [3][4]uint8{{1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}}, seats(0, 1, 2, 3), TieShared, []int{3, 3, 3, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := &State{players: 4, phase: PhaseOver, round: 3}
			for r := range tc.scores {
				st.results[r].coins = tc.scores[r]
			}
			res := st.Result()
			_, _, tb := st.finalResult()
			if !slices.Equal(res.Winners, tc.winners) || tb != tc.tb || !slices.Equal(res.Scores, tc.totals) {
				t.Fatalf("winners %v tb %s scores %v", res.Winners, tb, res.Scores)
			}
		})
	}
}

func TestGameOver(t *testing.T) {
	st, _ := New(DefaultConfig(4, 1, 99))
	n := 0
	for !st.Over() {
		s, _ := st.Current()
		if err := st.Apply(s, Baseline(st.SeatView(s), 1)); err != nil {
			t.Fatal(err)
		}
		n++
	}
	p := st.PublicView()
	if p.ToAct != -1 || len(st.ToAct()) != 0 || len(p.RoundResults) != 3 || p.Result == nil {
		t.Fatalf("over view %+v", p)
	}
	sum := 0
	for i, rr := range p.RoundResults {
		for _, sr := range rr.Seats {
			sum += len(sr.Suits[0].Won) + len(sr.Suits[1].Won) + len(sr.Suits[2].Won) + len(sr.Suits[3].Won)
			if sr.Score != sr.Stars+sr.Coins {
				t.Fatalf("round %d: %+v", i+1, sr)
			}
		}
	}
	if sum != 120 {
		t.Fatalf("won cards over 3 rounds: %d", sum)
	}
	for i, s := range p.Seats {
		if s.Total != p.Result.Scores[i] || s.Total != s.RoundScores[0]+s.RoundScores[1]+s.RoundScores[2] {
			t.Fatalf("seat %d totals %+v result %+v", i, s, p.Result)
		}
	}
	expectErr(t, st, 0, ChefAction(Red), CodeGameOver)
	if len(st.Legal(0)) != 0 {
		t.Fatal("legal after the game")
	}
}

func TestActionEncoding(t *testing.T) {
	seen := map[game.Action]bool{}
	for s := Suit(0); s < NumSuits; s++ {
		a := ChefAction(s)
		if m, ok := Decode(a); !ok || m.Kind != KindChef || m.Suit != s || seen[a] {
			t.Fatalf("chef %s: %d %+v", s, a, m)
		}
		seen[a] = true
		for v := 1; v <= MaxValue; v++ {
			for k := -TotalCoins; k <= TotalCoins; k++ {
				c := Card{s, v}
				a := PlayAction(c, k)
				m, ok := Decode(a)
				if !ok || m.Kind != KindPlay || m.Card != c || m.Coins != k || seen[a] || a < 0 || a > MaxAction {
					t.Fatalf("play %s%+d: %d %+v", c, k, a, m)
				}
				seen[a] = true
				if back, err := ParseMove(m.String()); err != nil || back != m {
					t.Fatalf("notation %q: %+v %v", m.String(), back, err)
				}
			}
		}
	}
	if len(seen) != int(MaxAction)+1 {
		t.Fatalf("%d actions, max %d", len(seen), MaxAction)
	}
	for _, a := range []game.Action{-1, MaxAction + 1, 1 << 20} {
		if _, ok := Decode(a); ok {
			t.Fatalf("Decode(%d) ok", a)
		}
	}
	if PlayAction(Card{Red, 11}, 0) != -1 || PlayAction(Card{Red, 1}, 21) != -1 || ChefAction(4) != -1 {
		t.Fatal("invalid encodings")
	}
}

func TestNotation(t *testing.T) {
	cs, err := ParseCards("R1 r3 Y10 B5 G7")
	if err != nil || FormatCards(cs) != "R1 R3 Y10 B5 G7" {
		t.Fatalf("%v %v", cs, err)
	}
	for _, bad := range []string{"X1", "R0", "R11", "R", "R+1", "R01", "Rx"} {
		if _, err := ParseCard(bad); err == nil {
			t.Errorf("ParseCard(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"chef:", "chef:X", "R1+", "R1+-1", "R1+21", "R1++1"} {
		if _, err := ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q) accepted", bad)
		}
	}
	d, err := ParseDeal("R1 R2 | Y1 | B1")
	if err != nil || len(d) != 3 || FormatDeal(d) != "R1 R2 | Y1 | B1" {
		t.Fatalf("%v %v", d, err)
	}
}

func TestConfigValidation(t *testing.T) {
	for _, c := range []Config{
		{Players: 2}, {Players: 5}, {Players: 4, First: 4}, {Players: 3, First: 3}, {Players: 4, First: -1}, {Players: 3, Removed: 4},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v) accepted", c)
		}
	}
	good := buildDeal(t, 4, Green)
	bad := [][][]Card{good[:3], {good[0], good[1], good[2], good[3][:9]}, {good[0], good[0], good[2], good[3]}}
	for i, h := range bad {
		if _, err := NewFromDeal(cfg4(), h); err == nil {
			t.Errorf("bad deal %d accepted", i)
		}
	}
}

// Same config and actions, same game; a different seed deals differently.
func TestDeterministicDeal(t *testing.T) {
	a, _ := New(DefaultConfig(4, 0, 5))
	b, _ := New(DefaultConfig(4, 0, 5))
	c, _ := New(DefaultConfig(4, 0, 6))
	if string(mustMarshal(t, a)) != string(mustMarshal(t, b)) {
		t.Fatal("same seed, different state")
	}
	if slices.Equal(a.SeatView(0).Hand, c.SeatView(0).Hand) {
		t.Fatal("different seeds, same hand")
	}
}
