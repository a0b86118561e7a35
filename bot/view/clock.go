package view

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
)

// Long games: a table whose time for a move is an hour or more
// (record.LongTurn) plays over days. Its deadlines are clock times in the
// group's zone (a lobby setting shown only for long times, kept for the
// group's next games like the time itself), its night does not count,
// the person whose turn it is gets one reminder in private, and its group
// message says it is the long game. A group may play quick games at its
// other tables meanwhile (tables.go).

// Long reports whether t's people have long turns: its game takes turns
// (no clocks of its own) and its time for a move is an hour or more.
func (r *Renderer) Long(t *record.Table) bool {
	g, ok := r.games.Get(t.GameID)
	return ok && HasTurnTime(g) && record.Long(r.TurnTime(t))
}

// NightText is a night on the wall clock: «23:00–09:00».
func NightText(n record.Night) string {
	hm := func(d time.Duration) string { return fmt.Sprintf("%02d:%02d", d/time.Hour, d%time.Hour/time.Minute) }
	return hm(n.From) + "–" + hm(n.To)
}

// ZoneName is the table's time zone as its group reads it: «Москва».
func ZoneName(l adapter.Loc, t *record.Table) string {
	return l.T("zone." + record.ZoneOf(t.Zone).Key)
}

// longLine is the group message's line of a long game while it runs: it
// says how the table's clock runs.
func (r *Renderer) longLine(l adapter.Loc, t *record.Table) string {
	if t.Phase != record.PhasePlaying || !r.Long(t) {
		return ""
	}
	return l.T("table.long", "Turn", TurnTimeText(l, r.TurnTime(t)), "Night", NightText(record.DefaultNight()), "Zone", ZoneName(l, t))
}

// longLobby is what a lobby adds for long games: on a long time for a
// move the zone (a button that shows the zones) and the night.
func (r *Renderer) longLobby(l adapter.Loc, t *record.Table) (string, [][]adapter.Button) {
	var sb strings.Builder
	var rows [][]adapter.Button
	if r.Long(t) {
		label := l.T("lobby.zone_button", "Zone", ZoneName(l, t))
		sb.WriteString(label + "\n" + l.T("lobby.night", "Night", NightText(record.DefaultNight())) + "\n")
		rows = append(rows, []adapter.Button{lobbyButton(t, label, callback.LobbyZone)})
	}
	return sb.String(), rows
}

// zonePicker is the lobby while its creator picks the group's zone: the
// lobby's lines, then the rows of top (joining, leaving), the zones three
// a row with the group's marked, and a way back.
func (r *Renderer) zonePicker(l adapter.Loc, t *record.Table, text string, top [][]adapter.Button) adapter.Message {
	kb := slices.Clone(top)
	current := record.ZoneOf(t.Zone).Name
	for i, z := range record.Zones() {
		label := l.T("zone." + z.Key)
		if z.Name == current {
			label = "• " + label
		}
		if i%3 == 0 {
			kb = append(kb, nil)
		}
		row := &kb[len(kb)-1]
		*row = append(*row, lobbyButton(t, label, callback.LobbyZone, i))
	}
	kb = append(kb, []adapter.Button{lobbyButton(t, l.T("lobby.zone_back"), callback.LobbyZone)})
	return adapter.Message{Text: text + "\n" + l.T("lobby.zone_pick"), Keyboard: kb}
}

// Reminder is the one private message of a person's long turn, sent when
// about a quarter of their time is left: which game in which group, and
// until when (the hand above it has the buttons).
func (r *Renderer) Reminder(t *record.Table, seat int) adapter.Message {
	l := r.Loc(t.Lang)
	game := ""
	if g, ok := r.games.Get(t.GameID); ok {
		game = adapter.Title(l, g)
	}
	return adapter.Message{Text: l.T("remind.text", "Game", game, "Title", adapter.Esc(t.Title),
		"Until", adapter.Until(l, t.Location(), r.now(), t.Seats[seat].Due))}
}

// AutoNotice tells a group, once, that the bot plays for a person of its
// long game from now on (their time ran out twice in a row): the table's
// notice of a timeout is an edit, which nobody hears of for hours.
func (r *Renderer) AutoNotice(t *record.Table, seat int) adapter.Message {
	l := r.Loc(t.Lang)
	return adapter.Message{Text: l.T("auto.group", "Name", adapter.Esc(t.Seats[seat].Name))}
}
