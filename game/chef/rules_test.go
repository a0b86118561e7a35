package chef

import (
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// ruleCase plays moves from a deal, then optionally one illegal move that
// must be refused with code (changing nothing), and checks the summary
// tokens in want and, if set, the exact Legal list of the seat to act.
type ruleCase struct {
	name  string
	deal  string
	moves string
	bad   string // "move" or "seat=move"
	code  game.Code
	want  string
	legal string
}

func (c ruleCase) run(t *testing.T) {
	t.Helper()
	st := deal(t, c.deal)
	mustValid(t, st)
	apply(t, st, c.moves)
	if c.bad != "" {
		seat, mv := actor(t, st, c.bad)
		m, err := ParseMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		expectErr(t, st, seat, m.Action(), c.code)
	}
	expectSummary(t, st, c.want)
	if c.legal != "" {
		if got := moves(st.Legal(game.Seat(st.turn))); got != c.legal {
			t.Fatalf("legal %q, want %q", got, c.legal)
		}
	}
}

func runCases(t *testing.T, cases []ruleCase) {
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

// Option 1: draw, then optionally discard one dish; a drawn action card may
// be played at once instead; ending the turn is an explicit move.
func TestDraw(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "draw puts the card in front", deal: "0:or 1:g 2:b discard:p pile:r", moves: "draw",
			want: "0:orr step:drawn drawn:r turn:0", legal: "end discard:o discard:r"},
		{name: "discard after drawing ends the turn", deal: "0:or 1:g 2:b discard:p pile:r", moves: "draw discard:o",
			want: "0:rr top:o step:turn drawn:- turn:1"},
		{name: "the drawn dish itself may go", deal: "0:or 1:g 2:b discard:p pile:g", moves: "draw discard:g",
			want: "0:or top:g turn:1"},
		{name: "end keeps everything", deal: "0:or 1:g 2:b discard:p pile:r", moves: "draw end",
			want: "0:orr top:p turn:1"},
		{name: "no second draw", deal: "0:or 1:g 2:b discard:p pile:r", moves: "draw", bad: "draw", code: CodeMustFinishDraw,
			want: "step:drawn"},
		{name: "no take after drawing", deal: "0:o 1:g 2:b discard:p pile:r", moves: "draw", bad: "take", code: CodeMustFinishDraw},
		{name: "no held action card after drawing a dish", deal: "0:orE 1:g 2:b discard:p pile:r", moves: "draw",
			bad: "play:E", code: CodeNotTheDrawnCard},
		{name: "no action card discarded after drawing", deal: "0:orE 1:g 2:b discard:p pile:r", moves: "draw",
			legal: "end discard:o discard:r"},
		{name: "a drawn action card may be played at once", deal: "0:or 1:gp 2:b discard:o pile:D", moves: "draw",
			legal: "end discard:o discard:r play:D:p play:D:g"},
		{name: "played at once", deal: "0:or 1:gp 2:b discard:o pile:D", moves: "draw play:D:g",
			want: "0:or 1:p top:g skip:1 turn:2"},
		{name: "or kept", deal: "0:or 1:gp 2:b discard:o pile:D", moves: "draw end", want: "0:orD turn:1"},
		{name: "only the drawn one", deal: "0:orD 1:gp 2:b discard:o pile:E", moves: "draw",
			bad: "play:D:g", code: CodeNotTheDrawnCard, legal: "end play:E discard:o discard:r"},
		{name: "end needs a draw", deal: "0:or 1:g 2:b discard:p", bad: "end", code: CodeNotAfterDraw},
		{name: "redraw needs a draw", deal: "0:orpgbn 1:g 2:b discard:p", bad: "redraw", code: CodeNotAfterDraw},
	})
}

// Option 2: take the discard top if it is a dish one lacks or an Addition
// one can use.
func TestTakeDiscard(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "a dish one lacks", deal: "0:or 1:g 2:b discard:pg", moves: "take", want: "0:org top:p turn:1 disc:1",
			legal: "draw take"},
		{name: "a dish one has", deal: "0:org 1:- 2:b discard:pg", bad: "take", code: CodeCannotTakeDiscard},
		{name: "even with duplicates and action cards", deal: "0:ooH 1:- 2:b discard:pg", moves: "take", want: "0:oogH"},
		{name: "an action card", deal: "0:or 1:- 2:b discard:gE", bad: "take", code: CodeCannotTakeDiscard},
		{name: "a Chef", deal: "0:or 1:- 2:b discard:gC", bad: "take", code: CodeCannotTakeDiscard},
		{name: "an empty discard pile", deal: "0:or 1:g 2:b discard:p", moves: "take", bad: "take",
			code: CodeCannotTakeDiscard, want: "top:- disc:0 turn:1"},
		{name: "an Addition with an incomplete menu", deal: "0:orpgb 1:- 2:b discard:gA", bad: "take", code: CodeCannotTakeDiscard},
		{name: "an Addition with a complete menu not announced", deal: "0:orpgbn 1:- 2:b discard:gA", bad: "take",
			code: CodeNotAnnounced},
		{name: "an Addition with an announced menu wins", deal: "0:orpgbn 1:- 2:b announced:0 discard:gA", moves: "take",
			want: "0:orpgbnA winners:0 top:g"},
	})
}

// Option 3: play an action card at the next player in the current
// direction.
func TestPlayActionCards(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "hangover: two dishes, the second on top, and a skip", deal: "0:H 1:orpp 2:b discard:g",
			moves: "play:H:op", want: "0:- 1:rp top:p disc:4 skip:1 turn:2"},
		{name: "hangover: one colour twice", deal: "0:H 1:orpp 2:b discard:g", moves: "play:H:pp", want: "1:or"},
		{name: "hangover: twice a colour held once", deal: "0:H 1:orp 2:b discard:g", bad: "play:H:pp", code: CodeNoSuchDish},
		{name: "hangover: a colour not held", deal: "0:H 1:orp 2:b discard:g", bad: "play:H:og", code: CodeNoSuchDish},
		{name: "hangover: one dish is not enough", deal: "0:H 1:oE 2:b discard:g", bad: "play:H:oo",
			code: CodeNotEnoughDishes, legal: "draw take"},
		{name: "diet: one dish and a skip", deal: "0:D 1:or 2:b discard:g", moves: "play:D:r", want: "1:o top:r skip:1 turn:2"},
		{name: "diet: no dish", deal: "0:D 1:E 2:b discard:g", bad: "play:D:o", code: CodeNotEnoughDishes},
		{name: "diet: a colour not held", deal: "0:D 1:o 2:b discard:g", bad: "play:D:r", code: CodeNoSuchDish},
		{name: "empty plate: a skip, dishes or not", deal: "0:E 1:- 2:b discard:g", moves: "play:E",
			want: "1:- top:E skip:1 turn:2"},
		{name: "blank menu reverses", deal: "0:M 1:o 2:b discard:g", moves: "play:M", want: "dir:ccw turn:2 top:M skip:-"},
		{name: "after a reverse the previous seat is hit", deal: "0:M 1:o 2:bD discard:g", moves: "play:M 2=play:D:o",
			want: "1:- skip:1 turn:0 dir:ccw top:o"},
		{name: "chef: takes a dish, no skip", deal: "0:Co 1:rp 2:b discard:g", moves: "play:C:r",
			want: "0:or 1:p top:C skip:- turn:1"},
		{name: "chef: no dish to take", deal: "0:C 1:E 2:b discard:g", bad: "play:C:o", code: CodeNoDishToTake},
		{name: "chef: a colour not held", deal: "0:C 1:o 2:b discard:g", bad: "play:C:r", code: CodeNoDishToTake},
		{name: "a card one does not have", deal: "0:o 1:o 2:b discard:g", bad: "play:E", code: CodeNoSuchCard},
		{name: "counter-clockwise the next is seat-1", deal: "0:D 1:o 2:b discard:g ccw", moves: "play:D:b",
			want: "2:- skip:2 turn:1"},
	})
}

// Option 4: discard a duplicate without drawing.
func TestDiscardDuplicate(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "a duplicate", deal: "0:oor 1:- 2:b discard:g", moves: "discard:o", want: "0:or top:o turn:1"},
		{name: "not a duplicate", deal: "0:oor 1:- 2:b discard:g", bad: "discard:r", code: CodeNotADuplicate},
		{name: "not held", deal: "0:oor 1:- 2:b discard:g", bad: "discard:g", code: CodeNoSuchDish,
			legal: "draw take discard:o"},
	})
}

// With two players, dishes lost to a penalty leave the game and a skip
// gives the player another turn; Blank menu only reverses. [ruling]
func TestTwoPlayers(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "hangover dishes leave the game", deal: "0:H 1:orp discard:g", moves: "play:H:or",
			want: "1:p removed:or top:H disc:2 skip:1 turn:0"},
		{name: "diet dish leaves the game", deal: "0:D 1:orp discard:g", moves: "play:D:p",
			want: "1:or removed:p top:D turn:0"},
		{name: "empty plate: play again", deal: "0:E 1:o discard:g", moves: "play:E draw", want: "turn:0 step:drawn"},
		{name: "blank menu only reverses", deal: "0:M 1:o discard:g", moves: "play:M", want: "turn:1 dir:ccw skip:-"},
		{name: "chef dish changes hands", deal: "0:C 1:o discard:g", moves: "play:C:o", want: "0:o 1:- removed:- turn:1"},
		{name: "duplicates still go to the discard", deal: "0:oo 1:- discard:g", moves: "discard:o", want: "top:o removed:-"},
	})
}

// «Счёт!»: on one's own turn, with a complete menu, free. [ruling]
func TestAnnounce(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "complete menu", deal: "0:orpgbn 1:- 2:b discard:o", legal: "draw announce"},
		{name: "does not cost the turn", deal: "0:orpgbn 1:- 2:b discard:o", moves: "announce",
			want: "ann:0 turn:0 step:turn", legal: "draw"},
		{name: "twice", deal: "0:orpgbn 1:- 2:b discard:o", moves: "announce", bad: "announce", code: CodeAlreadyAnnounced},
		{name: "five colours", deal: "0:orpgb 1:- 2:b discard:o", bad: "announce", code: CodeNotComplete},
		{name: "with a duplicate", deal: "0:orpgbnn 1:- 2:b discard:o", bad: "announce", code: CodeNotComplete},
		{name: "with an action card", deal: "0:orpgbnE 1:- 2:b discard:o", bad: "announce", code: CodeNotComplete},
		{name: "after completing by a draw", deal: "0:orpgb 1:- 2:b discard:o pile:n", moves: "draw announce",
			want: "ann:0 step:drawn turn:0", legal: "end discard:o discard:r discard:p discard:g discard:b discard:n"},
		{name: "and it stands after the turn", deal: "0:orpgb 1:- 2:b discard:o pile:n", moves: "draw announce end",
			want: "ann:0 turn:1"},
		{name: "not on another's turn", deal: "0:o 1:orpgbn 2:b discard:o", bad: "1=announce", code: CodeNotYourTurn},
		{name: "automatic at this table", deal: "0:orpgbn 1:- 2:b discard:o auto", bad: "announce", code: CodeAutoAnnounce,
			want: "ann:0", legal: "draw"},
		{name: "automatic when completed", deal: "0:orpgb 1:- 2:b discard:on auto", moves: "take", want: "ann:0 turn:1"},
	})
}

// The Addition wins for an announced complete menu; otherwise it goes
// straight to the discard pile and the turn ends.
func TestAddition(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "drawn with an announced menu wins", deal: "0:orpgbn 1:- 2:b announced:0 discard:o pile:A", moves: "draw",
			want: "winners:0 0:orpgbnA step:over"},
		{name: "drawn too early is discarded", deal: "0:orp 1:- 2:b discard:o pile:A", moves: "draw",
			want: "0:orp top:A turn:1 step:turn"},
		{name: "drawn by a complete menu not announced is discarded", deal: "0:orpgbn 1:- 2:b discard:o pile:A",
			moves: "draw", want: "0:orpgbn top:A turn:1"},
		{name: "drawn at an automatic table wins", deal: "0:orpgbn 1:- 2:b discard:o pile:A auto", moves: "draw",
			want: "winners:0"},
		{name: "a menu with an action card cannot win", deal: "0:orpgbnE 1:- 2:b discard:o pile:A", moves: "draw",
			want: "top:A turn:1"},
	})
}

// A Chef drawn onto a complete menu may be discarded for another draw.
func TestRedraw(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "redraw and win", deal: "0:orpgbn 1:- 2:b announced:0 discard:o pile:CA", moves: "draw",
			legal: "end redraw discard:o discard:r discard:p discard:g discard:b discard:n"},
		{name: "the redraw wins", deal: "0:orpgbn 1:- 2:b announced:0 discard:o pile:CA", moves: "draw redraw",
			want: "winners:0 top:C"},
		{name: "unannounced: the Addition is discarded", deal: "0:orpgbn 1:- 2:b discard:o pile:CA", moves: "draw redraw",
			want: "0:orpgbn top:A turn:1"},
		{name: "a new card, as a fresh draw", deal: "0:orpgbn 1:- 2:b announced:0 discard:o pile:Cr", moves: "draw redraw",
			want: "0:orrpgbn step:drawn drawn:r top:C ann:0"},
		{name: "another Chef may be redrawn", deal: "0:orpgbn 1:- 2:b announced:0 discard:o pile:CCA", moves: "draw redraw redraw",
			want: "winners:0"},
		{name: "not with an incomplete menu", deal: "0:orpgb 1:- 2:b discard:o pile:C", moves: "draw", bad: "redraw",
			code: CodeNotComplete},
		{name: "not after a dish", deal: "0:orpgbn 1:- 2:b discard:o pile:r", moves: "draw", bad: "redraw",
			code: CodeCannotRedraw},
		{name: "a kept Chef is an ordinary card", deal: "0:orpgbn 1:- 2:b announced:0 discard:o pile:C", moves: "draw end",
			want: "0:orpgbnC ann:- turn:1"},
		{name: "no redraw once the pile is out for good", deal: "0:orpgbn 1:- 2:b announced:0 discard:o pile:C rest:discard rebuilds:2",
			moves: "draw", bad: "redraw", code: CodeCannotRedraw},
	})
}

// An announcement lapses at the end of a turn after which the menu is not
// complete. [ruling]
func TestLapse(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "a penalty breaks it", deal: "0:D 1:orpgbn 2:b announced:1 discard:g", moves: "play:D:o",
			want: "ann:- 1:rpgbn turn:2"},
		{name: "a Chef breaks it", deal: "0:C 1:orpgbn 2:b announced:1 discard:g", moves: "play:C:o",
			want: "ann:- 0:o turn:1"},
		{name: "a kept card breaks it", deal: "0:orpgbn 1:- 2:b announced:0 discard:g pile:o", moves: "draw end",
			want: "ann:- 0:oorpgbn"},
		{name: "a drawn duplicate discarded keeps it", deal: "0:orpgbn 1:- 2:b announced:0 discard:g pile:o",
			moves: "draw discard:o", want: "ann:0 0:orpgbn turn:1"},
		{name: "it stands while drawing", deal: "0:orpgbn 1:- 2:b announced:0 discard:g pile:o", moves: "draw",
			want: "ann:0 step:drawn"},
		{name: "announce again once complete", deal: "0:orpgbn 1:- 2:b announced:0 discard:g pile:oppppp",
			moves: "draw end draw end draw end discard:o draw end draw end", want: "ann:- turn:0", legal: "draw announce"},
		{name: "automatic tables announce again", deal: "0:oorpgbn 1:- 2:b discard:g auto", moves: "discard:o",
			want: "ann:0"},
	})
}

// A skipped seat is passed over at once and shown as skipped until its
// next turn begins.
func TestSkipShownUntilNextTurn(t *testing.T) {
	st := deal(t, "0:E 1:- 2:- discard:g pile:oooo")
	apply(t, st, "play:E")
	expectSummary(t, st, "skip:1 turn:2")
	apply(t, st, "draw end")
	expectSummary(t, st, "skip:1 turn:0")
	apply(t, st, "draw end")
	expectSummary(t, st, "skip:- turn:1")
}

// Rebuilding the pile keeps the discard top; at closing time the game ends
// on points. [ruling]
func TestPileExhausted(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "rebuild keeping the top", deal: "0:r 1:- 2:b discard:g pile:o rest:discard", moves: "draw end",
			want: "rebuilds:1 top:g disc:1 pile:96 turn:1 0:or"},
		{name: "rebuild after the last card is discarded", deal: "0:r 1:- 2:b discard:g pile:o rest:discard", moves: "draw discard:r",
			want: "rebuilds:1 top:r disc:1 pile:97"},
		{name: "closing: most colours win", deal: "0:r 1:orp 2:orpE discard:g pile:o rest:discard rebuilds:2",
			moves: "draw end", want: "winners:1 closed step:over pile:0"},
		{name: "closing: then fewest surplus cards", deal: "0:r 1:orpp 2:orpEE discard:g pile:o rest:discard rebuilds:2",
			moves: "draw end", want: "winners:1 closed"},
		{name: "closing: a tie is shared", deal: "0:r 1:orp 2:gbn discard:g pile:o rest:discard rebuilds:2",
			moves: "draw end", want: "winners:1,2 closed"},
		{name: "closing after a discarded Addition", deal: "0:r 1:orp 2:gb discard:g pile:A rest:discard rebuilds:2",
			moves: "draw", want: "winners:1 closed top:A"},
	})
}

func TestResultScores(t *testing.T) {
	st := deal(t, "0:orpgbn 1:orr 2:E announced:0 discard:o pile:A")
	if r := st.Result(); r.Scores != nil || r.Winners != nil {
		t.Fatalf("result before the end: %+v", r)
	}
	apply(t, st, "draw")
	r := st.Result()
	if !slices.Equal(r.Scores, []int{7, 2, 0}) || !slices.Equal(r.Winners, []game.Seat{0}) {
		t.Fatalf("result %+v", r)
	}
	expectErr(t, st, 1, DrawAction(), CodeGameOver)
	if len(st.Legal(0)) != 0 || len(st.ToAct()) != 0 {
		t.Fatal("moves after the end")
	}
	p := st.PublicView()
	if p.Turn != -1 || p.Next != -1 || !slices.Equal(p.Winners, []game.Seat{0}) || p.Closed {
		t.Fatalf("view %+v", p)
	}
	st = deal(t, "0:r 1:orp 2:gbn discard:g pile:o rest:discard rebuilds:2")
	apply(t, st, "draw end")
	if r := st.Result(); !slices.Equal(r.Scores, []int{2, 3, 3}) || !slices.Equal(r.Winners, []game.Seat{1, 2}) {
		t.Fatalf("closing result %+v", r)
	}
}

func TestGenericErrors(t *testing.T) {
	st := deal(t, "0:oo 1:- 2:b discard:g")
	expectErr(t, st, 1, DrawAction(), CodeNotYourTurn)
	expectErr(t, st, 3, DrawAction(), CodeBadSeat)
	expectErr(t, st, -1, DrawAction(), CodeBadSeat)
	expectErr(t, st, 0, MaxAction+1, CodeUnknownAction)
	expectErr(t, st, 0, -1, CodeUnknownAction)
	if len(st.Legal(1)) != 0 || len(st.Legal(-1)) != 0 {
		t.Fatal("legal actions off turn")
	}
}

// The Legal list agrees with Apply for every action value, in many
// positions (see also the playouts).
func TestLegalMatchesApply(t *testing.T) {
	for _, d := range []string{
		"0:ooHDEMC 1:orpgbnn 2:b discard:g pile:H",
		"0:orpgbn 1:oo 2:b discard:gA",
		"0:H 1:oo discard:g pile:C",
		"0:orpgbn 1:o 2:- announced:0 discard:g pile:CC",
	} {
		st := deal(t, d)
		for k := 0; k < 3 && !st.Over(); k++ {
			checkLegal(t, st)
			apply(t, st, mustDecode(st.Legal(game.Seat(st.turn))[0]).String())
		}
	}
}

// checkLegal verifies that exactly the actions in Legal are accepted, for
// every seat and action value.
func checkLegal(t testing.TB, st *State) {
	t.Helper()
	for s := game.Seat(-1); s <= game.Seat(st.players); s++ {
		l := st.Legal(s)
		for a := game.Action(-2); a <= MaxAction+2; a++ {
			_, err := st.check(s, a)
			if (err == nil) != slices.Contains(l, a) {
				t.Fatalf("seat %d action %d: check %v, legal %v", s, a, err, moves(l))
			}
		}
	}
}
