// Package highcardbot adapts the example game «Старшая карта»
// (bot/internal/highcard) to the platform with bot's exported API only:
// the worked example of docs/bot.md, standing for a bot/<id> adapter. It
// implements just the core bot.Game; its test plays a whole game through
// the fake Bot API. A test fixture: cmd/internal/games does not list it.
package highcardbot

import (
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/internal/highcard"
	"github.com/trickchef/trickchef/game"
)

// adapter is stateless: everything about a table is in bot.Table and the
// engine state the platform hands in.
type adapter struct{}

// Game is «Старшая карта» for the platform.
func Game() bot.Game { return adapter{} }

// ID prefixes the game's locale keys (locales/highcard.*.toml).
func (adapter) ID() string            { return "highcard" }
func (adapter) Aliases() []string     { return []string{"старшая"} }
func (adapter) SeatRange() (int, int) { return highcard.Players, highcard.Players }

// Start deals from the table's seed, so a replay deals the same cards.
func (adapter) Start(t bot.TableView) (game.State, error) { return highcard.New(t.Seed()), nil }

func (adapter) Decode(data []byte) (game.State, error) { return highcard.Decode(data) }

// RenderTable draws the group message: the score, the card on the table,
// whose turn it is.
func (g adapter) RenderTable(l bot.Loc, t bot.TableView, st game.State) bot.Message {
	s := st.(*highcard.State)
	var b strings.Builder
	if s.Over() {
		b.WriteString(l.T("highcard.header_over", "Title", bot.Title(l, g)) + "\n\n")
	} else {
		b.WriteString(l.T("highcard.header", "Title", bot.Title(l, g), "Round", s.Round+1, "Rounds", highcard.Rounds) + "\n\n")
	}
	for i := range highcard.Players {
		seat := game.Seat(i)
		b.WriteString(l.T("highcard.seat_line", "Name", bot.SeatName(t, seat), "Score", s.Score[i]) + bot.SeatMark(t, seat, s.Over()) + "\n")
	}
	for i, c := range s.Played {
		if c != 0 {
			b.WriteString("\n" + l.T("highcard.played", "Name", bot.SeatName(t, game.Seat(i)), "Card", c) + "\n")
		}
	}
	if e := bot.EventLine(l, t); e != "" {
		b.WriteString("\n" + e + "\n")
	}
	switch {
	case s.Over():
		b.WriteString("\n" + l.T("highcard.game_over"))
	case t.Phase() == bot.PhasePlaying:
		b.WriteString("\n" + l.T("highcard.turn", "Name", bot.Mention(t, s.Turn)) + bot.DeadlineText(l, t, s.Turn))
	}
	return bot.Message{Text: b.String()}
}

// RenderSeat draws a player's private message: their cards, as buttons
// when it is their turn.
func (g adapter) RenderSeat(l bot.Loc, t bot.TableView, st game.State, seat int) bot.Message {
	s := st.(*highcard.State)
	text := l.T("highcard.hand_header", "Title", bot.Title(l, g), "Chat", bot.Esc(t.Title())) + "\n"
	switch {
	case s.Over():
		return bot.Message{Text: text + l.T("hand.over")}
	case t.Phase() != bot.PhasePlaying:
		return bot.Message{Text: text + l.T("hand.stopped")}
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
		return bot.Message{Text: text + l.T("hand.wait"), Lazy: true}
	}
	var buttons []bot.Button
	for _, a := range legal {
		buttons = append(buttons, bot.ActionButton(t, seat, strconv.Itoa(int(a)), a))
	}
	return bot.Message{Text: text + l.T("highcard.hand_turn"), Keyboard: bot.Rows(buttons, 3), Ping: true}
}

// Announce posts who took a round and, at the end, the final result.
func (adapter) Announce(l bot.Loc, t bot.TableView, before, after game.State) []bot.Message {
	b, a := before.(*highcard.State), after.(*highcard.State)
	var out []bot.Message
	if w, ok := a.Winner(); ok && a.Round != b.Round {
		out = append(out, bot.Message{Text: l.T("highcard.round_won", "Name", bot.SeatName(t, w),
			"Winning", a.Last[w], "Losing", a.Last[1-w])})
	}
	if a.Over() && !b.Over() {
		r := a.Result()
		out = append(out, bot.Message{Text: bot.WinnerLine(l, t, r) + "\n\n" + bot.ResultTable(l, t, r, func(s game.Seat) string {
			return l.T("highcard.rounds_won", "Count", r.Scores[s])
		})})
	}
	return out
}
