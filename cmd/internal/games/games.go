// Package games lists the games the bot offers, once, for the bot
// (cmd/trickchef) and for the tools that measure it, so a measurement
// always covers what players get.
package games

import "github.com/trickchef/trickchef/bot"

// All returns the games the bot offers, in menu order. Adding a game means
// one engine under game/, its adapter in bot/, and a line here.
func All() []bot.Game {
	return []bot.Game{bot.Trickchef(), bot.Sausages(), bot.Chef(), bot.Chekharda()}
}
