package bot

import (
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
)

// registry holds the games the bot offers, in menu order.
type registry struct {
	games []adapter.Game
}

func (r *registry) get(id string) (adapter.Game, bool) {
	for _, g := range r.games {
		if g.ID() == id {
			return g, true
		}
	}
	return nil, false
}

// find resolves a word typed after /newgame or /rules.
func (r *registry) find(word string) (adapter.Game, bool) {
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

// levelLabel is the lobby's name of a robot level.
func levelLabel(l adapter.Loc, g adapter.Game, level string) string {
	return l.T(g.ID() + ".level." + level)
}

func (b *Bot) loc(lang string) adapter.Loc { return adapter.NewLoc(b.tr, lang) }

// tableLoc speaks the table's language, or the bot's default when a press
// or a request names no table the bot still has.
func (b *Bot) tableLoc(t *record.Table) adapter.Loc {
	if t == nil {
		return b.loc(b.cfg.DefaultLang)
	}
	return b.loc(t.Lang)
}
