package bot_test

import "github.com/trickchef/trickchef/bot"

// allGames are the games the tests' bot offers, as cmd/trickchef wires them.
func allGames() []bot.Game {
	return []bot.Game{bot.Trickchef(), bot.Sausages(), bot.Chef(), bot.Chekharda()}
}
