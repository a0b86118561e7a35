package bot

import (
	"strings"
	"time"

	"github.com/trickchef/trickchef/game"
)

// Game adapts one game to the platform: the small core every game has.
// The lobby, store, delivery and timer code talk to games only through it
// and the optional capabilities below, and never branch on which game a
// table plays. Games are handed to New with WithGames; cmd/trickchef wires
// them in.
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
	// Start deals a new game for the table's seats, options and seed.
	Start(t *Table) (game.State, error)
	Decode(data []byte) (game.State, error)
	// RenderTable draws the group message of a game in progress or over.
	RenderTable(l loc, t *Table, st game.State) message
	// RenderSeat draws a seat's private message.
	RenderSeat(l loc, t *Table, st game.State, seat int) message
	// Announce lists the group messages that a move from before to after
	// produced (round results, the final result), in order.
	Announce(l loc, t *Table, before, after game.State) []message
}

// withOptions is a game with lobby options (table settings).
type withOptions interface {
	Options() []option
}

// option is one lobby setting. Its value is stored in Table.Options under
// Key; 0 is the default, and the lobby button cycles 0..Values-1.
type option struct {
	Key    string
	Values int
	// Shown reports whether the option matters for this many seats.
	Shown func(seats int) bool
	// Label is the button text for a value.
	Label func(l loc, value int) string
}

// withRobots is a game the bot can play for a seat: robots, and people
// whose time ran out.
type withRobots interface {
	// Levels are the robot levels offered in the lobby, easiest first.
	Levels() []string
	// Auto picks the move of a seat the bot plays, or ok=false to wait
	// (a real-time robot that sees nothing worth doing yet).
	Auto(st game.State, seat game.Seat, d decision) (a game.Action, ok bool)
}

// withMemory is a game whose robots remember public history (kept in the
// table record, so a replay decides exactly as the game did).
type withMemory interface {
	Observe(memory []byte, st game.State) []byte
}

// withDrafts is a game whose seat keyboards compose one action in several
// presses (the coins to put on a card; which dishes a penalty removes).
// The choice in progress is kept in Seat.Draft, never in the engine state,
// so the game never holds a half-move.
type withDrafts interface {
	// Draft returns the seat's choice after pressing value on top of the
	// current one, or ok=false when the press makes no sense now.
	Draft(st game.State, seat game.Seat, current []int, value int) (next []int, ok bool)
}

// withInfo is a game with private information shown in an alert (≤ 200
// characters).
type withInfo interface {
	Info(l loc, t *Table, st game.State, seat int) string
}

// withClocks is a game that sets its own timers: a real-time game's
// robots react like people, its people never time out, and its system
// seat moves after a quiet pause.
type withClocks interface {
	// Delay is how long after now the bot acts for seat s (game.System, a
	// robot of the given level, or a person: level ""); ok=false: never.
	// Seat timers run while the seat stays to act; the system's restarts
	// with every move.
	Delay(t *Table, st game.State, s game.Seat, level string, seed uint64) (d time.Duration, ok bool)
}

// withLiveButtons is a game whose buttons stay valid across moves: a press
// is judged against the current state only, never refused as stale (real
// time: "steal 🐷 from Оля" still works while it is still legal).
type withLiveButtons interface {
	LiveButtons() bool
}

// withExplain is a game that tells a refused player more than the error
// key says (who beat them to a set). a is the refused action, st the state
// it was judged against.
type withExplain interface {
	Explain(l loc, t *Table, st game.State, seat int, a game.Action, code game.Code) (string, bool)
}

// decision is what a move the bot makes for a seat depends on.
type decision struct {
	Level  string        // the robot's level; "" for a person who timed out
	Seed   uint64        // so the choice is reproducible
	Memory []byte        // what Observe kept of the game's public history
	Budget time.Duration // how long a searching robot may think
}

// registry holds the games the bot offers, in menu order.
type registry struct {
	games []Game
}

func (r *registry) get(id string) (Game, bool) {
	for _, g := range r.games {
		if g.ID() == id {
			return g, true
		}
	}
	return nil, false
}

// find resolves a word typed after /newgame or /rules.
func (r *registry) find(word string) (Game, bool) {
	w := strings.ToLower(strings.TrimSpace(word))
	for _, g := range r.games {
		if w == g.ID() {
			return g, true
		}
		for _, a := range g.Aliases() {
			if w == strings.ToLower(a) {
				return g, true
			}
		}
	}
	return nil, false
}

// Capability helpers: what the platform does when a game lacks one.

func levels(g Game) []string {
	if r, ok := g.(withRobots); ok {
		return r.Levels()
	}
	return nil
}

func options(g Game) []option {
	if o, ok := g.(withOptions); ok {
		return o.Options()
	}
	return nil
}

func liveButtons(g Game) bool {
	l, ok := g.(withLiveButtons)
	return ok && l.LiveButtons()
}

func title(l loc, g Game) string { return l.T(g.ID() + ".title") }

// levelLabel is the lobby's name of a robot level.
func levelLabel(l loc, g Game, level string) string { return l.T(g.ID() + ".level." + level) }

// errorKey maps an engine rule code to the game's own text, or the shared one.
func errorKey(l loc, g Game, code game.Code) string {
	if k := g.ID() + ".error." + string(code); l.Has(k) {
		return k
	}
	return "error." + string(code)
}

// optionValue is the table's value of a game option, 0 when unset or out
// of range (a stored record from an older version).
func optionValue(t *Table, g Game, key string) int {
	for _, o := range options(g) {
		if o.Key == key {
			if v := t.Options[key]; v >= 0 && v < o.Values {
				return v
			}
			return 0
		}
	}
	return 0
}

// loc renders catalog messages in one language.
type loc struct {
	tr   Translator
	lang string
}

func (l loc) T(key string, args ...any) string { return l.tr.T(l.lang, key, args...) }

// Has reports whether the catalog has key.
func (l loc) Has(key string) bool { return l.tr.Has(key) }

func (b *Bot) loc(lang string) loc { return loc{tr: b.tr, lang: lang} }
