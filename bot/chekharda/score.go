package chekharda

import "github.com/trickchef/trickchef/bot/adapter"

// ScoreText counts the game's own points.
func (chekhardaGame) ScoreText(l adapter.Loc, score int) string {
	return l.T("chekharda.count.points", "Count", score)
}
