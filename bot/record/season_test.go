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
		Champions: map[string][]int64{"g1": {7, 8}, "g2": {7}}}}
	if !tab.Champion(7, "g1", now) || tab.Champion(7, "g3", now) || tab.Champion(7, "g1", now.Add(time.Hour)) {
		t.Fatal("Champion: wrong game or time")
	}
	if !tab.Forget(7, "игрок удалён") {
		t.Fatal("forgetting a champion changed nothing")
	}
	if tab.Champion(7, "g1", now) || tab.Champion(7, "g2", now) || !tab.Champion(8, "g1", now) {
		t.Errorf("after Forget(7): %+v", tab.Season.Champions)
	}
	if (&Table{}).Champion(7, "g1", now) {
		t.Error("a table without a season has a champion")
	}
}
