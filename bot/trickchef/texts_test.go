package trickchef_test

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// TestCoinPressAgainClears presses coin buttons through the platform's
// draft handler: pressing the chosen coins again clears the choice, as
// does the clear button, which is offered only while coins are chosen.
func TestCoinPressAgainClears(t *testing.T) {
	g := trickchef.Game()
	b := bottest.Offline(t, g)
	l := ru(t)
	tab, st := golden.Table(t, g, 4, 0, "", 21, nil)
	golden.PlayWhile(t, g, tab, st, rand.New(rand.NewPCG(21, 1)), func(_ int, s game.State) bool {
		v := s.(*tc.State).PublicView()
		return !s.Over() && (v.Phase != tc.PhasePlay || v.Seats[v.ToAct].Coins == 0)
	})
	if st.Over() {
		t.Fatal("no seat played a card holding coins")
	}
	seat := int(st.(*tc.State).PublicView().ToAct)
	clear := adapter.DraftButton(adapter.View(tab), seat, "", 0).Data
	offersClear := func() bool {
		for _, row := range g.RenderSeat(l, adapter.View(tab), st, seat).Keyboard {
			for _, btn := range row {
				if btn.Data == clear {
					return true
				}
			}
		}
		return false
	}
	for i, step := range []struct {
		press int
		want  []int
	}{
		{1, []int{1}},
		{1, nil}, // the same coins again: cleared
		{-1, []int{-1}},
		{1, []int{1}}, // another choice replaces it
		{0, nil},      // the clear button
	} {
		data := adapter.DraftButton(adapter.View(tab), seat, "", step.press).Data
		if err := b.Tables.PressDraft(tab, data, tab.Seats[seat].UserID); err != nil {
			t.Fatalf("press %d (%+d coins): %v", i+1, step.press, err)
		}
		got := tab.Seats[seat].Draft
		if len(got) != len(step.want) || (len(got) == 1 && got[0] != step.want[0]) {
			t.Errorf("press %d (%+d coins): draft %v, want %v", i+1, step.press, got, step.want)
		}
		if offersClear() != (len(got) > 0) {
			t.Errorf("press %d: clear button offered %v with draft %v", i+1, offersClear(), got)
		}
	}
}

// hyphenMinus is a hyphen used as a minus sign: every negative value a
// player reads is printed with the real minus sign.
var hyphenMinus = regexp.MustCompile(`-\d`)

var suitEmoji = map[tc.Suit]string{tc.Red: "🟥", tc.Yellow: "🟨", tc.Blue: "🟦", tc.Green: "🟩"}

// playedWant is a played card as the state says it: the card, and with
// coins their sum and the value they make, minus signs real.
func playedWant(p tc.Played) string {
	s := suitEmoji[p.Card.Suit] + strconv.Itoa(p.Card.Value)
	if p.Coins != 0 {
		s += " " + strings.Replace(strconv.Itoa(2*p.Coins), "-", "−", 1)
		if p.Coins > 0 {
			s = strings.Replace(s, " ", " +", 1)
		}
		s += " → " + strings.Replace(strconv.Itoa(p.Effective), "-", "−", 1)
	}
	return s
}

// TestTextsMatchState plays whole games and checks, at every position,
// that what the chat says agrees with the state: the «my tricks» button
// counts the seat's tricks (not its won cards), several trump suits are
// named with the plural key, the last trick names its taker and, card by
// card, the seat that played it, and no number carries a hyphen for minus.
func TestTextsMatchState(t *testing.T) {
	g := trickchef.Game()
	l := ru(t)
	var cardsNotTricks, severalTrumps, negative int
	for _, n := range []int{3, 4} {
		for seed := uint64(1); seed <= 3; seed++ {
			tab, st := golden.Table(t, g, n, 0, "", seed, nil)
			check := func(s game.State) {
				golden.Sync(t, tab, s)
				v := s.(*tc.State).PublicView()
				view := adapter.View(tab)
				msgs := []adapter.Message{g.RenderTable(l, view, s)}
				for seat := range n {
					m := g.RenderSeat(l, view, s, seat)
					msgs = append(msgs, m)
					sv := s.(*tc.State).SeatView(game.Seat(seat))
					if v.Phase == tc.PhaseOver {
						continue
					}
					if len(sv.Won) != v.Seats[seat].TricksWon {
						cardsNotTricks++
					}
					info := adapter.InfoButton(view, seat, "").Data
					want := l.T("trickchef.won_button", "Count", v.Seats[seat].TricksWon)
					found := false
					for _, row := range m.Keyboard {
						for _, btn := range row {
							if btn.Data == info {
								found = true
								if btn.Text != want {
									t.Fatalf("seat %d with %d tricks (%d cards): button %q, want %q",
										seat, v.Seats[seat].TricksWon, len(sv.Won), btn.Text, want)
								}
							}
						}
					}
					if !found {
						t.Fatalf("seat %d: no «my tricks» button", seat)
					}
				}
				table := msgs[0].Text
				if v.Phase != tc.PhaseOver && len(v.Trumps) > 1 && len(v.Trumps) < len(v.Suits) {
					severalTrumps++
					var suits []string
					for _, su := range v.Trumps {
						suits = append(suits, suitEmoji[su])
					}
					if want := l.T("trickchef.trumps", "Suits", strings.Join(suits, " ")); !strings.Contains(table, want) {
						t.Fatalf("trumps %v: table lacks %q:\n%s", v.Trumps, want, table)
					}
				}
				if lt := v.LastTrick; lt != nil && v.Phase != tc.PhaseOver {
					var cards []string
					for _, p := range lt.Cards {
						cards = append(cards, adapter.SeatName(view, p.Seat)+" "+playedWant(p))
						if p.Coins < 0 {
							negative++
						}
					}
					want := l.T("trickchef.last_trick", "Winner", adapter.SeatName(view, lt.Winner), "Cards", strings.Join(cards, ", "))
					if !strings.Contains(table, want) {
						t.Fatalf("last trick %+v: table lacks %q:\n%s", *lt, want, table)
					}
				}
				for _, m := range msgs {
					texts := []string{m.Text}
					for _, row := range m.Keyboard {
						for _, btn := range row {
							texts = append(texts, btn.Text)
						}
					}
					for _, s := range texts {
						if hyphenMinus.MatchString(s) {
							t.Fatalf("a hyphen for minus in %q", s)
						}
					}
				}
			}
			golden.PlayWhile(t, g, tab, st, rand.New(rand.NewPCG(seed, uint64(n))), func(_ int, s game.State) bool {
				check(s)
				return !s.Over()
			})
			check(st)
		}
	}
	// The checks above must have met what they are about.
	if cardsNotTricks == 0 || severalTrumps == 0 || negative == 0 {
		t.Errorf("positions met: %d with more won cards than tricks, %d with several trumps, %d with minus coins; want some of each",
			cardsNotTricks, severalTrumps, negative)
	}
}
