package sausages

import (
	"strconv"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// Judge is the review's verdict on a move (ss.Weigh: every legal move
// played out to the end of the game, the seat playing on as «Любитель»,
// the others as a random player or «Новичок», on deals of the hidden
// cards its belief weighs, seeded by d; d.Playouts is their number). The loss is the
// chance to win the move gives up against «Профи»'s own mix of moves
// there.
func (sausagesGame) Judge(st game.State, seat game.Seat, a game.Action, d adapter.Decision) adapter.Judgement {
	v := st.(*ss.State).SeatView(seat)
	wg := ss.Weigh(v, d.Seed, d.Playouts)
	vd := wg.Verdict(a)
	random := wg.Random()
	return adapter.Judgement{Action: a, Best: vd.Best, Loss: vd.Loss(), Random: random, Moot: random <= 0, Detail: vd}
}

// Describe tells the moment (the round and the phase: the boards, the
// bidding, the attempt; the seat's hand and stack), the move, «Профи»'s
// move and its reason, and the chance to win after each.
func (k sausagesGame) Describe(l adapter.Loc, t adapter.TableView, st game.State, seat game.Seat, j adapter.Judgement) adapter.Judged {
	v := st.(*ss.State).SeatView(seat)
	vd, _ := j.Detail.(ss.Verdict)
	var out adapter.Judged
	switch v.Phase {
	case ss.PhaseSetup:
		out.Moment = l.T("sausages.review.moment_setup", "Round", v.Round)
	case ss.PhaseAdd:
		out.Moment = l.T("sausages.review.moment_add", "Round", v.Round, "Count", v.Total)
	case ss.PhaseBid:
		out.Moment = l.T("sausages.review.moment_bid", "Round", v.Round, "Count", v.Total, "Bid", v.Bid, "Bidder", adapter.SeatName(t, v.Bidder))
	case ss.PhaseAttempt:
		out.Moment = l.T("sausages.review.moment_attempt", "Round", v.Round, "Target", v.Target, "Done", len(v.Revealed))
	case ss.PhasePick:
		out.Moment = l.T("sausages.review.moment_pick", "Round", v.Round, "Name", adapter.SeatName(t, v.Challenger))
	case ss.PhaseLose:
		out.Moment = l.T("sausages.review.moment_lose", "Round", v.Round)
	case ss.PhaseName:
		out.Moment = l.T("sausages.review.moment_name", "Round", v.Round)
	}
	out.Moment += "\n" + l.T("sausages.review.mine", "Hand", handText(l, v.Hand), "Stack", stackText(l, v.Stack))
	out.Played = l.T("sausages.review.played", "Move", k.reviewMove(l, t, j.Action))
	ad := vd.Why
	reason := string(ad.Reason)
	if m, _ := ss.Decode(j.Best); ad.Reason == ss.ReasonSetup && m.Card == ss.Boot {
		reason = "setup_boot"
	}
	pro := l.T("sausages.level.sharp")
	if why, ok := whyBetter(v, j.Action, j.Best); ok {
		key := "sausages.review.best_why"
		if m, _ := ss.Decode(j.Best); m.Kind == ss.KindBid {
			key += "_bid"
		}
		out.Best = l.T(key, "Pro", pro, "Move", k.reviewMove(l, t, j.Best), "Why", why.text(l, t))
	} else {
		out.Best = l.T("sausages.review.best_"+reason, "Pro", pro, "Move", k.reviewMove(l, t, j.Best), "Share", adapter.Percent(ad.Chance))
	}
	switch {
	case vd.Deals == 0:
		out.Cost = l.T("sausages.review.cost_unknown")
	case j.Loss == 0:
		out.Cost = l.T("sausages.review.cost_none")
	case adapter.Percent(vd.BestWin)-adapter.Percent(vd.Win) < 1:
		out.Cost = l.T("sausages.review.cost_small", "Win", adapter.Percent(vd.Win))
	default:
		out.Cost = l.T("sausages.review.cost", "Lost", adapter.Percent(vd.BestWin)-adapter.Percent(vd.Win),
			"Win", adapter.Percent(vd.Win), "BestWin", adapter.Percent(vd.BestWin))
	}
	return out
}

// reviewMove names a move in a review's sentence (HTML): the button's
// words, a bid as «ставка 3», a card turned as «верхняя карта (Катя)».
func (k sausagesGame) reviewMove(l adapter.Loc, t adapter.TableView, a game.Action) string {
	m, ok := ss.Decode(a)
	if !ok {
		return ""
	}
	switch m.Kind {
	case ss.KindBid:
		return l.T("sausages.review.bid", "N", strconv.Itoa(m.N))
	case ss.KindReveal:
		return l.T("sausages.move.reveal", "Name", adapter.SeatName(t, m.Seat))
	case ss.KindName:
		return l.T("sausages.move.name", "Name", adapter.SeatName(t, m.Seat))
	}
	return adapter.Esc(k.MoveName(l, t, nil, 0, a))
}
