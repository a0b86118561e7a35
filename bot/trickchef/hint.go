package trickchef

import (
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
	pro, move := l.T("trickchef.level.shef"), moveText(l, m)
	// The share of deals the seat leads after the round is said when it is
	// at least half: a lower one, though no move does better, reads as
	// advice to lose.
	ahead := ""
	if ad.Ahead >= 0.5 {
		ahead = "_ahead"
	}
	switch {
	case ad.Deals == 0:
		h.Why = l.T("trickchef.hint.only", "Pro", pro, "Move", move)
	case m.Kind == tc.KindChef && ahead != "":
		h.Why = l.T("trickchef.hint.chef", "Pro", pro, "Move", move, "Ahead", adapter.Percent(ad.Ahead))
	case m.Kind == tc.KindChef:
		h.Why = l.T("trickchef.hint.chef_best", "Pro", pro, "Move", move)
	case ad.Took >= 0.5:
		h.Why = l.T(chanceKey("trickchef.hint.takes", ahead, ad.Took), "Pro", pro, "Move", move, "Share", adapter.Percent(ad.Took), "Ahead", adapter.Percent(ad.Ahead))
	case ad.Chef >= 0.5:
		h.Why = l.T(chanceKey("trickchef.hint.lowest", ahead, ad.Chef), "Pro", pro, "Move", move, "Share", adapter.Percent(ad.Chef), "Ahead", adapter.Percent(ad.Ahead))
	default:
		h.Why = l.T(chanceKey("trickchef.hint.gives", ahead, 1-ad.Took), "Pro", pro, "Move", move, "Share", adapter.Percent(1-ad.Took), "Ahead", adapter.Percent(ad.Ahead))
	}
	return h
}

// chanceKey is the key of a hint's or a review's chance: base with the
// _ahead form when the round's outlook is said, and _sure when the
// search found the chance whole («наверняка», never «с вероятностью
// 100%»).
func chanceKey(base, ahead string, share float64) string {
	if adapter.Percent(share) == 100 {
		return base + ahead + "_sure"
	}
	return base + ahead
}
