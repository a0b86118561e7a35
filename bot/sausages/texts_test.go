package sausages_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/sausages"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// TestAttemptTextsMatchState plays random games and checks the texts of
// an attempt against what the moves do. A reveal button, asked «whose top
// card», turns exactly one card: the top unrevealed one of that seat's
// stack. After a failure on another's boot, the group is told that the
// challenger loses a card which the boot's owner picks blind, and the pick
// takes the card out of the game: the challenger has one card fewer and
// the picker gains none.
func TestAttemptTextsMatchState(t *testing.T) {
	g, l := sausages.Game(), ru(t)
	var reveals, picks int
	for seed := uint64(1); seed <= 12; seed++ {
		n := 3 + int(seed%4)
		tab, st := golden.Table(t, g, n, 0, "", seed, nil)
		r := rand.New(rand.NewPCG(seed, 11))
		for !st.Over() {
			v := st.(*ss.State).PublicView()
			act := st.ToAct()
			seat := act[r.IntN(len(act))]
			view := adapter.View(tab)
			switch v.Phase {
			case ss.PhaseAttempt:
				hand := g.RenderSeat(l, view, st, int(seat)).Text
				if want := l.T("sausages.hand_attempt", "Target", v.Target, "Done", len(v.Revealed)); !strings.Contains(hand, want) {
					t.Fatalf("seed %d: the challenger's hand lacks %q:\n%s", seed, want, hand)
				}
				// Until the attempt is decided the seat's revealed count
				// grows by one too.
				for _, a := range st.Legal(seat) {
					m, _ := ss.Decode(a)
					if m.Kind != ss.KindReveal {
						continue
					}
					next := clone(t, st)
					if err := next.Apply(seat, a); err != nil {
						t.Fatal(err)
					}
					w := next.(*ss.State).PublicView()
					turned := w.Revealed
					if w.Phase != ss.PhaseAttempt {
						turned = w.LastRound.Revealed // decided: the round's record keeps them
					}
					if len(turned) != len(v.Revealed)+1 || turned[len(v.Revealed)].Seat != m.Seat ||
						w.Phase == ss.PhaseAttempt && w.Seats[m.Seat].Revealed != v.Seats[m.Seat].Revealed+1 {
						t.Fatalf("seed %d: revealing seat %d's top card turned %v (was %v)", seed, m.Seat, turned, v.Revealed)
					}
					reveals++
				}
			case ss.PhasePick:
				o := v.LastRound
				if o == nil || o.OwnBoot || o.Challenger != v.Challenger || seat != o.BootOwner || seat == v.Challenger {
					t.Fatalf("seed %d: seat %d picks blind after %+v", seed, seat, o)
				}
				table := g.RenderTable(l, view, st).Text
				if want := l.T("sausages.turn_pick", "Name", adapter.Mention(view, seat), "Challenger", adapter.SeatName(view, v.Challenger)); !strings.Contains(table, want) {
					t.Fatalf("seed %d: the table lacks %q:\n%s", seed, want, table)
				}
				hand := g.RenderSeat(l, view, st, int(seat)).Text
				if want := l.T("sausages.hand_pick", "Name", adapter.SeatName(view, v.Challenger)); !strings.Contains(hand, want) {
					t.Fatalf("seed %d: the picker's hand lacks %q:\n%s", seed, want, hand)
				}
			}
			before := clone(t, st)
			legal := st.Legal(seat)
			if err := st.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
			tab.Seats[seat].Nonce++
			golden.Sync(t, tab, st)
			w := st.(*ss.State).PublicView()
			if v.Phase == ss.PhasePick {
				picks++
				if w.Seats[v.Challenger].Owned != v.Seats[v.Challenger].Owned-1 || w.Seats[seat].Owned != v.Seats[seat].Owned {
					t.Fatalf("seed %d: the blind pick left the challenger %d → %d cards, the picker %d → %d",
						seed, v.Seats[v.Challenger].Owned, w.Seats[v.Challenger].Owned, v.Seats[seat].Owned, w.Seats[seat].Owned)
				}
			}
			if w.Phase == ss.PhasePick && v.Phase != ss.PhasePick {
				o := w.LastRound
				want := l.T("sausages.fail", "Name", adapter.SeatName(adapter.View(tab), o.Challenger), "Owner", adapter.SeatName(adapter.View(tab), o.BootOwner))
				msgs := g.Announce(l, adapter.View(tab), before, st)
				if !slices.ContainsFunc(msgs, func(m adapter.Message) bool { return m.Text == want }) {
					t.Fatalf("seed %d: the failure on %s's boot is announced as %+v, want %q", seed, adapter.SeatName(adapter.View(tab), o.BootOwner), msgs, want)
				}
			}
		}
	}
	if reveals == 0 || picks == 0 {
		t.Fatalf("met %d reveals and %d blind picks; want some of each", reveals, picks)
	}
}
