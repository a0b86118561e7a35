package sausages

import "github.com/trickchef/trickchef/bot"

// ScoreText counts successful challenges, the game's score.
func (sausagesGame) ScoreText(l bot.Loc, score int) string {
	return l.T("sausages.final_line", "Count", score)
}
