package view

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
)

// The hand in the group. Under a running game's table the group sees
// «🖐 Мои карты»; a seated person who presses it gets their hand right
// there, as an ephemeral message only they see, with the same buttons as
// the private hand (bot/deliver/grouphand; docs/bot.md «The hand in the
// group»). Practice tables (the hand is already in that chat) and long
// games (a move a day is answered from the private reminder) keep their
// hands in private.

// HandInGroup draws what the hand in the group needs of the views. It is
// a type of its own, over the Renderer, so that the Renderer's many
// drawings do not grow by this one feature's; get it with
// Renderer.HandInGroup.
type HandInGroup struct{ r *Renderer }

// HandInGroup is the views of the hand in the group.
func (r *Renderer) HandInGroup() *HandInGroup { return &HandInGroup{r: r} }

// GroupHands reports whether t offers its players their hands in the
// group: a running quick game in a group, on a Bot API server that knows
// ephemeral messages.
func (h *HandInGroup) GroupHands(t *record.Table) bool {
	if !h.GroupHandsAt(t) || t.Phase != record.PhasePlaying || t.State == nil {
		return false
	}
	for _, s := range t.Seats {
		if s.Human() {
			return true
		}
	}
	return false
}

// Offered reports whether this server offers the hand in the group at
// all (the Bot API knows ephemeral messages), so /help and the guides
// mention «🖐 Мои карты» only where a player can find it.
func (h *HandInGroup) Offered() bool {
	return h.r.cfg.GroupHands != nil && h.r.cfg.GroupHands()
}

// GroupHandsAt reports whether t's game, when it runs, will offer the
// hand in the group (the lobby seats a person who never opened the private
// chat only then): a group's quick game, on a server that knows ephemeral
// messages.
func (h *HandInGroup) GroupHandsAt(t *record.Table) bool {
	if !h.Offered() {
		return false
	}
	return !t.Practice() && t.Board == nil && !h.r.Long(t)
}

// myHandButton is «🖐 Мои карты» under the group's table.
func (r *Renderer) myHandButton(l adapter.Loc, t *record.Table) (adapter.Button, bool) {
	if !r.HandInGroup().GroupHands(t) {
		return adapter.Button{}, false
	}
	data := callback.Data{Op: callback.MyHand, Table: t.ID, GameNo: t.GameNo}
	return adapter.Button{Text: l.T("grouphand.button"), Data: data.String()}, true
}

// GroupSeat is seat's hand as its ephemeral message in the group shows
// it: the private hand without what only works in a private chat (the
// «Стол» page's button, which opens a Mini App from a private chat only).
func (h *HandInGroup) GroupSeat(t *record.Table, seat int) (adapter.Message, error) {
	r := h.r
	m, err := r.Seat(t, seat)
	if err != nil {
		return m, err
	}
	if web, ok := r.webAppButton(r.Loc(t.Lang), t); ok {
		var rows [][]adapter.Button
		for _, row := range m.Keyboard {
			if len(row) == 1 && row[0] == web {
				continue
			}
			rows = append(rows, row)
		}
		m.Keyboard = rows
	}
	return m, nil
}

// PlaysFromGroup is what the private hand of a person who plays from the
// group shows meanwhile: where their cards are, and no buttons to press.
func (h *HandInGroup) PlaysFromGroup(t *record.Table) adapter.Message {
	return adapter.Message{Text: h.r.Loc(t.Lang).T("grouphand.private_note")}
}
