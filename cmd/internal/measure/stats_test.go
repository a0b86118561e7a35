package measure

import (
	"testing"
	"time"
)

func TestQuantile(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n) * time.Millisecond
		}
		return out
	}
	for _, c := range []struct {
		sorted []time.Duration
		q      float64
		want   float64
	}{
		{nil, 0.5, 0},
		{ms(1, 2), 0.99, 2},
		{ms(1, 2), 0.5, 2},
		{ms(1, 2, 3), 0.5, 2},
		{ms(1, 2, 3), 1, 3},
		{ms(1, 2, 3), 0, 1},
	} {
		if got := Quantile(c.sorted, c.q); got != c.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v", c.sorted, c.q, got, c.want)
		}
	}
	if got := Ms(1500 * time.Microsecond); got != 1.5 {
		t.Errorf("Ms(1.5ms) = %v", got)
	}
}
