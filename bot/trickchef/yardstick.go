package trickchef

import tc "github.com/trickchef/trickchef/game/trickchef"

// Yardsticks are the levels cmd/aibench measures the offered ones against:
// prevtop, the first «Шеф» kept unchanged (Auto plays any engine level),
// and baseline, the engine's Baseline, which Auto plays for a person whose
// time ran out.
func (trickchefGame) Yardsticks() map[string]string {
	return map[string]string{"prevtop": string(tc.PrevShef), "baseline": ""}
}
