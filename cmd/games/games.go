// Package games lists the games the bot offers, once, for the bot
// (cmd/trickchef), for the tools that measure it and for the platform's
// tests, so a measurement or a test always covers what players get. It is
// not internal: the tests under bot/ range over it (the shared machinery
// itself never imports it; games are wired in from cmd/).
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
