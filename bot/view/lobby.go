package view

import (
	"slices"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
)

// lobbyButton is a button of the table's lobby doing op (callback.Lobby*).
func lobbyButton(t *record.Table, text string, args ...int) adapter.Button {
	return adapter.Button{Text: text, Data: callback.Data{Op: callback.Lobby, Table: t.ID, GameNo: t.GameNo, Args: args}.String()}
}

// GamePlayers is how many play g: "3–4 игрока", or "2 игрока" for a
// fixed count.
func GamePlayers(l adapter.Loc, g adapter.Game) string {
	lo, hi := g.SeatRange()
	if lo == hi {
		return l.T("count.players", "Count", hi)
	}
	return l.T("games.players", "Min", lo, "Count", hi)
}

// GameLines lists the games, one line each with their player counts.
func (r *Renderer) GameLines(l adapter.Loc) string {
	var lines []string
	for _, g := range r.games {
		lines = append(lines, l.T("games.line", "Game", adapter.Title(l, g), "Players", GamePlayers(l, g)))
	}
	return strings.Join(lines, "\n")
}

// lobby is the group message of a table gathering players.
func (r *Renderer) lobby(l adapter.Loc, t *record.Table) adapter.Message {
	var sb strings.Builder
	g, hasKind := r.games.Get(t.GameID)
	if !hasKind {
		// The game is still to be chosen: who sits here already, and
		// «join», as the lobby of a chosen game has.
		sb.WriteString(l.T("lobby.choose_title") + "\n\n" + r.GameLines(l) + "\n\n")
		sb.WriteString(l.T("lobby.seated") + "\n")
		for i, s := range t.Seats {
			sb.WriteString(lobbySeatLine(l, t, nil, i, s) + "\n")
		}
		kb := [][]adapter.Button{{lobbyButton(t, l.T("lobby.join_button"), callback.LobbyJoin), lobbyButton(t, l.T("lobby.leave_button"), callback.LobbyLeave)}}
		for _, g := range r.games {
			kb = append(kb, []adapter.Button{{Text: adapter.Title(l, g), Data: callback.Data{Op: callback.Choose, Table: t.ID, GameNo: t.GameNo, Word: g.ID()}.String()}})
		}
		kb = append(kb, []adapter.Button{lobbyButton(t, l.T("lobby.cancel_button"), callback.LobbyCancel)})
		return adapter.Message{Text: strings.TrimRight(sb.String(), "\n"), Keyboard: kb}
	}
	lo, hi := g.SeatRange()
	sb.WriteString(l.T("lobby.title", "Game", adapter.Title(l, g)) + "\n")
	sb.WriteString(l.T("lobby.seats", "Count", len(t.Seats), "Min", lo, "Max", hi) + "\n")
	for i, s := range t.Seats {
		sb.WriteString(lobbySeatLine(l, t, g, i, s) + r.championMark(t, s) + "\n")
	}
	var optionRows [][]adapter.Button
	for i, o := range adapter.Options(g) {
		if o.Shown != nil && !o.Shown(len(t.Seats)) {
			continue
		}
		label := o.Label(l, adapter.OptionValue(adapter.View(t), g, o.Key))
		sb.WriteString(label + "\n")
		optionRows = append(optionRows, []adapter.Button{lobbyButton(t, label, callback.LobbyOption, i)})
	}
	if HasTurnTime(g) {
		label := l.T("lobby.turn_button", "Time", TurnTimeText(l, r.TurnTime(t)))
		sb.WriteString(label + "\n")
		optionRows = append(optionRows, []adapter.Button{lobbyButton(t, label, callback.LobbyTurn)})
	}
	if lines, rows := r.longLobby(l, t); lines != "" {
		sb.WriteString(lines)
		optionRows = append(optionRows, rows...)
	}
	if line, bt, ok := hintsLobbyLine(l, t, g); ok {
		sb.WriteString(line + "\n")
		optionRows = append(optionRows, []adapter.Button{bt})
	}
	if t.ZonePick && r.Long(t) && t.Practice() {
		return r.zonePicker(l, t, sb.String(), nil)
	}
	if t.Practice() {
		return r.practiceLobby(l, t, g, sb.String(), optionRows)
	}
	// Only buttons that can work now: no join or robot on a full table,
	// no «remove a robot» without one; the hint does not ask to join one.
	full := len(t.Seats) >= hi
	hint := "lobby.hint"
	if full {
		hint = "lobby.hint_full"
	}
	sb.WriteString("\n" + l.T(hint))
	robots := slices.ContainsFunc(t.Seats, func(s record.Seat) bool { return !s.Human() })
	var seatRow, robotRow []adapter.Button
	if !full {
		seatRow = append(seatRow, lobbyButton(t, l.T("lobby.join_button"), callback.LobbyJoin))
	}
	seatRow = append(seatRow, lobbyButton(t, l.T("lobby.leave_button"), callback.LobbyLeave))
	kb := [][]adapter.Button{seatRow}
	if t.ZonePick && r.Long(t) {
		return r.zonePicker(l, t, sb.String(), kb) // people may still sit down meanwhile
	}
	if len(adapter.Levels(g)) > 0 {
		if !full {
			robotRow = append(robotRow, lobbyButton(t, l.T("lobby.ai_button"), callback.LobbyAddAI))
		}
		if robots {
			robotRow = append(robotRow, lobbyButton(t, l.T("lobby.kick_button"), callback.LobbyKick))
		}
		if len(robotRow) > 0 {
			kb = append(kb, robotRow)
		}
		kb = append(kb, []adapter.Button{lobbyButton(t, l.T("lobby.level_button", "Level", LevelLabel(l, g, AILevel(g, t.AILevel))), callback.LobbyLevel)})
	}
	kb = append(kb, optionRows...)
	kb = append(kb, []adapter.Button{lobbyButton(t, l.T("lobby.start_button"), callback.LobbyStart), lobbyButton(t, l.T("lobby.cancel_button"), callback.LobbyCancel)})
	kb = append(kb, []adapter.Button{{Text: l.T("lobby.open_chat_button"), URL: r.DeepLink(JoinPrefix + t.Token)},
		r.RulesLink(l.T("lobby.rules_button"), g)})
	return adapter.Message{Text: sb.String(), Keyboard: kb}
}

// practiceLobby is a practice table's lobby: the group's settings (robots
// and their level, the game's options, hints) without what only a group
// needs (joining, opening the private chat). text holds the seats and the
// options' lines.
func (r *Renderer) practiceLobby(l adapter.Loc, t *record.Table, g adapter.Game, text string, optionRows [][]adapter.Button) adapter.Message {
	var kb [][]adapter.Button
	if len(adapter.Levels(g)) > 0 {
		// Only buttons that can work: a robot while a seat is free, and
		// «remove» while the game can start without that robot (nobody
		// else joins a practice table).
		var robots []adapter.Button
		lo, hi := g.SeatRange()
		if len(t.Seats) < hi {
			robots = append(robots, lobbyButton(t, l.T("lobby.ai_button"), callback.LobbyAddAI))
		}
		if len(t.Seats) > lo {
			robots = append(robots, lobbyButton(t, l.T("lobby.kick_button"), callback.LobbyKick))
		}
		if len(robots) > 0 {
			kb = append(kb, robots)
		}
		kb = append(kb, []adapter.Button{lobbyButton(t, l.T("practice.level_button", "Level", LevelLabel(l, g, AILevel(g, t.AILevel))), callback.LobbyLevel)})
	}
	kb = append(kb, optionRows...)
	kb = append(kb, []adapter.Button{lobbyButton(t, l.T("lobby.start_button"), callback.LobbyStart), lobbyButton(t, l.T("lobby.cancel_button"), callback.LobbyCancel)})
	kb = append(kb, []adapter.Button{r.RulesLink(l.T("lobby.rules_button"), g)})
	return adapter.Message{Text: text + "\n" + l.T("practice.lobby_hint"), Keyboard: kb}
}

// championMark is « 🏆» after a person who won the group's last month
// of the lobby's game (record.Season), while it shows.
func (r *Renderer) championMark(t *record.Table, s record.Seat) string {
	if s.Human() && t.Champion(s.UserID, t.GameID, r.now()) {
		return " 🏆"
	}
	return ""
}

// lobbySeatLine is seat i's line in the lobby: «2. Оля — создатель
// стола», a robot with its level (g nil: no game chosen, no robots yet).
func lobbySeatLine(l adapter.Loc, t *record.Table, g adapter.Game, i int, s record.Seat) string {
	line := strconv.Itoa(i+1) + ". " + adapter.Esc(s.Name)
	switch {
	case !s.Human() && g != nil:
		line = strconv.Itoa(i+1) + ". 🤖 " + adapter.Esc(s.Name) + " · " + LevelLabel(l, g, s.AI)
	case s.UserID == t.Creator:
		line += " " + l.T("lobby.creator_mark")
	}
	if s.Unreachable {
		line += " " + l.T("lobby.unreachable_mark")
	}
	return line
}
