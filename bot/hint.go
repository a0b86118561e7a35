package bot

import (
	"slices"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// Hints: «💡 Подсказка» on a person's hand. A table whose lobby turned
// hints on (Table.Hints, off by default) shows the button while the seat
// may act; pressing it asks the game's top robot level for the seat
// (HintGame, with the Decision that robot would get here) and keeps the
// answer on the seat until the next move at the table. The hand then shows
// the reason and marks the advised button; the person is not rated for
// this game (Seat.Hinted, results.go), and the group's table names them.

// hintMark prefixes the advised button.
const hintMark = "💡 "

// hintGame is the table's game as a HintGame that can advise: one with
// robots whose top level gives hints.
func hintGame(g adapter.Game) (adapter.HintGame, bool) {
	h, ok := g.(adapter.HintGame)
	return h, ok && len(adapter.Levels(g)) > 0
}

// hintPayload is the «💡 Подсказка» button's data: h:<table>:<game>:<seat>:<nonce>.
func hintPayload(t *record.Table, seat int) string {
	return callback.Data{Op: 'h', Table: t.ID, GameNo: t.GameNo, Args: []int{seat, t.Seats[seat].Nonce}}.String()
}

// onHint answers a press of «💡 Подсказка»: the top level's move for the
// seat, kept on the seat (and the seat marked unrated) in this change.
func (b *Bot) onHint(t *record.Table, ch *change, p callback.Data, who int64) error {
	seat, g, st, err := b.seatGame(t, p, who)
	if err != nil {
		return err
	}
	hg, ok := hintGame(g)
	if !ok || !t.Hints {
		return refuse("hints.off")
	}
	if !slices.Contains(st.ToAct(), game.Seat(seat)) || len(st.Legal(game.Seat(seat))) == 0 {
		return refuse("error.not_your_turn")
	}
	s := &t.Seats[seat]
	if s.Hint != nil && s.Hint.At == len(t.Log) {
		return errNoChange // shown already
	}
	lv := adapter.Levels(g)
	d := adapter.Decision{Level: lv[len(lv)-1], Seed: seatSeed(t), Memory: t.Memory, Budget: b.cfg.AIBudget}
	h := hg.Hint(b.loc(t.Lang), b.adapterView(t), st, seat, d)
	if h.Action >= 0 && !slices.Contains(st.Legal(game.Seat(seat)), h.Action) {
		b.log.Error().Str("table", t.ID).Int("seat", seat).Int("action", int(h.Action)).Msg("hint is not a legal move")
		return refuse("error.busy")
	}
	s.Hint = &record.SeatHint{At: len(t.Log), Action: h.Action, Why: h.Why}
	s.Hinted = true
	ch.answer = b.loc(t.Lang).T("hints.shown")
	return nil
}

// addHint puts the hint on a person's hand: the advice in force with its
// advised button marked, or the «💡 Подсказка» button while the seat may
// act and has none. m is the game's rendering of the hand.
func (b *Bot) addHint(l adapter.Loc, t *record.Table, g adapter.Game, st game.State, seat int, m *adapter.Message) {
	if _, ok := hintGame(g); !ok || !t.Hints {
		return
	}
	s := t.Seats[seat]
	if h := s.Hint; h != nil && h.At == len(t.Log) {
		m.Text += "\n\n" + h.Why
		m.Keyboard = markHinted(m.Keyboard, t, seat, h.Action)
		return
	}
	if slices.Contains(st.ToAct(), game.Seat(seat)) && len(st.Legal(game.Seat(seat))) > 0 {
		m.Keyboard = append(slices.Clone(m.Keyboard), []adapter.Button{{Text: l.T("hints.button"), Data: hintPayload(t, seat)}})
	}
}

// markHinted is a copy of kb with the button that plays action a for the
// seat marked.
func markHinted(kb [][]adapter.Button, t *record.Table, seat int, a game.Action) [][]adapter.Button {
	out := make([][]adapter.Button, len(kb))
	for i, row := range kb {
		out[i] = slices.Clone(row)
		for j, bt := range row {
			p, err := callback.Parse(bt.Data)
			if err == nil && p.Op == 'a' && p.Table == t.ID && p.Args[0] == seat && game.Action(p.Args[2]) == a && !strings.HasPrefix(bt.Text, hintMark) {
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
	return l.T("hints.taken", "Names", strings.Join(who, ", "))
}

// hintsLobbyLine is the lobby's line and button for the hints setting, for
// a game that gives hints.
func hintsLobbyLine(l adapter.Loc, t *record.Table, g adapter.Game) (string, adapter.Button, bool) {
	if _, ok := hintGame(g); !ok {
		return "", adapter.Button{}, false
	}
	key := "hints.lobby_off"
	if t.Hints {
		key = "hints.lobby_on"
	}
	label := l.T(key)
	return label, adapter.Button{Text: label, Data: callback.Data{Op: 'l', Table: t.ID, GameNo: t.GameNo, Args: []int{lobbyHints}}.String()}, true
}
