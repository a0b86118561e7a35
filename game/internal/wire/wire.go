// Package wire reads the engines' compact state encodings. A Reader never
// panics on short input: it records the overrun, so a decoder reads every
// field and checks Bad once, and garbage is refused rather than crashing.
package wire

import "encoding/binary"

// Error is a constant error (engines declare their ErrCorrupt with it, so
// they keep no error variables).
type Error string

func (e Error) Error() string { return string(e) }

// Reader consumes bytes from B.
type Reader struct {
	B   []byte
	Bad bool // set once a read ran past the end (or a decoder found a bad value)
}

// Byte reads one byte (0 past the end).
func (r *Reader) Byte() byte {
	if len(r.B) == 0 {
		r.Bad = true
		return 0
	}
	v := r.B[0]
	r.B = r.B[1:]
	return v
}

// Bytes fills dst.
func (r *Reader) Bytes(dst []uint8) {
	for i := range dst {
		dst[i] = r.Byte()
	}
}

// U64 reads a little-endian uint64 (0 past the end).
func (r *Reader) U64() uint64 {
	if len(r.B) < 8 {
		r.Bad = true
		r.B = nil
		return 0
	}
	v := binary.LittleEndian.Uint64(r.B)
	r.B = r.B[8:]
	return v
}
