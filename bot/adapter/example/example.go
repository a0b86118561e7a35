// Package example adapts the example game «Старшая карта»
// (bot/internal/highcard) to the platform with bot's exported API only:
// the worked example of docs/bot.md, standing for a bot/<id> adapter. It
// implements just the core adapter.Game; its test plays a whole game through
// the fake Bot API. A test fixture: cmd/games does not list it.
package example

import (
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"

	"github.com/trickchef/trickchef/bot/internal/highcard"
	"github.com/trickchef/trickchef/game"
)

// highCard is stateless: everything about a table is in the TableView and the
// engine state the platform hands in.
type highCard struct{}

// Game is «Старшая карта» for the platform.
func Game() adapter.Game { return highCard{} }

// ID prefixes the game's locale keys (locales/highcard.*.toml).
func (highCard) ID() string            { return "highcard" }
func (highCard) Aliases() []string     { return []string{"старшая"} }
func (highCard) SeatRange() (int, int) { return highcard.Players, highcard.Players }

// Start deals from the table's seed, so a replay deals the same cards.
func (highCard) Start(t adapter.TableView) (game.State, error) { return highcard.New(t.Seed()), nil }

func (highCard) Decode(data []byte) (game.State, error) { return highcard.Decode(data) }

// RenderTable draws the group message: the score, the card on the table,
// whose turn it is.
func (g highCard) RenderTable(l adapter.Loc, t adapter.TableView, st game.State) adapter.Message {
	s := st.(*highcard.State)
	var b strings.Builder
	if s.Over() {
		b.WriteString(l.T("highcard.header_over", "Title", adapter.Title(l, g)) + "\n\n")
	} else {
		b.WriteString(l.T("highcard.header", "Title", adapter.Title(l, g), "Round", s.Round+1, "Rounds", highcard.Rounds) + "\n\n")
	}
	for i := range highcard.Players {
		seat := game.Seat(i)
		b.WriteString(l.T("highcard.seat_line", "Name", adapter.SeatName(t, seat), "Score", s.Score[i]) + adapter.SeatMark(t, seat, s.Over()) + "\n")
	}
	for i, c := range s.Played {
		if c != 0 {
			b.WriteString("\n" + l.T("highcard.played", "Name", adapter.SeatName(t, game.Seat(i)), "Card", c) + "\n")
		}
	}
	if e := adapter.EventLine(l, t); e != "" {
		b.WriteString("\n" + e + "\n")
	}
	switch {
	case s.Over():
		b.WriteString("\n" + l.T("highcard.game_over"))
	case t.Playing():
		b.WriteString("\n" + l.T("highcard.turn", "Name", adapter.Mention(t, s.Turn)) + adapter.DeadlineText(l, t, s.Turn))
	}
	return adapter.Message{Text: b.String()}
}

// RenderSeat draws a player's private message: their cards, as buttons
// when it is their turn.
func (g highCard) RenderSeat(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Message {
	s := st.(*highcard.State)
	text := l.T("highcard.hand_header", "Title", adapter.Title(l, g), "Chat", adapter.Esc(t.Title())) + "\n"
	switch {
	case s.Over():
		return adapter.Message{Text: text + l.T("hand.over")}
	case !t.Playing():
		return adapter.Message{Text: text + l.T("hand.stopped")}
	}
	cards := make([]string, len(s.Hands[seat]))
	for i, c := range s.Hands[seat] {
		cards[i] = strconv.Itoa(c)
	}
	text += l.T("highcard.hand", "Cards", strings.Join(cards, " ")) + "\n\n"
	legal := s.Legal(game.Seat(seat))
	if len(legal) == 0 {
		// Not this player's turn: the platform leaves the message as it is
		// until a Ping replaces it.
		return adapter.Message{Text: text + l.T("hand.wait"), Lazy: true}
	}
	var buttons []adapter.Button
	for _, a := range legal {
		buttons = append(buttons, adapter.ActionButton(t, seat, strconv.Itoa(int(a)), a))
	}
	return adapter.Message{Text: text + l.T("highcard.hand_turn"), Keyboard: adapter.Rows(buttons, 3), Ping: true}
}

// Announce posts who took a round and, at the end, the final result.
func (highCard) Announce(l adapter.Loc, t adapter.TableView, before, after game.State) []adapter.Message {
	b, a := before.(*highcard.State), after.(*highcard.State)
	var out []adapter.Message
	if w, ok := a.Winner(); ok && a.Round != b.Round {
		out = append(out, adapter.Message{Text: l.T("highcard.round_won", "Name", adapter.SeatName(t, w),
			"Winning", a.Last[w], "Losing", a.Last[1-w])})
	}
	if a.Over() && !b.Over() {
		r := a.Result()
		out = append(out, adapter.Message{Text: adapter.WinnerLine(l, t, r) + "\n\n" + adapter.ResultTable(l, t, r, func(s game.Seat) string {
			return l.T("highcard.rounds_won", "Count", r.Scores[s])
		})})
	}
	return out
}
