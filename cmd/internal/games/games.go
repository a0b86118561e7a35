// Package games lists the games the bot offers, once, for the bot
// (cmd/trickchef) and for the tools that measure it, so a measurement
// always covers what players get.
package games

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/chekharda"
	"github.com/trickchef/trickchef/bot/sausages"
	"github.com/trickchef/trickchef/bot/trickchef"
)

// All returns the games the bot offers, in menu order. Adding a game means
// one engine under game/, its adapter under bot/, and a line here.
func All() []adapter.Game {
	return []adapter.Game{trickchef.Game(), sausages.Game(), chef.Game(), chekharda.Game()}
}
