package bot

import (
	"fmt"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// ActionPayload is the callback data of the button that makes seat take
// action a at the table's current game: what a tool or a test sends to
// drive the bot without reading its messages.
func ActionPayload(t *record.Table, seat int, a game.Action) string {
	return callback.Data{Op: callback.Action, Table: t.ID, GameNo: t.GameNo, Args: []int{seat, t.Seats[seat].Nonce, int(a)}}.String()
}

// LobbyPayload is the callback data of a lobby button: "join", "leave",
// "robot", "start" or "cancel" ("" for an unknown name).
func LobbyPayload(t *record.Table, button string) string {
	ops := map[string]int{"join": callback.LobbyJoin, "leave": callback.LobbyLeave, "robot": callback.LobbyAddAI,
		"start": callback.LobbyStart, "cancel": callback.LobbyCancel, "hints": callback.LobbyHints}
	op, ok := ops[button]
	if !ok {
		return ""
	}
	return callback.Data{Op: callback.Lobby, Table: t.ID, GameNo: t.GameNo, Args: []int{op}}.String()
}

// State decodes the table's current game (nil when it has none).
func State(t *record.Table, games ...adapter.Game) (game.State, error) {
	if t.State == nil {
		return nil, nil
	}
	_, st, err := view.Decode(games, t)
	return st, err
}

// Replay rebuilds a table's game from its seed and action log. It must
// give exactly the state stored in t.State: that is how a game is audited
// after a crash (no move lost, none applied twice).
func Replay(t *record.Table, games ...adapter.Game) (game.State, error) {
	k, ok := view.Games(games).Get(t.GameID)
	if !ok {
		return nil, view.ErrUnknownGame(t)
	}
	replay := *t
	replay.Log = nil
	st, err := k.Start(adapter.View(&replay))
	if err != nil {
		return nil, err
	}
	for i, m := range t.Log {
		if err := st.Apply(m.Seat, m.Action); err != nil {
			return nil, fmt.Errorf("replay %s: move %d (%d by seat %d): %w", t.ID, i, m.Action, m.Seat, err)
		}
	}
	return st, nil
}
