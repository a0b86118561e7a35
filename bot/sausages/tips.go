package sausages

import (
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// Tips names the first game's key moments of a move: the bidding begun,
// an attempt decided (a success, a boot turned).
func (sausagesGame) Tips(before, after game.State, seat int) []string {
	b, a := before.(*ss.State).PublicView(), after.(*ss.State).PublicView()
	var tips []string
	if o := a.LastRound; o != nil && (b.LastRound == nil || b.LastRound.Round != o.Round) {
		if o.Success {
			tips = append(tips, "success")
		} else {
			tips = append(tips, "fail")
		}
	}
	if a.Phase == ss.PhaseBid && b.Phase != ss.PhaseBid {
		tips = append(tips, "bid")
	}
	return tips
}
