package view

import (
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
)

// Games are the games the bot offers, in menu order.
type Games []adapter.Game

// Get is the game with the stable id.
func (gs Games) Get(id string) (adapter.Game, bool) {
	for _, g := range gs {
		if g.ID() == id {
			return g, true
		}
	}
	return nil, false
}

// Find resolves a word typed after /newgame or /rules: an id or an alias.
func (gs Games) Find(word string) (adapter.Game, bool) {
	w := strings.ToLower(strings.TrimSpace(word))
	for _, g := range gs {
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
