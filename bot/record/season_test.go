package record

import (
	"testing"
	"time"
)

// TestSeasonChampionForgotten: a champion who asks to be forgotten
// carries 🏆 nowhere any more; the other champions keep theirs.
func TestSeasonChampionForgotten(t *testing.T) {
	now := time.Date(2026, time.December, 5, 12, 0, 0, 0, time.UTC)
	tab := &Table{ID: "-100123", ChatID: -100123, Season: &Season{Month: "2026-11", Until: now.Add(time.Hour),
		Champions: map[string][]int64{"trickchef": {7, 8}, "sausages": {7}}}}
	if !tab.Champion(7, "trickchef", now) || tab.Champion(7, "chef", now) || tab.Champion(7, "trickchef", now.Add(time.Hour)) {
		t.Fatal("Champion: wrong game or time")
	}
	if !tab.Forget(7, "игрок удалён") {
		t.Fatal("forgetting a champion changed nothing")
	}
	if tab.Champion(7, "trickchef", now) || tab.Champion(7, "sausages", now) || !tab.Champion(8, "trickchef", now) {
		t.Errorf("after Forget(7): %+v", tab.Season.Champions)
	}
	if (&Table{}).Champion(7, "trickchef", now) {
		t.Error("a table without a season has a champion")
	}
}
