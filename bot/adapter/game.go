package adapter

import (
	"strings"
	"time"

	"github.com/trickchef/trickchef/game"
)

// Game adapts one game to the platform: the small core every game has.
// The lobby, store, delivery and timer code talk to games only through it
// and the optional capabilities below, and never branch on which game a
// table plays. Games are handed to bot.New in Params.Games; cmd/trickchef wires
// them in.
//
// The platform hands every method the table as a TableView (read-only)
// and the texts as a Loc in the table's language; an adapter keeps no
// state of its own.
//
// Conventions instead of methods: the game's id prefixes every locale key
// it owns ("<id>.title", "<id>.rules", "<id>.level.<level>",
// "<id>.option.<key>"), and an engine rule code maps to "<id>.error.<code>",
// or to the shared "error.<code>" when the game has no text of its own.
type Game interface {
	// ID is stable: it is stored in table records, carried in callback
	// data and accepted after /newgame. Lowercase ASCII letters and digits.
	ID() string
	// Aliases are other words accepted after /newgame (any case).
	Aliases() []string
	SeatRange() (min, max int)
	// Start deals a new game for the table's seats, Options and seed.
	Start(t TableView) (game.State, error)
	Decode(data []byte) (game.State, error)
	// RenderTable draws the group message of a game in progress or over.
	RenderTable(l Loc, t TableView, st game.State) Message
	// RenderSeat draws a seat's private message.
	RenderSeat(l Loc, t TableView, st game.State, seat int) Message
	// Announce lists the group messages that a move from before to after
	// produced (round results, the final result), in order.
	Announce(l Loc, t TableView, before, after game.State) []Message
}

// OptionGame is a Game with lobby Options (table settings). The lobby
// shows one button per option and stores the chosen values in
// Table.Options; Start reads them with OptionValue.
type OptionGame interface {
	Options() []GameOption
}

// GameOption is one lobby setting. Its value is stored in Table.Options
// under Key; 0 is the default, and the lobby button cycles 0..Values-1.
type GameOption struct {
	Key    string
	Values int
	// Shown reports whether the option matters for this many seats.
	Shown func(seats int) bool
	// Label is the button text for a value.
	Label func(l Loc, value int) string
}

// RobotGame is a game the bot can play for a seat: robots, and people
// whose time ran out.
type RobotGame interface {
	// Levels are the robot Levels offered in the lobby, easiest first.
	Levels() []string
	// Auto picks the move of a seat the bot plays, or ok=false to wait
	// (a real-time robot that sees nothing worth doing yet).
	Auto(st game.State, seat game.Seat, d Decision) (a game.Action, ok bool)
}

// MemoryGame is a RobotGame whose robots remember public history (kept in the
// table record, so a replay decides exactly as the game did).
type MemoryGame interface {
	Observe(memory []byte, st game.State) []byte
}

// DraftGame is a game whose seat keyboards compose one action in several
// presses (the coins to put on a card; which dishes a penalty removes).
// The choice in progress is kept in Seat.Draft, never in the engine state,
// so the game never holds a half-move.
type DraftGame interface {
	// Draft returns the seat's choice after pressing value on top of the
	// current one, or ok=false when the press makes no sense now.
	Draft(st game.State, seat game.Seat, current []int, value int) (next []int, ok bool)
}

// InfoGame is a game with private information shown in an alert (≤ 200
// characters).
type InfoGame interface {
	Info(l Loc, t TableView, st game.State, seat int) string
}

// ClockGame is a game that sets its own timers: a real-time game's
// robots react like people, its people never time out, and its system
// seat moves after a quiet pause.
type ClockGame interface {
	// Delay is how long after now the bot acts for seat s (game.System, a
	// robot of the given level, or a person: level ""); ok=false: never.
	// Seat timers run while the seat stays to act; the system's restarts
	// with every move.
	Delay(t TableView, st game.State, s game.Seat, level string, seed uint64) (d time.Duration, ok bool)
}

// LiveGame is a game whose buttons stay valid across moves: a press
// is judged against the current state only, never refused as stale (real
// time: "steal 🐷 from Оля" still works while it is still legal).
type LiveGame interface {
	LiveButtons() bool
}

// ExplainGame is a game that tells a refused player more than the error
// key says (who beat them to a set). a is the refused action, st the state
// it was judged against.
type ExplainGame interface {
	Explain(l Loc, t TableView, st game.State, seat int, a game.Action, code game.Code) (string, bool)
}

// MoveGame is a game that names a move for the player who made it: the
// toast that confirms a press («Ход принят: 🟨9») and the line their
// private message turns into while they wait («Вы сыграли 🟨9»). Without
// it the platform only says that the move counted.
type MoveGame interface {
	// MoveName is a short name of seat's action a, judged in the state
	// before it, in plain text as on a button (the platform escapes it):
	// a card, the label of the button that made the move. "" for none.
	MoveName(l Loc, t TableView, before game.State, seat game.Seat, a game.Action) string
}

// ScoreGame is a game whose scores have a unit of their own: the private
// result and /history say «1 успех», «6 цветов». Without it a score is
// shown as points («27 очков», count.points).
type ScoreGame interface {
	ScoreText(l Loc, score int) string
}

// ScoreText is a score of game g with its unit, a negative one with a
// true minus («−3 очка»).
func ScoreText(l Loc, g Game, score int) string {
	text := l.T("count.points", "Count", score)
	if s, ok := g.(ScoreGame); ok {
		text = s.ScoreText(l, score)
	}
	if score < 0 {
		text = strings.Replace(text, "-", "−", 1)
	}
	return text
}

// HintGame is a RobotGame that can advise a person: what its top level
// (the last of Levels) would do for the seat now, and one line of why in
// plain words, from what that robot computed (a search's share of
// playouts the move wins, what the move does in the trick). The platform
// hands it the Decision the top level would get at this point, so the
// advice is the robot's own choice, found within its budget.
type HintGame interface {
	Hint(l Loc, t TableView, st game.State, seat int, d Decision) Hint
}

// Hint is a move advised to a person. Action is one of the seat's legal
// actions, or -1 when the best thing is to make none now (a real-time
// game where waiting is wiser); Why is a single line either way.
type Hint struct {
	Action game.Action
	Why    string
}

// Decision is what a move the bot makes for a seat depends on: the
// platform fills it from the seat and the table record, so the same
// inputs give the same move on any replica and in a replay.
type Decision struct {
	Level  string        // the robot's level; "" for a person who timed out
	Seed   uint64        // so the choice is reproducible
	Memory []byte        // what Observe kept of the game's public history
	Budget time.Duration // how long a searching robot may think
	// Playouts is a searching robot's budget as a count (its engine's
	// playouts), which alone decides when Budget is 0; 0: the level's
	// default. The bot leaves it 0; a review and the bench tools set it.
	Playouts int
}

// Levels are the robot levels of g; none without robots.
func Levels(g Game) []string {
	if r, ok := g.(RobotGame); ok {
		return r.Levels()
	}
	return nil
}

// Options are the lobby options of g; none without them.
func Options(g Game) []GameOption {
	if o, ok := g.(OptionGame); ok {
		return o.Options()
	}
	return nil
}

// LiveButtons reports whether g's buttons stay valid across moves.
func LiveButtons(g Game) bool {
	l, ok := g.(LiveGame)
	return ok && l.LiveButtons()
}

// Title is the game's name in the catalog ("<id>.title").
func Title(l Loc, g Game) string { return l.T(g.ID() + ".title") }

// ErrorKey is the catalog key of an engine rule code: the game's own
// "<id>.error.<code>" when the catalog has it, else the shared
// "error.<code>".
func ErrorKey(l Loc, g Game, code game.Code) string {
	if k := g.ID() + ".error." + string(code); l.Has(k) {
		return k
	}
	return "error." + string(code)
}

// OptionValue is the table's value of a game option, 0 when unset or out
// of range (a stored record from an older version).
func OptionValue(v TableView, g Game, key string) int {
	t := v.t
	for _, o := range Options(g) {
		if o.Key == key {
			if v := t.Options[key]; v >= 0 && v < o.Values {
				return v
			}
			return 0
		}
	}
	return 0
}

// TipGame is a game that teaches its first game: Tips names the key
// moments a move from before to after was for seat (a trump change, coins
// won, a failed attempt, a dish stolen, a set completed…), most telling
// first. Each is a tip id whose text is "<game id>.tip.<tip>".
type TipGame interface {
	Tips(before, after game.State, seat int) []string
}
