package view

import (
	"slices"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// Hints: «💡 Подсказка» on a person's hand. A table whose lobby turned
// hints on (Table.Hints) shows the button while the seat may act; the
// answer, kept on the seat until the next move at the table, shows with
// the advised button marked; the group's table names who took one.

// hintMark prefixes the advised button.
const hintMark = "💡 "

// HintGame is the game as a HintGame that can advise: one with robots
// whose top level gives hints.
func HintGame(g adapter.Game) (adapter.HintGame, bool) {
	h, ok := g.(adapter.HintGame)
	return h, ok && len(adapter.Levels(g)) > 0
}

// HintPayload is the «💡 Подсказка» button's data.
func HintPayload(t *record.Table, seat int) string {
	return callback.Data{Op: callback.Hint, Table: t.ID, GameNo: t.GameNo, Args: []int{seat, t.Seats[seat].Nonce}}.String()
}

// HintInForce is the seat's hint while it holds (no move since), or nil.
func HintInForce(t *record.Table, seat int) *record.SeatHint {
	if h := t.Seats[seat].Hint; h != nil && h.At == len(t.Log) {
		return h
	}
	return nil
}

// MayAsk reports whether the seat may ask for a hint now: it is to act
// and has a move.
func MayAsk(st game.State, seat int) bool {
	return slices.Contains(st.ToAct(), game.Seat(seat)) && len(st.Legal(game.Seat(seat))) > 0
}

// addHint puts the hint on a person's hand: the advice in force with its
// advised button marked, or the «💡 Подсказка» button while the seat may
// act and has none. m is the game's rendering of the hand.
func addHint(l adapter.Loc, t *record.Table, g adapter.Game, st game.State, seat int, m *adapter.Message) {
	if _, ok := HintGame(g); !ok || !t.Hints {
		return
	}
	if h := HintInForce(t, seat); h != nil {
		m.Text += "\n\n" + h.Why
		m.Keyboard = markHinted(m.Keyboard, t, seat, h.Action)
		return
	}
	if MayAsk(st, seat) {
		m.Keyboard = append(slices.Clone(m.Keyboard), []adapter.Button{{Text: l.T("hints.button"), Data: HintPayload(t, seat)}})
	}
}

// Advised reports whether a button's data plays action a for the seat at
// table id.
func Advised(data, id string, seat int, a game.Action) bool {
	p, err := callback.Parse(data)
	return err == nil && p.Op == callback.Action && p.Table == id && p.Args[0] == seat && game.Action(p.Args[2]) == a
}

// markHinted is a copy of kb with the button that plays action a for the
// seat marked.
func markHinted(kb [][]adapter.Button, t *record.Table, seat int, a game.Action) [][]adapter.Button {
	out := make([][]adapter.Button, len(kb))
	for i, row := range kb {
		out[i] = slices.Clone(row)
		for j, bt := range row {
			if Advised(bt.Data, t.ID, seat, a) && !strings.HasPrefix(bt.Text, hintMark) {
				out[i][j].Text = hintMark + bt.Text
			}
		}
	}
	return out
}

// hintedLine is the group table's note naming who took a hint this game
// (they are not rated for it), or "".
func hintedLine(l adapter.Loc, t *record.Table) string {
	if t.Practice() {
		return "" // nobody else to tell, and no group's rating at stake
	}
	var who []string
	for _, s := range t.Seats {
		if s.Hinted && s.Human() {
			who = append(who, adapter.Esc(s.Name))
		}
	}
	if len(who) == 0 {
		return ""
	}
	return l.T("hints.taken", "Names", strings.Join(who, ", "), "Count", len(who))
}

// hintsLobbyLine is the lobby's line and button for the hints setting, for
// a game that gives hints.
func hintsLobbyLine(l adapter.Loc, t *record.Table, g adapter.Game) (string, adapter.Button, bool) {
	if _, ok := HintGame(g); !ok {
		return "", adapter.Button{}, false
	}
	key := "hints.lobby_off"
	if t.Hints {
		key = "hints.lobby_on"
	}
	label := l.T(key)
	return label, lobbyButton(t, label, callback.LobbyHints), true
}

// addTip puts a learning person's first-game tip on their hand, with the
// button that turns tips off.
func addTip(l adapter.Loc, t *record.Table, g adapter.Game, seat int, m *adapter.Message) {
	s := t.Seats[seat]
	if !s.Learning || s.Tip == "" {
		return
	}
	m.Text += "\n\n" + l.T("tips.title", "Game", adapter.Title(l, g)) + "\n" + l.T(g.ID()+".tip."+s.Tip)
	off := adapter.Button{Text: l.T("tips.off_button"), Data: callback.Data{Op: callback.TipsOff, Table: t.ID, GameNo: t.GameNo, Args: []int{seat}}.String()}
	m.Keyboard = append(slices.Clone(m.Keyboard), []adapter.Button{off})
}
