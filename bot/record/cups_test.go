package record

import (
	"testing"
	"time"
)

// TestCrown: a cup's winners carry 🏆 in its game for CrownFor, the next
// cup of the game takes it over, and a forgotten person loses it.
func TestCupCrown(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	var tab Table
	tab.Crown("trickchef", []int64{1, 2}, now)
	tab.Crown("sausages", []int64{3}, now)
	switch {
	case !tab.Champion(1, "trickchef", now.Add(time.Hour)):
		t.Error("a winner carries no 🏆")
	case tab.Champion(1, "sausages", now):
		t.Error("🏆 in another game")
	case tab.Champion(1, "trickchef", now.Add(CrownFor)):
		t.Error("🏆 after its time")
	}
	tab.Crown("trickchef", []int64{2}, now.Add(time.Hour))
	if tab.Champion(1, "trickchef", now.Add(2*time.Hour)) || !tab.Champion(2, "trickchef", now.Add(2*time.Hour)) || !tab.Champion(3, "sausages", now) {
		t.Errorf("the next cup's crowns: %+v", tab.Crowns)
	}
	if !forgetCrowns(&tab, 2) || tab.Champion(2, "trickchef", now.Add(2*time.Hour)) {
		t.Error("a forgotten winner keeps 🏆")
	}
}
