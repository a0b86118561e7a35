// Package splitmix is the engines' random generator. It is one word of
// state, so it lives inside a game state, marshals as a plain uint64 and
// makes every game replayable from its seed.
package splitmix

import "math/bits"

// Rand is a splitmix64 generator; its value is its whole state.
type Rand uint64

// Next returns the next 64 random bits.
func (r *Rand) Next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Below returns a number in [0, n) (multiply-high; the bias is < n/2^64).
func (r *Rand) Below(n int) int {
	hi, _ := bits.Mul64(r.Next(), uint64(n))
	return int(hi)
}

// Float64 returns a number in [0, 1).
func (r *Rand) Float64() float64 {
	return float64(r.Next()>>11) / (1 << 53)
}
