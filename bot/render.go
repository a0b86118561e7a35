package bot

import (
	"slices"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// GroupMessage is the group message of the table as the platform shows it
// now: the lobby, the game's table with the platform's notices (who cannot
// be written to), or how it ended. It reads t and changes nothing; golden
// tests and other views render through it.
func (b *Bot) GroupMessage(t *record.Table) adapter.Message {
	l := b.loc(t.Lang)
	if t.State != nil {
		g, st, err := b.decode(t)
		if err == nil {
			m := g.RenderTable(l, b.adapterView(t), st)
			if line := hintedLine(l, t); line != "" {
				m.Text += "\n\n" + line
			}
			if t.Phase == record.PhasePlaying {
				b.addUnreachable(l, t, &m)
				if link, ok := b.webAppLink(l, t); ok {
					m.Keyboard = append(slices.Clone(m.Keyboard), []adapter.Button{link})
				}
			}
			return m
		}
		b.log.Error().Err(err).Str("table", t.ID).Msg("decode game for rendering")
	}
	if t.Phase == record.PhaseLobby {
		return b.renderLobby(l, t)
	}
	text := l.T("lobby.closed")
	if t.Event != nil {
		text = adapter.EventLine(l, b.adapterView(t))
	}
	return adapter.Message{Text: text}
}

// SeatMessage is seat's private message as the platform shows it now: the
// game's RenderSeat with the platform's additions — how long the player
// has to move, the «leave the game» button — or, in its place, one of the
// platform's own states: the bot plays for you, confirm leaving, you left.
// It reads t and changes nothing.
func (b *Bot) SeatMessage(t *record.Table, seat int) (adapter.Message, error) {
	if seat >= 0 && seat < len(t.Seats) && t.Seats[seat].Leaver != nil {
		return b.leftMessage(t), nil
	}
	g, st, err := b.decode(t)
	if err != nil {
		return adapter.Message{}, err
	}
	v := b.adapterView(t)
	l := b.loc(t.Lang)
	m := g.RenderSeat(l, v, st, seat)
	s := t.Seats[seat]
	switch {
	case !platformState(t, seat):
	case s.LeaveAsked:
		return b.leaveConfirm(t, g, seat, m.Ping), nil
	default:
		return b.autoMessage(t, g, seat), nil
	}
	if t.Phase != record.PhasePlaying || !s.Human() {
		return m, nil
	}
	if mv := movedNote(&t.Seats[seat]); mv != nil && m.Lazy {
		// The player waits after their move: the message that asked
		// for it says it counted, and offers nothing to press.
		return movedMessage(l, v, st, seat, mv, m), nil
	}
	if d := adapter.DeadlineText(l, v, game.Seat(seat)); d != "" && !m.Lazy {
		// A hand that asks for a move says how long the player has,
		// every game alike.
		m.Text += "\n\n" + strings.TrimPrefix(d, " ")
	}
	b.addHint(l, t, g, st, seat, &m)
	b.addTip(l, t, g, seat, &m)
	if canLeave(g) {
		m.Keyboard = append(slices.Clone(m.Keyboard), []adapter.Button{leaveButton(t, seat, leaveAsk, l.T("leave.button"))})
	}
	if web, ok := b.webAppButton(l, t); ok {
		m.Keyboard = append(slices.Clone(m.Keyboard), []adapter.Button{web})
	}
	return m, nil
}

// platformState reports whether seat's private message shows one of the
// platform's own states in place of the game's: confirm leaving, or the bot
// plays for you.
func platformState(t *record.Table, seat int) bool {
	if seat < 0 || seat >= len(t.Seats) {
		return false
	}
	s := t.Seats[seat]
	return t.Phase == record.PhasePlaying && s.Human() && s.Leaver == nil && (s.LeaveAsked || s.Auto())
}

// showsPlatformState reports whether a message record shows one of the
// platform's states (autoMessage, leaveConfirm) rather than the game's.
func showsPlatformState(rec msgRecord) bool { return strings.HasPrefix(rec.Digest, platformDigest) }

func (b *Bot) renderLobby(l adapter.Loc, t *record.Table) adapter.Message {
	var sb strings.Builder
	lobbyBtn := func(text string, args ...int) adapter.Button {
		return adapter.Button{Text: text, Data: callback.Data{Op: 'l', Table: t.ID, GameNo: t.GameNo, Args: args}.String()}
	}
	g, hasKind := b.games.get(t.GameID)
	if !hasKind {
		// The game is still to be chosen: who sits here already, and
		// «join», as the lobby of a chosen game has.
		sb.WriteString(l.T("lobby.choose_title") + "\n\n" + b.gameLines(l) + "\n\n")
		sb.WriteString(l.T("lobby.seated") + "\n")
		for i, s := range t.Seats {
			sb.WriteString(b.lobbySeatLine(l, t, nil, i, s) + "\n")
		}
		kb := [][]adapter.Button{{lobbyBtn(l.T("lobby.join_button"), lobbyJoin), lobbyBtn(l.T("lobby.leave_button"), lobbyLeave)}}
		for _, g := range b.games.games {
			kb = append(kb, []adapter.Button{{Text: adapter.Title(l, g), Data: callback.Data{Op: 'k', Table: t.ID, GameNo: t.GameNo, Word: g.ID()}.String()}})
		}
		kb = append(kb, []adapter.Button{lobbyBtn(l.T("lobby.cancel_button"), lobbyCancel)})
		return adapter.Message{Text: strings.TrimRight(sb.String(), "\n"), Keyboard: kb}
	}
	lo, hi := g.SeatRange()
	sb.WriteString(l.T("lobby.title", "Game", adapter.Title(l, g)) + "\n")
	sb.WriteString(l.T("lobby.seats", "Count", len(t.Seats), "Min", lo, "Max", hi) + "\n")
	for i, s := range t.Seats {
		sb.WriteString(b.lobbySeatLine(l, t, g, i, s) + "\n")
	}
	var optionRows [][]adapter.Button
	for i, o := range adapter.Options(g) {
		if o.Shown != nil && !o.Shown(len(t.Seats)) {
			continue
		}
		label := o.Label(l, adapter.OptionValue(adapter.View(t), g, o.Key))
		sb.WriteString(label + "\n")
		optionRows = append(optionRows, []adapter.Button{lobbyBtn(label, lobbyOption, i)})
	}
	if hasTurnTime(g) {
		label := l.T("lobby.turn_button", "Time", TurnTimeText(l, b.turnTime(t)))
		sb.WriteString(label + "\n")
		optionRows = append(optionRows, []adapter.Button{lobbyBtn(label, lobbyTurn)})
	}
	if line, bt, ok := hintsLobbyLine(l, t, g); ok {
		sb.WriteString(line + "\n")
		optionRows = append(optionRows, []adapter.Button{bt})
	}
	if t.Practice() {
		return b.practiceLobby(l, t, g, sb.String(), optionRows)
	}
	sb.WriteString("\n" + l.T("lobby.hint"))
	// Only buttons that can work now: no join or robot on a full table,
	// no «remove a robot» without one.
	full := len(t.Seats) >= hi
	robots := slices.ContainsFunc(t.Seats, func(s record.Seat) bool { return !s.Human() })
	var seatRow, robotRow []adapter.Button
	if !full {
		seatRow = append(seatRow, lobbyBtn(l.T("lobby.join_button"), lobbyJoin))
	}
	seatRow = append(seatRow, lobbyBtn(l.T("lobby.leave_button"), lobbyLeave))
	kb := [][]adapter.Button{seatRow}
	if len(adapter.Levels(g)) > 0 {
		if !full {
			robotRow = append(robotRow, lobbyBtn(l.T("lobby.ai_button"), lobbyAddAI))
		}
		if robots {
			robotRow = append(robotRow, lobbyBtn(l.T("lobby.kick_button"), lobbyKick))
		}
		if len(robotRow) > 0 {
			kb = append(kb, robotRow)
		}
		kb = append(kb, []adapter.Button{lobbyBtn(l.T("lobby.level_button", "Level", levelLabel(l, g, aiLevel(g, t.AILevel))), lobbyLevel)})
	}
	kb = append(kb, optionRows...)
	kb = append(kb, []adapter.Button{lobbyBtn(l.T("lobby.start_button"), lobbyStart), lobbyBtn(l.T("lobby.cancel_button"), lobbyCancel)})
	kb = append(kb, []adapter.Button{{Text: l.T("lobby.open_chat_button"), URL: b.deepLink(joinPrefix + t.ID)},
		b.rulesLink(l.T("lobby.rules_button"), g)})
	return adapter.Message{Text: sb.String(), Keyboard: kb}
}

// lobbySeatLine is seat i's line in the lobby: «2. Оля — создатель
// стола», a robot with its level (g nil: no game chosen, no robots yet).
func (b *Bot) lobbySeatLine(l adapter.Loc, t *record.Table, g adapter.Game, i int, s record.Seat) string {
	line := strconv.Itoa(i+1) + ". " + adapter.Esc(s.Name)
	switch {
	case !s.Human() && g != nil:
		line = strconv.Itoa(i+1) + ". 🤖 " + adapter.Esc(s.Name) + " · " + levelLabel(l, g, s.AI)
	case s.UserID == t.Creator:
		line += " " + l.T("lobby.creator_mark")
	}
	if s.Unreachable {
		line += " " + l.T("lobby.unreachable_mark")
	}
	return line
}

// addUnreachable names the players the bot cannot write to and offers the
// deep link that lets them open the private chat and get their cards.
func (b *Bot) addUnreachable(l adapter.Loc, t *record.Table, m *adapter.Message) {
	var who []string
	for _, s := range t.Seats {
		if s.Human() && s.Unreachable {
			who = append(who, adapter.Esc(s.Name))
		}
	}
	if len(who) == 0 {
		return
	}
	m.Text += "\n\n" + l.T("table.unreachable", "Names", strings.Join(who, ", "))
	m.Keyboard = append(m.Keyboard, []adapter.Button{{Text: l.T("lobby.open_chat_button"), URL: b.deepLink(joinPrefix + t.ID)}})
}

// autoMessage is a player's message while the bot plays for them (after
// two timeouts in a row): that, and the buttons to take over again or to
// leave — no hand and no «your turn», which the bot answers anyway. It
// stays the same move after move, so it costs no calls.
func (b *Bot) autoMessage(t *record.Table, g adapter.Game, seat int) adapter.Message {
	l := b.loc(t.Lang)
	kb := [][]adapter.Button{{{Text: l.T("auto.back_button"),
		Data: callback.Data{Op: 'b', Table: t.ID, GameNo: t.GameNo, Args: []int{seat}}.String()}}}
	if canLeave(g) {
		kb = append(kb, []adapter.Button{leaveButton(t, seat, leaveAsk, l.T("leave.button"))})
	}
	if web, ok := b.webAppButton(l, t); ok {
		kb = append(kb, []adapter.Button{web})
	}
	return adapter.Message{Text: l.T("auto.notice"), Keyboard: kb}
}

// Rendering helpers shared by the games' adapters: the same seat names,
// marks, deadlines and results in every game.

// adapterView is what a game's adapter sees of t (adapter.TableView) at the
// bot's clock, for rendering.
func (b *Bot) adapterView(t *record.Table) adapter.TableView { return adapter.ViewAt(t, b.now()) }
