package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// «Меню шефа»: a few games with every kind, 2 and 5 players; the JSON
// names the game, the per-seat win rates weighted by seats add up to 1
// (shared wins at closing time count 1/k each) and scores are colours.
func TestArenaChefSmoke(t *testing.T) {
	for _, players := range []string{"cook,novice", "shef,cook,novice,cook,novice"} {
		var out, errOut bytes.Buffer
		args := []string{"-game", "chef", "-games", "6", "-players", players, "-seed", "3"}
		if err := run(args, &out, &errOut); err != nil {
			t.Fatalf("%v\n%s", err, errOut.String())
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		var s struct {
			Games    int                `json:"games"`
			Game     string             `json:"game"`
			Players  []string           `json:"players"`
			WinRate  map[string]float64 `json:"win_rate"`
			AvgScore map[string]float64 `json:"avg_score"`
			P99      map[string]float64 `json:"decision_ms_p99"`
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
			t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
		}
		kinds := map[string]int{}
		for _, p := range strings.Split(players, ",") {
			kinds[p]++
		}
		if s.Games != 6 || s.Game != "chef" || len(s.Players) != len(strings.Split(players, ",")) || len(s.WinRate) != len(kinds) || len(s.P99) != len(kinds) {
			t.Fatalf("summary %+v", s)
		}
		total := 0.0
		for k, n := range kinds {
			total += float64(n) * s.WinRate[k]
			if x := s.AvgScore[k]; x < 0 || x > 7 {
				t.Fatalf("%s: %v colours on average", k, x)
			}
		}
		if total < 0.999 || total > 1.001 {
			t.Fatalf("win rates %v add up to %v", s.WinRate, total)
		}
	}
	var out, errOut bytes.Buffer
	for _, bad := range [][]string{{"-game", "chef", "-players", "cook"}, {"-game", "chef", "-players", "sly,cook"},
		{"-game", "chef", "-players", "cook,cook,cook,cook,cook,cook,cook,cook,cook"}} {
		if err := run(bad, &out, &errOut); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
