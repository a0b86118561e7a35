package sausages

import (
	"strconv"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// MoveName names a move once it is made, as a noun phrase: «🌭 в стопку»,
// «ставка 3», «карта 🂠 2» — the toast, the hand's confirmation and a
// timeout say what happened, not the button's infinitive. Plain text: the
// platform escapes it.
func (sausagesGame) MoveName(l adapter.Loc, t adapter.TableView, _ game.State, _ game.Seat, a game.Action) string {
	return adapter.NameMove(a, ss.Decode, func(m ss.Move) string { return moveText(l, m, adapter.PlainNamer(t)) })
}

// moveText is the noun phrase of move m (sausages.move.*), naming seats
// with name: plain for a toast, HTML-escaped for a hint.
func moveText(l adapter.Loc, m ss.Move, name func(game.Seat) string) string {
	switch m.Kind {
	case ss.KindPlace:
		return l.T("sausages.move.place", "Card", cardEmoji(m.Card))
	case ss.KindBid:
		return l.T("sausages.move.bid", "N", strconv.Itoa(m.N))
	case ss.KindPass:
		return l.T("sausages.move.pass")
	case ss.KindReveal:
		return l.T("sausages.move.reveal", "Name", name(m.Seat))
	case ss.KindPick:
		return l.T("sausages.move.pick", "N", strconv.Itoa(m.Index+1))
	case ss.KindLose:
		return l.T("sausages.move.lose", "Card", cardEmoji(m.Card))
	case ss.KindName:
		return l.T("sausages.move.name", "Name", name(m.Seat))
	}
	return ""
}
