package trickchef

import (
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// Judge is the review's verdict on a move (tc.Weigh: every legal move
// played out the way «Профи»'s search plays its candidates, on the same
// deals, with the seed, memory and playouts of d). The loss is in points
// of margin over the rivals at the end of the round, over tc.LossScale.
func (trickchefGame) Judge(st game.State, seat game.Seat, a game.Action, d adapter.Decision) adapter.Judgement {
	v := st.(*tc.State).SeatView(seat)
	wg := tc.Weigh(v, history(d.Memory), d.Seed, d.Playouts)
	vd := wg.Verdict(a)
	random := wg.Random()
	return adapter.Judgement{Action: a, Best: vd.Best, Loss: vd.Loss(), Random: random, Moot: random <= 0, Detail: vd}
}

// Describe tells the moment (the round and trick, the trick on the table,
// the hand and coins), the move, «Профи»'s move with what its search found,
// and the cost in points and in the chance to lead after the round.
func (k trickchefGame) Describe(l adapter.Loc, t adapter.TableView, st game.State, seat game.Seat, j adapter.Judgement) adapter.Judged {
	s := st.(*tc.State)
	v := s.SeatView(seat)
	vd, _ := j.Detail.(tc.Verdict)
	var out adapter.Judged
	hand := l.T("trickchef.review.hand", "Cards", cardsText(v.Hand), "Coins", l.T("count.coins", "Count", v.Seats[seat].Coins))
	switch {
	case v.Phase == tc.PhasePick:
		out.Moment = l.T("trickchef.review.moment_pick", "Round", v.Round, "Chefs", chefCounts(v.SetAside))
	case v.Phase == tc.PhaseAward:
		out.Moment = l.T("trickchef.review.moment_award", "Round", v.Round, "Trick", v.Trick, "Chefs", chefCounts(v.Pool))
	case len(v.CurrentTrick) == 0:
		out.Moment = l.T("trickchef.review.moment_lead", "Round", v.Round, "Trick", v.Trick, "Trumps", trumpsText(l, v.Public))
	default:
		out.Moment = l.T("trickchef.review.moment_play", "Round", v.Round, "Trick", v.Trick, "Trumps", trumpsText(l, v.Public), "Table", trickText(t, v.CurrentTrick))
	}
	out.Moment += "\n" + hand
	out.Played = l.T("trickchef.review.played", "Move", adapter.Esc(k.MoveName(l, t, st, seat, j.Action)))
	pro, best := l.T("trickchef.level.shef"), adapter.Esc(k.MoveName(l, t, st, seat, j.Best))
	ev := vd.Why
	m, _ := tc.Decode(j.Best)
	// The share of deals the seat leads after the round is said only when
	// it is at least half, as in the hints: a lower one, though the best
	// there is, reads as a loss.
	ahead := ""
	if ev.Ahead >= 0.5 {
		ahead = "_ahead"
	}
	why, known := whyBetter(v, j.Action, j.Best, vd)
	switch {
	case known:
		out.Best = l.T("trickchef.review.best_why", "Pro", pro, "Move", best, "Why", why.text(l))
	case ev.Deals == 0:
		out.Best = l.T("trickchef.review.best_only", "Pro", pro, "Move", best)
	case m.Kind == tc.KindChef && ev.Ahead >= 0.5:
		out.Best = l.T("trickchef.review.best_chef", "Pro", pro, "Move", best, "Ahead", adapter.Percent(ev.Ahead))
	case m.Kind == tc.KindChef:
		out.Best = l.T("trickchef.review.best_chef_best", "Pro", pro, "Move", best)
	case ev.Took >= 0.5:
		out.Best = l.T(chanceKey("trickchef.review.best_takes", ahead, ev.Took), "Pro", pro, "Move", best, "Share", adapter.Percent(ev.Took), "Ahead", adapter.Percent(ev.Ahead))
	case ev.Chef >= 0.5:
		out.Best = l.T(chanceKey("trickchef.review.best_lowest", ahead, ev.Chef), "Pro", pro, "Move", best, "Share", adapter.Percent(ev.Chef), "Ahead", adapter.Percent(ev.Ahead))
	default:
		out.Best = l.T(chanceKey("trickchef.review.best_gives", ahead, 1-ev.Took), "Pro", pro, "Move", best, "Share", adapter.Percent(1-ev.Took), "Ahead", adapter.Percent(ev.Ahead))
	}
	switch {
	case vd.Deals == 0:
		out.Cost = l.T("trickchef.review.cost_unknown")
	case j.Loss == 0:
		out.Cost = l.T("trickchef.review.cost_none")
	case adapter.Percent(vd.Ahead) == adapter.Percent(vd.BestAhead):
		out.Cost = l.T("trickchef.review.cost_points", "Points", decimal(l, vd.BestMargin-vd.Margin))
	default:
		out.Cost = l.T("trickchef.review.cost", "Points", decimal(l, vd.BestMargin-vd.Margin),
			"Ahead", adapter.Percent(vd.Ahead), "BestAhead", adapter.Percent(vd.BestAhead))
	}
	return out
}

// chefCounts lists chefs per suit for a review's moment, a count apart
// from the suit so it never reads as a card: «🟨×4, 🟦×1».
func chefCounts(chefs [tc.NumSuits]int) string {
	var parts []string
	for s := tc.Suit(0); s < tc.NumSuits; s++ {
		if chefs[s] > 0 {
			parts = append(parts, chefCount(s, chefs[s]))
		}
	}
	return strings.Join(parts, ", ")
}

// trumpsText names the trumps for a review's moment: «козырь 🟥», «козырей
// нет».
func trumpsText(l adapter.Loc, v tc.Public) string {
	switch {
	case len(v.Trumps) == 0:
		return l.T("trickchef.review.trumps_none")
	case len(v.Trumps) == len(v.Suits):
		return l.T("trickchef.review.trumps_all")
	case len(v.Trumps) == 1:
		return l.T("trickchef.review.trumps_one", "Suits", suitsText(v.Trumps))
	}
	return l.T("trickchef.review.trumps", "Suits", suitsText(v.Trumps))
}

// decimal writes x ≥ 0 with one decimal in the language's way: «1,5» in
// Russian, «1.5» in English.
func decimal(l adapter.Loc, x float64) string {
	s := strconv.FormatFloat(max(x, 0), 'f', 1, 64)
	if l.Lang() == "ru" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}
