package trickchef

import (
	"math/rand/v2"
	"testing"
)

func TestSmoke(t *testing.T) {
	st, err := New(DefaultConfig(4, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	steps := 0
	for !st.Over() {
		s, _ := st.Current()
		l := st.Legal(s)
		if len(l) == 0 {
			t.Fatalf("no legal at %v", st.PublicView())
		}
		if err := st.Apply(s, l[r.IntN(len(l))]); err != nil {
			t.Fatal(err)
		}
		b, _ := st.MarshalBinary()
		if _, err := Unmarshal(b); err != nil {
			t.Fatalf("step %d: %v %+v", steps, err, st.PublicView())
		}
		steps++
	}
	b, _ := st.MarshalBinary()
	t.Logf("steps %d size %d result %+v", steps, len(b), st.PublicView().Result)
}
