package trickchef

import (
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// Deal tells a round's deal: every seat's ten cards. Each round is shuffled
// from the generator the seed starts and nothing else draws from it, so
// all three deals follow from the reveal alone, whatever was played.
func (trickchefGame) Deal(l adapter.Loc, t adapter.TableView, st game.State) string {
	s := st.(*tc.State)
	lines := []string{l.T("trickchef.deal.round", "Round", s.PublicView().Round)}
	for i := range s.Seats() {
		lines = append(lines, l.T("trickchef.deal.hand", "Name", adapter.SeatPlainName(t, game.Seat(i)), "Cards", cardsText(s.SeatView(game.Seat(i)).Hand)))
	}
	return strings.Join(lines, "\n")
}

// Shuffled: a new round was dealt.
func (trickchefGame) Shuffled(before, after game.State) bool {
	b, a := before.(*tc.State).PublicView(), after.(*tc.State).PublicView()
	return a.Phase != tc.PhaseOver && a.Round != b.Round
}
