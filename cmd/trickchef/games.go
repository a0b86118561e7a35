package main

import "github.com/trickchef/trickchef/bot"

// games are the games the bot offers, in menu order. Adding a game means
// one engine under game/, its adapter in bot/, and a line here.
func games() []bot.Game {
	return []bot.Game{bot.Trickchef(), bot.Sausages(), bot.Chef(), bot.Chekharda()}
}
