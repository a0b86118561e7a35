package chekharda

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// Hint is the best grab «Профи» sees for the seat now (ck.Advise: its
// robot's own ranking; the move it makes when it acts), with the chance
// that an opponent steals the set back. Real time has no turns: when the
// robot would wait, the hint still names the grab and says why waiting
// is no loss, or says to wait when every grab hands someone the game.
func (g chekhardaGame) Hint(l adapter.Loc, t adapter.TableView, st game.State, seat int, d adapter.Decision) adapter.Hint {
	v := st.(*ck.State).SeatView(game.Seat(seat))
	ad := ck.Advise(v, d.Seed)
	h := adapter.Hint{Action: ad.Action}
	pro := l.T("chekharda.level.shef")
	if ad.Reason == ck.ReasonHold {
		h.Why = l.T("chekharda.hint.hold", "Pro", pro)
		return h
	}
	m, ok := ck.Decode(ad.Action)
	if !ok {
		return h
	}
	move := moveText(l, v, m, adapter.HTMLNamer(t))
	key := string(ad.Reason)
	switch {
	case (ad.Reason == ck.ReasonSteal || ad.Reason == ck.ReasonAdd) && ad.Risk == 0:
		key += "_safe"
	case ad.Reason == ck.ReasonWait && m.Type == ck.MoveAdd:
		key += "_add" // the card waits in the hand: it adds later, or steals the set back
	}
	h.Why = l.T("chekharda.hint."+key, "Pro", pro, "Move", move, "Risk", adapter.Percent(ad.Risk))
	return h
}
