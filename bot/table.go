package bot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// tableIn is the table of chat that a button naming table id belongs to:
// id itself when it is in that chat (its topic kept), else the chat's own
// table — a forged id never reaches another chat's record.
func tableIn(id string, chat int64) string {
	if c, _, err := record.ParseID(id); err == nil && c == chat {
		return id
	}
	return record.ID(chat, 0)
}

// Views are the messages the bot keeps up to date. Their names carry the
// game number, so each game gets fresh messages and an old game's message is
// never edited into a new one.

// tableView names the one group message of a game: lobby, table, result.
func tableView(gameNo int) string { return "table:" + strconv.Itoa(gameNo) }

// handView names the private hand message of a seat.
func handView(gameNo, seat int) string {
	return "hand:" + strconv.Itoa(gameNo) + ":" + strconv.Itoa(seat)
}

// parseView splits a view name into its kind ("table" or "hand"), game
// number and seat (-1 for the table).
func parseView(v string) (kind string, gameNo, seat int, ok bool) {
	parts := strings.Split(v, ":")
	var err error
	switch {
	case len(parts) == 2 && parts[0] == "table":
		gameNo, err = strconv.Atoi(parts[1])
		return "table", gameNo, -1, err == nil && tableView(gameNo) == v
	case len(parts) == 3 && parts[0] == "hand":
		gameNo, err = strconv.Atoi(parts[1])
		if err != nil {
			return "", 0, 0, false
		}
		seat, err = strconv.Atoi(parts[2])
		return "hand", gameNo, seat, err == nil && seat >= 0 && handView(gameNo, seat) == v
	}
	return "", 0, 0, false
}

// Replay rebuilds a table's game from its seed and action log. It must
// give exactly the state stored in t.State: that is how a game is audited
// after a crash (no move lost, none applied twice).
func Replay(t *record.Table, games ...adapter.Game) (game.State, error) {
	k, ok := (&registry{games: games}).get(t.GameID)
	if !ok {
		return nil, errUnknownGame(t)
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

func errUnknownGame(t *record.Table) error {
	return fmt.Errorf("table %s plays unknown game %q", t.ID, t.GameID)
}
