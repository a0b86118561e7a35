package sausages

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// Hint is «Профи»'s move for the seat (ss.AdviseSharp: its robot's very
// choice for the same seed) with the reason its belief gives: the chance
// of making the bid, of the next card being a sausage.
func (sausagesGame) Hint(l adapter.Loc, t adapter.TableView, st game.State, seat int, d adapter.Decision) adapter.Hint {
	v := st.(*ss.State).SeatView(game.Seat(seat))
	ad := ss.AdviseSharp(v, d.Seed)
	h := adapter.Hint{Action: ad.Action}
	m, ok := ss.Decode(ad.Action)
	if !ok {
		return h
	}
	move := moveText(l, m, adapter.HTMLNamer(t))
	key := string(ad.Reason)
	switch {
	case ad.Reason == ss.ReasonSetup && m.Card == ss.Boot:
		key = "setup_boot"
	case ad.Reason == ss.ReasonSettle:
		key = "settle_" + m.Kind.String()
	}
	h.Why = l.T("sausages.hint."+key, "Pro", l.T("sausages.level.sharp"), "Move", move, "Share", adapter.Percent(ad.Chance))
	return h
}
