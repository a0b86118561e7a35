package bot

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// ActionPayload is the callback data of the button that makes seat take
// action a at the table's current game: what a tool or a test sends to
// drive the bot without reading its messages.
func ActionPayload(t *record.Table, seat int, a game.Action) string {
	return callback.Data{Op: 'a', Table: t.ID, GameNo: t.GameNo, Args: []int{seat, t.Seats[seat].Nonce, int(a)}}.String()
}

// LobbyPayload is the callback data of a lobby button: "join", "leave",
// "robot", "start" or "cancel" ("" for an unknown name).
func LobbyPayload(t *record.Table, button string) string {
	ops := map[string]int{"join": lobbyJoin, "leave": lobbyLeave, "robot": lobbyAddAI, "start": lobbyStart, "cancel": lobbyCancel,
		"hints": lobbyHints}
	op, ok := ops[button]
	if !ok {
		return ""
	}
	return callback.Data{Op: 'l', Table: t.ID, GameNo: t.GameNo, Args: []int{op}}.String()
}

// State decodes the table's current game (nil when it has none).
func State(t *record.Table, games ...adapter.Game) (game.State, error) {
	if t.State == nil {
		return nil, nil
	}
	k, ok := (&registry{games: games}).get(t.GameID)
	if !ok {
		return nil, errUnknownGame(t)
	}
	return k.Decode(t.State)
}
