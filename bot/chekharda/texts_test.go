package chekharda

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// hasSet reports whether seat holds a set of kind k.
func hasSet(v ck.Public, seat game.Seat, k ck.Kind) bool {
	for _, s := range v.Seats[seat].Sets {
		if s.Kind == k {
			return true
		}
	}
	return false
}

// TestStealLineNamesTheSetLost plays random games and checks every steal
// against the state: the group's log line names the set the victim lost
// (the one kind the victim held before and not after), not «without a
// set» while the victim still has others, and the thief holds that set.
func TestStealLineNamesTheSetLost(t *testing.T) {
	g := Game()
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	var steals, othersKept int
	for seed := uint64(1); seed <= 6; seed++ {
		tab, st := golden.Table(t, g, 2+int(seed%5), 0, "", seed, nil)
		r := rand.New(rand.NewPCG(seed, 13))
		for i := 0; i < 20000 && !st.Over(); i++ {
			act := st.ToAct()
			seat := act[r.IntN(len(act))]
			legal := st.Legal(seat)
			a := legal[r.IntN(len(legal))]
			v := st.(*ck.State).PublicView()
			if err := st.Apply(seat, a); err != nil {
				t.Fatal(err)
			}
			if ts := tab.Seat(seat); ts != nil {
				ts.Nonce++
			}
			m, _ := ck.Decode(a)
			if m.Type != ck.MoveSteal {
				continue
			}
			golden.Sync(t, tab, st)
			w := st.(*ck.State).PublicView()
			var lost []ck.Kind
			for _, s := range v.Seats[m.Victim].Sets {
				if !hasSet(w, m.Victim, s.Kind) {
					lost = append(lost, s.Kind)
				}
			}
			if len(lost) != 1 || !hasSet(w, seat, lost[0]) {
				t.Fatalf("seed %d: seat %d stole from seat %d, who lost sets %v", seed, seat, m.Victim, lost)
			}
			steals++
			if len(w.Seats[m.Victim].Sets) > 0 {
				othersKept++
			}
			var e ck.Event // the steal's event; the round's end may follow it
			for i := len(w.Events) - 1; i >= 0 && e.Type != ck.EventSteal; i-- {
				e = w.Events[i]
			}
			line := l.T("chekharda.ev.steal", "Name", adapter.SeatName(adapter.View(tab), seat), "Set", chekhardaSet(lost[0], e.N),
				"Kind", chekhardaKindName(l, lost[0]), "Victim", adapter.SeatName(adapter.View(tab), m.Victim), "Emoji", lost[0].Emoji())
			if got := chekhardaEvent(l, adapter.View(tab), e); got != line {
				t.Fatalf("seed %d: the steal reads %q, want %q", seed, got, line)
			}
			if st.Over() || w.Round != e.Round {
				continue // the group's log shows the current round's moves
			}
			if table := g.RenderTable(l, adapter.View(tab), st).Text; !strings.Contains(table, line) {
				t.Fatalf("seed %d: the table lacks %q:\n%s", seed, line, table)
			}
		}
	}
	if steals == 0 || othersKept == 0 {
		t.Fatalf("met %d steals, %d of them leaving the victim other sets; want some of each", steals, othersKept)
	}
}
