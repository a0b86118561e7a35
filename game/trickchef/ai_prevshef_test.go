package trickchef

import "testing"

// TestPrevShefUnchanged: PrevShef and Cook decide exactly as the first
// «Шеф» and «Повар» did (the hash of their decisions over seeded games was
// taken from that code), so the arena's prevtop yardstick stays today's
// «Шеф».
func TestPrevShefUnchanged(t *testing.T) {
	var hsh uint64 = 1
	walkGames(t, 6, func(st *State, h History, g, step int) {
		if step%3 != 0 {
			return
		}
		s, _ := st.Current()
		v := st.SeatView(s)
		for _, l := range []Level{Cook, PrevShef} {
			a := Decide(l, v, h, uint64(step), Budget{Playouts: 60})
			hsh = hsh*1000003 + uint64(a)
		}
	})
	if hsh != 0x4538422ea0ee5ede {
		t.Fatalf("decision hash %x, want 4538422ea0ee5ede", hsh)
	}
}
