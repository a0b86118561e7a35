package sausages

import "math/bits"

// rng is a splitmix64 generator: one word of state, so it lives inside the
// State and marshals trivially.
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// below returns a number in [0, n) (multiply-high; the bias is < n/2^64).
func (r *rng) below(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}
