package bot

import (
	"strconv"
	"strings"
)

// renderTable draws the group message of the table's current game: the
// lobby, the game table, or how it ended.
func (b *Bot) renderTable(t *Table) message {
	l := b.loc(t.Lang)
	if t.Game != nil {
		k, st, err := b.decode(t)
		if err == nil {
			m := k.RenderTable(l, t, st)
			if t.Phase == PhasePlaying {
				b.addUnreachable(l, t, &m)
			}
			return m
		}
		b.log.Error().Err(err).Str("table", t.ID).Msg("decode game for rendering")
	}
	if t.Phase == PhaseLobby {
		return b.renderLobby(l, t)
	}
	text := l.T("lobby.closed")
	if t.Event != nil {
		text = l.T(t.Event.Key, "Name", "")
	}
	return message{Text: text}
}

func (b *Bot) renderLobby(l loc, t *Table) message {
	var sb strings.Builder
	lobbyBtn := func(text string, args ...int) button {
		return button{Text: text, Data: payload{Op: 'l', Table: t.ID, Game: t.GameNo, Args: args}.String()}
	}
	k, hasKind := b.games.get(t.Kind)
	if !hasKind {
		sb.WriteString(l.T("lobby.choose_title"))
		var kb [][]button
		for i, g := range b.games.kinds {
			kb = append(kb, []button{lobbyBtn(g.Title(l), lobbyKind, i)})
		}
		kb = append(kb, []button{lobbyBtn(l.T("lobby.cancel_button"), lobbyCancel)})
		return message{Text: sb.String(), Keyboard: kb}
	}
	lo, hi := k.SeatRange()
	sb.WriteString(l.T("lobby.title", "Game", k.Title(l)) + "\n")
	sb.WriteString(l.T("lobby.seats", "Count", len(t.Seats), "Min", lo, "Max", hi) + "\n")
	for i, s := range t.Seats {
		line := strconv.Itoa(i+1) + ". " + esc(s.Name)
		switch {
		case !s.Human():
			line = strconv.Itoa(i+1) + ". 🤖 " + esc(s.Name) + " · " + l.T("ai.level_"+s.AI)
		case s.UserID == t.Creator:
			line += " " + l.T("lobby.creator_mark")
		}
		if s.Unreachable {
			line += " " + l.T("lobby.unreachable_mark")
		}
		sb.WriteString(line + "\n")
	}
	if label, ok := k.Option(l, t.Option, len(t.Seats)); ok {
		sb.WriteString(label + "\n")
	}
	sb.WriteString("\n" + l.T("lobby.hint"))
	kb := [][]button{
		{lobbyBtn(l.T("lobby.join_button"), lobbyJoin), lobbyBtn(l.T("lobby.leave_button"), lobbyLeave)},
		{lobbyBtn(l.T("lobby.ai_button"), lobbyAddAI), lobbyBtn(l.T("lobby.kick_button"), lobbyKick)},
		{lobbyBtn(l.T("lobby.level_button", "Level", l.T("ai.level_"+aiLevel(k, t.AILevel))), lobbyLevel)},
	}
	if label, ok := k.Option(l, t.Option, len(t.Seats)); ok {
		kb = append(kb, []button{lobbyBtn(label, lobbyOption)})
	}
	kb = append(kb, []button{lobbyBtn(l.T("lobby.start_button"), lobbyStart), lobbyBtn(l.T("lobby.cancel_button"), lobbyCancel)})
	kb = append(kb, []button{{Text: l.T("lobby.open_chat_button"), URL: b.deepLink(joinPrefix + t.ID)}})
	return message{Text: sb.String(), Keyboard: kb}
}

// addUnreachable names the players the bot cannot write to and offers the
// deep link that lets them open the private chat and get their cards.
func (b *Bot) addUnreachable(l loc, t *Table, m *message) {
	var who []string
	for _, s := range t.Seats {
		if s.Human() && s.Unreachable {
			who = append(who, esc(s.Name))
		}
	}
	if len(who) == 0 {
		return
	}
	m.Text += "\n\n" + l.T("table.unreachable", "Names", strings.Join(who, ", "))
	m.Keyboard = append(m.Keyboard, []button{{Text: l.T("lobby.open_chat_button"), URL: b.deepLink(joinPrefix + t.ID)}})
}

// addAutoNotice tells a player the bot is playing for them (after two
// timeouts in a row) and gives them the button to take over again.
func (b *Bot) addAutoNotice(t *Table, seat int, m *message) {
	s := t.Seats[seat]
	if t.Phase != PhasePlaying || !s.Human() || !s.Auto() {
		return
	}
	l := b.loc(t.Lang)
	m.Text += "\n\n" + l.T("auto.notice")
	m.Keyboard = append(m.Keyboard, []button{{Text: l.T("auto.back_button"),
		Data: payload{Op: 'b', Table: t.ID, Game: t.GameNo, Args: []int{seat}}.String()}})
}
