package wire

import "testing"

func TestReaderOverrun(t *testing.T) {
	r := Reader{B: []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}}
	if v := r.U64(); v != 0x0807060504030201 || r.Bad {
		t.Fatalf("U64 = %#x, bad %v", v, r.Bad)
	}
	if v := r.Byte(); v != 9 || r.Bad {
		t.Fatalf("Byte = %d, bad %v", v, r.Bad)
	}
	if v := r.Byte(); v != 0 || !r.Bad {
		t.Fatalf("past the end: %d, bad %v", v, r.Bad)
	}
	r = Reader{B: []byte{1, 2}}
	var dst [3]byte
	r.Bytes(dst[:])
	if dst != [3]byte{1, 2, 0} || !r.Bad {
		t.Fatalf("Bytes = %v, bad %v", dst, r.Bad)
	}
	if r.U64() != 0 || !r.Bad {
		t.Fatal("U64 on empty input")
	}
}
