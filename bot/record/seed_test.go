package record

import "testing"

// DecisionSeed is the runtime's seed formula (bot/timers.go's seatSeed)
// bit for bit: the values are seatSeed's for tables of the same seed and
// log length. A change would make reviews of stored games ask the top
// level with other seeds than the games' own decisions had.
func TestDecisionSeed(t *testing.T) {
	for _, c := range []struct {
		seed  uint64
		moves int
		want  uint64
	}{
		{0, 0, 0x642b3651143776fe},
		{42, 3, 0xb3df69d136eece68},
		{^uint64(0), 400, 0x15f14dedf307bbce},
	} {
		if got := DecisionSeed(c.seed, c.moves); got != c.want {
			t.Errorf("DecisionSeed(%d, %d) = %#x, want %#x", c.seed, c.moves, got, c.want)
		}
	}
}
