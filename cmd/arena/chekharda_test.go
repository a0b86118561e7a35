package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// «Чехарда»: a few games with every level; the per-seat win rates weighted
// by seats add up to 1 (a shared win counts 1/k to each), the JSON names
// the game, and the average totals are those of finished games.
func TestArenaChekhardaSmoke(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"-game", "chekharda", "-games", "10", "-players", "shef,cook,novice,cook", "-seed", "3"}
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
	if s.Games != 10 || s.Game != "chekharda" || len(s.Players) != 4 || len(s.WinRate) != 3 || len(s.P99) != 3 {
		t.Fatalf("summary %+v", s)
	}
	total := s.WinRate["shef"] + 2*s.WinRate["cook"] + s.WinRate["novice"]
	if total < 0.999 || total > 1.001 {
		t.Fatalf("win rates %v add up to %v", s.WinRate, total)
	}
	best := 0.0
	for k, x := range s.AvgScore {
		if x < 0 {
			t.Fatalf("%s: average total %v", k, x)
		}
		best = max(best, x)
	}
	if best < 30 {
		t.Fatalf("average totals %v: nobody near the target", s.AvgScore)
	}
	t.Log(out.String())
}

// The same seed gives the same games whatever the parallelism; two and six
// players work; bad player lists are refused.
func TestArenaChekhardaDeterministic(t *testing.T) {
	for _, players := range []string{"shef,novice", "cook,cook,shef,novice,novice,shef"} {
		base := []string{"-game", "chekharda", "-games", "6", "-players", players, "-seed", "9"}
		var a, b bytes.Buffer
		if err := run(append(base, "-workers", "1"), &a, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		if err := run(append(base, "-workers", "3"), &b, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		if sameScores(t, a.String()) != sameScores(t, b.String()) {
			t.Fatalf("%v: results differ:\n%s\n%s", base, a.String(), b.String())
		}
	}
	for _, players := range []string{"shef", "shef,cook,cook,cook,cook,cook,cook", "shef,sly"} {
		if err := run([]string{"-game", "chekharda", "-players", players}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Fatalf("%s accepted", players)
		}
	}
}
