package sausages

import (
	"strconv"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// MoveName names a move as the button that makes it: «Положить 🌭»,
// «Пас», a bid's number, «Открыть: Оля».
func (sausagesGame) MoveName(l adapter.Loc, t adapter.TableView, _ game.State, _ game.Seat, a game.Action) string {
	m, ok := ss.Decode(a)
	if !ok {
		return ""
	}
	switch m.Kind {
	case ss.KindPlace:
		return l.T("sausages.place_button", "Card", cardEmoji(m.Card))
	case ss.KindBid:
		return strconv.Itoa(m.N)
	case ss.KindPass:
		return l.T("sausages.pass_button")
	case ss.KindReveal:
		return l.T("sausages.reveal_button", "Name", adapter.SeatPlainName(t, m.Seat))
	case ss.KindPick:
		return "🂠 " + strconv.Itoa(m.Index+1)
	case ss.KindLose:
		return l.T("sausages.lose_button", "Card", cardEmoji(m.Card))
	case ss.KindName:
		return adapter.SeatPlainName(t, m.Seat)
	}
	return ""
}
