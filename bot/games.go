package bot

import (
	"strings"
	"time"

	"github.com/trickchef/trickchef/game"
)

// gameKind adapts one game to the platform. The lobby, store, delivery and
// timer code talk to games only through it and never branch on which game
// a table plays.
type gameKind interface {
	// ID is stored in tables and accepted after /newgame.
	ID() string
	// Aliases are other words accepted after /newgame (any case).
	Aliases() []string
	Title(l loc) string
	SeatRange() (min, max int)
	// Option describes the game's lobby option for the given seat count:
	// its button label, or ok=false when there is none. NextOption cycles it.
	Option(l loc, option, seats int) (label string, ok bool)
	NextOption(option int) int
	// Start deals a new game for the table's seats, option and seed.
	Start(t *Table) (game.State, error)
	Decode(data []byte) (game.State, error)
	// Levels are the robot levels offered in the lobby, easiest first.
	Levels() []string
	// Auto picks a move for a seat the bot plays: a robot, or a person
	// whose time ran out.
	Auto(st game.State, seat game.Seat, d decision) game.Action
	// Observe updates the robots' memory of public events after a move
	// (Трик-н-Шеф: voids and won cards), kept in the table record.
	Observe(memory []byte, st game.State) []byte
	// ClampMod validates a hand-keyboard modifier for a seat.
	ClampMod(st game.State, seat game.Seat, mod int) (int, bool)
	// ErrorKey maps an engine rule code to a locale key.
	ErrorKey(code game.Code) string
	RenderTable(l loc, t *Table, st game.State) message
	RenderHand(l loc, t *Table, st game.State, seat int) message
	// Info is the seat's private information shown in an alert (≤ 200 chars).
	Info(l loc, t *Table, st game.State, seat int) string
	// Announce lists the group messages that a move from before to after
	// produced (round results, the final result), in order.
	Announce(l loc, t *Table, before, after game.State) []message
	// Rules is the locale key of the short rules.
	Rules() string
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
	kinds []gameKind
}

func newRegistry() *registry {
	return &registry{kinds: []gameKind{trickchefKind{}, sausagesKind{}}}
}

func (r *registry) get(id string) (gameKind, bool) {
	for _, k := range r.kinds {
		if k.ID() == id {
			return k, true
		}
	}
	return nil, false
}

// find resolves a word typed after /newgame.
func (r *registry) find(word string) (gameKind, bool) {
	w := strings.ToLower(strings.TrimSpace(word))
	for _, k := range r.kinds {
		if w == k.ID() {
			return k, true
		}
		for _, a := range k.Aliases() {
			if w == strings.ToLower(a) {
				return k, true
			}
		}
	}
	return nil, false
}

// loc renders catalog messages in one language.
type loc struct {
	tr   Translator
	lang string
}

func (l loc) T(key string, args ...any) string { return l.tr.T(l.lang, key, args...) }

func (b *Bot) loc(lang string) loc { return loc{tr: b.tr, lang: lang} }
