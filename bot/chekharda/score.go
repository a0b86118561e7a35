package chekharda

import "github.com/trickchef/trickchef/bot"

// ScoreText counts the game's own points.
func (chekhardaGame) ScoreText(l bot.Loc, score int) string {
	return l.T("chekharda.count.points", "Count", score)
}
