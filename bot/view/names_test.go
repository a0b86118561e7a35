package view

import "testing"

func TestViewRoundTrip(t *testing.T) {
	for _, g := range []int{0, 1, 42, 99999} {
		v := Table(g)
		kind, gameNo, seat, ok := Parse(v)
		if !ok || kind != "table" || gameNo != g || seat != -1 {
			t.Errorf("Parse(%q) = %q, %d, %d, %v; want table, %d, -1, true", v, kind, gameNo, seat, ok, g)
		}
		for _, s := range []int{0, 1, 3, 9} {
			v := Hand(g, s)
			kind, gameNo, seat, ok := Parse(v)
			if !ok || kind != "hand" || gameNo != g || seat != s {
				t.Errorf("Parse(%q) = %q, %d, %d, %v; want hand, %d, %d, true", v, kind, gameNo, seat, ok, g, s)
			}
		}
	}
	if Table(3) == Hand(3, 0) || Hand(1, 23) == Hand(12, 3) {
		t.Error("view names collide")
	}
}

func TestParseViewRejects(t *testing.T) {
	for _, v := range []string{
		"", "table", "table:", "table:x", "table:1:2", "Table:1",
		"hand", "hand:1", "hand:1:", "hand::1", "hand:x:1", "hand:1:x", "hand:1:2:3",
		"lobby:1", ":1", "table 1",
	} {
		if kind, gameNo, seat, ok := Parse(v); ok {
			t.Errorf("Parse(%q) = %q, %d, %d, true; want false", v, kind, gameNo, seat)
		}
	}
}
