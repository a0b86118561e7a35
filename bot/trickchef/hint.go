package trickchef

import (
	"fmt"
	"math"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// Hint is «Профи»'s move for the seat (tc.Advise: the very search its
// robot runs, with the same seed, memory and budget) and what the search
// found: how often the card takes the trick or brings a chef, and how often
// the seat leads after the round.
func (g trickchefGame) Hint(l adapter.Loc, t adapter.TableView, st game.State, seat int, d adapter.Decision) adapter.Hint {
	v := st.(*tc.State).SeatView(game.Seat(seat))
	ad := tc.Advise(v, history(d.Memory), d.Seed, tc.Budget{Wall: d.Budget, Clock: time.Now})
	h := adapter.Hint{Action: ad.Action}
	m, ok := tc.Decode(ad.Action)
	if !ok {
		return h
	}
	pro := l.T("trickchef.level.shef")
	move := "👨‍🍳 " + suitEmoji(m.Suit)
	if m.Kind == tc.KindPlay {
		move = cardText(m.Card)
		if m.Coins != 0 {
			move = l.T("trickchef.hint.coins", "Card", move, "Delta", fmt.Sprintf("%+d", 2*m.Coins), "Coins", l.T("count.coins", "Count", abs(m.Coins)))
		}
	}
	switch {
	case ad.Deals == 0:
		h.Why = l.T("trickchef.hint.only", "Pro", pro, "Move", move)
	case m.Kind == tc.KindChef:
		h.Why = l.T("trickchef.hint.chef", "Pro", pro, "Move", move, "Ahead", percent(ad.Ahead))
	case ad.Took >= 0.5:
		h.Why = l.T("trickchef.hint.takes", "Pro", pro, "Move", move, "Share", percent(ad.Took), "Ahead", percent(ad.Ahead))
	case ad.Chef >= 0.5:
		h.Why = l.T("trickchef.hint.lowest", "Pro", pro, "Move", move, "Share", percent(ad.Chef), "Ahead", percent(ad.Ahead))
	default:
		h.Why = l.T("trickchef.hint.gives", "Pro", pro, "Move", move, "Share", percent(1-ad.Took), "Ahead", percent(ad.Ahead))
	}
	return h
}

// percent is a share as a whole percentage.
func percent(x float64) int { return int(math.Round(100 * x)) }
