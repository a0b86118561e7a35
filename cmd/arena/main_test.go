package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// A few games with a tiny search budget; the last line must be the JSON
// summary, with win rates that add up to one game's worth of wins.
func TestArenaSmoke(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"-games", "4", "-players", "shef,cook,novice,cook", "-seed", "3", "-playouts", "8"}
	if err := run(args, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var s struct {
		Games   int                `json:"games"`
		Players []string           `json:"players"`
		WinRate map[string]float64 `json:"win_rate"`
		P99     map[string]float64 `json:"decision_ms_p99"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	if s.Games != 4 || len(s.Players) != 4 || len(s.WinRate) != 3 || len(s.P99) != 3 {
		t.Fatalf("summary %+v", s)
	}
	// Per-seat rates weighted by seats of each kind add up to 1.
	total := s.WinRate["shef"] + 2*s.WinRate["cook"] + s.WinRate["novice"]
	if total < 0.999 || total > 1.001 {
		t.Fatalf("win rates %v add up to %v", s.WinRate, total)
	}
	t.Log(out.String())
}

// Сосиски: a few games with every kind; one winner per game, so the
// per-seat rates weighted by seats add up to 1, and the JSON names the game.
func TestArenaSausagesSmoke(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"-game", "sausages", "-games", "10", "-players", "sly,novice,random,novice,sly", "-seed", "3"}
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
	if s.Games != 10 || s.Game != "sausages" || len(s.Players) != 5 || len(s.WinRate) != 3 || len(s.P99) != 3 {
		t.Fatalf("summary %+v", s)
	}
	total := 2*s.WinRate["sly"] + 2*s.WinRate["novice"] + s.WinRate["random"]
	if total < 0.999 || total > 1.001 {
		t.Fatalf("win rates %v add up to %v", s.WinRate, total)
	}
	for k, x := range s.AvgScore {
		if x < 0 || x > 2 {
			t.Fatalf("%s: %v successes on average", k, x)
		}
	}
	t.Log(out.String())
}

// The same seed gives the same games whatever the parallelism.
func TestArenaDeterministic(t *testing.T) {
	for _, base := range [][]string{
		{"-games", "3", "-players", "shef,cook,novice", "-seed", "9", "-playouts", "6"},
		{"-game", "sausages", "-games", "30", "-players", "sly,novice,random,random", "-seed", "9"},
	} {
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
}

// sameScores is the part of the JSON line that must not depend on
// scheduling.
func sameScores(t *testing.T, s string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(s), "\n")
	var x struct {
		WinRate  map[string]float64 `json:"win_rate"`
		AvgScore map[string]float64 `json:"avg_score"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &x); err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(x)
	return string(j)
}

func TestArenaBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-players", "shef,cook"},
		{"-players", "shef,cook,chef"},
		{"-games", "0"},
		{"-game", "chess"},
		{"-game", "sausages", "-players", "sly,cook,novice"},
		{"-game", "sausages", "-players", "sly,novice"},
		{"-game", "sausages", "-players", "sly,novice,novice,novice,novice,novice,novice"},
		{"-players", "sly,novice,novice"},
		{"-players", "shef,cook,cook,cook,cook"},
	} {
		if err := run(args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Fatalf("%v accepted", args)
		}
	}
}
