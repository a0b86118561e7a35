package chef

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// Judge is the review's verdict on a move (ce.Weigh: every legal move
// played out the way «Профи»'s search plays its candidates, in the same
// sampled worlds, with the seed and playouts of d). The loss is the chance
// to win the game it gave up.
func (chefGame) Judge(st game.State, seat game.Seat, a game.Action, d adapter.Decision) adapter.Judgement {
	v := st.(*ce.State).SeatView(seat)
	wg := ce.Weigh(v, d.Seed, d.Playouts)
	vd := wg.Verdict(a)
	random := wg.Random()
	return adapter.Judgement{Action: a, Best: vd.Best, Loss: vd.Loss(), Random: random, Moot: random <= 0, Detail: vd}
}

// Describe tells the moment (the turn, the seat's menu and its neighbour's,
// the discard pile's top, a card just drawn), the move as its button reads,
// «Профи»'s move and the chance to win after each.
func (k chefGame) Describe(l adapter.Loc, t adapter.TableView, st game.State, seat game.Seat, j adapter.Judgement) adapter.Judged {
	v := st.(*ce.State).SeatView(seat)
	vd, _ := j.Detail.(ce.Verdict)
	var out adapter.Judged
	if v.DiscardTop == ce.NoCard {
		out.Moment = l.T("chef.review.moment_empty", "Turn", v.TurnNumber, "Menu", chefFront(v.Seats[seat].Cards))
	} else {
		out.Moment = l.T("chef.review.moment", "Turn", v.TurnNumber, "Menu", chefFront(v.Seats[seat].Cards), "Top", chefCardText(l, v.DiscardTop))
	}
	if v.Next != v.Seat {
		nx := v.Seats[v.Next]
		out.Moment += "\n" + l.T("chef.review.next", "Name", adapter.SeatName(t, v.Next), "Menu", chefFront(nx.Cards),
			"Colours", l.T("chef.colours", "Count", nx.Colours))
	}
	if v.Step == ce.StepDrawn && v.Drawn != ce.NoCard {
		out.Moment += "\n" + l.T("chef.review.drawn", "Card", chefCardText(l, v.Drawn))
	}
	out.Played = l.T("chef.review.played", "Move", adapter.Esc(k.MoveName(l, t, st, seat, j.Action)))
	pro, best := l.T("chef.level.shef"), adapter.Esc(k.MoveName(l, t, st, seat, j.Best))
	if why, ok := whyBetter(v, j.Action, j.Best); ok {
		out.Best = l.T("chef.review.best_why", "Pro", pro, "Move", best, "Why", why.text(l, t))
	} else if vd.Why.Playouts == 0 {
		out.Best = l.T("chef.review.best_sure", "Pro", pro, "Move", best)
	} else {
		out.Best = l.T("chef.review.best", "Pro", pro, "Move", best, "Share", adapter.Percent(vd.Why.Win))
	}
	switch {
	case vd.Playouts == 0:
		out.Cost = l.T("chef.review.cost_unknown")
	case j.Loss == 0:
		out.Cost = l.T("chef.review.cost_none")
	case adapter.Percent(vd.BestWin)-adapter.Percent(vd.Win) < 1:
		out.Cost = l.T("chef.review.cost_small", "Win", adapter.Percent(vd.Win))
	default:
		out.Cost = l.T("chef.review.cost", "Lost", adapter.Percent(vd.BestWin)-adapter.Percent(vd.Win), "Win", adapter.Percent(vd.Win), "BestWin", adapter.Percent(vd.BestWin))
	}
	return out
}
