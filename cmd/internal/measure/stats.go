package measure

import "time"

// Quantile is the q-quantile (0..1; 1 is the maximum) of sorted durations
// in milliseconds, the sample at index ⌊q·n⌋; 0 for none.
func Quantile(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return Ms(sorted[min(int(q*float64(len(sorted))), len(sorted)-1)])
}

// Ms is d in milliseconds, to the microsecond.
func Ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
