package sausages

import "github.com/trickchef/trickchef/bot/adapter"

// ScoreText counts successful challenges, the game's score.
func (sausagesGame) ScoreText(l adapter.Loc, score int) string {
	return l.T("sausages.final_line", "Count", score)
}
