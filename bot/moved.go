package bot

import (
	"slices"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// A person's move is confirmed where it was made: the toast of the press
// names it, and their private message, which asked for it, turns into
// what happened and who moves next, without buttons. The message is then
// a waiting hand (Lazy): it is edited once, when it stops asking
// (renderView), and not again until the next prompt replaces it — so a
// prompt due anyway takes the edit's place.

// moveName is the game's name of seat's action a in the state before it,
// or "" when the game names no moves (MoveGame).
func moveName(l adapter.Loc, v adapter.TableView, g adapter.Game, before game.State, seat game.Seat, a game.Action) string {
	if n, ok := g.(adapter.MoveGame); ok {
		return n.MoveName(l, v, before, seat, a)
	}
	return ""
}

// moveToast confirms a person's press: «Ход принят: 🟨9».
func moveToast(l adapter.Loc, m *record.SeatMove) string {
	if m == nil || m.Name == "" {
		return l.T("move.toast_plain")
	}
	return l.T("move.toast", "Move", m.Name)
}

// movedNote is the seat's last move while it still holds (the seat has
// not acted since), or nil.
func movedNote(s *record.Seat) *record.SeatMove {
	if s.Moved == nil || s.Moved.Nonce != s.Nonce {
		return nil
	}
	return s.Moved
}

// movedMessage is a waiting hand after the person's move: what they (or
// the bot for them) played and who moves now, above the game's own
// waiting text, with no buttons — nothing on it asks for a move.
func movedMessage(l adapter.Loc, v adapter.TableView, st game.State, seat int, mv *record.SeatMove, hand adapter.Message) adapter.Message {
	var line string
	switch {
	case mv.Auto && mv.Name != "":
		line = l.T("move.done_auto", "Move", adapter.Esc(mv.Name))
	case mv.Auto:
		line = l.T("move.done_auto_plain")
	case mv.Name != "":
		line = l.T("move.done", "Move", adapter.Esc(mv.Name))
	default:
		line = l.T("move.done_plain")
	}
	if next := nextLine(l, v, st, seat); next != "" {
		line += "\n" + next
	}
	if hand.Text != "" {
		line += "\n\n" + hand.Text
	}
	return adapter.Message{Text: line, Lazy: true}
}

// nextLine names who is to move now, the seat itself and the system
// aside: «Теперь ходит Оля.», or "" when nobody is.
func nextLine(l adapter.Loc, v adapter.TableView, st game.State, seat int) string {
	var next []game.Seat
	for _, s := range st.ToAct() {
		if s != game.System && int(s) != seat && !slices.Contains(next, s) {
			next = append(next, s)
		}
	}
	switch len(next) {
	case 0:
		return ""
	case 1:
		return l.T("move.next_one", "Name", adapter.SeatName(v, next[0]))
	}
	return l.T("move.next_many", "Names", adapter.SeatNames(v, next))
}
