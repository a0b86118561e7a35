package standings

import "testing"

// TestHolds: a person is held by JSON that has their id as a number or
// their player id as a key or a value, anywhere; a longer number, their id
// inside a string, or someone else's player id does not hold them; bytes
// that are not JSON hold them when their digits appear.
func TestHolds(t *testing.T) {
	const user = 4242
	cases := []struct {
		data string
		want bool
	}{
		{`{"seats":[{"user_id":4242}]}`, true},
		{`{"players":{"u4242":1}}`, true},
		{`["u4242"]`, true},
		{`{"seats":[{"user_id":42420}]}`, false},
		{`{"name":"4242 fan"}`, false},
		{`{"players":{"u4243":1}}`, false},
		{`not json 4242`, true},
		{`not json`, false},
	}
	for _, c := range cases {
		if got := Holds([]byte(c.data), user); got != c.want {
			t.Errorf("Holds(%s) = %v, want %v", c.data, got, c.want)
		}
	}
}
