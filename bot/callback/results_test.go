package callback

import "testing"

// TestResultPayloads: the results buttons fit Telegram's 64 bytes at the
// longest table id, game number and game id, and parse back.
func TestResultPayloads(t *testing.T) {
	const table = "-1001234567890_2147483647"
	for _, p := range []Data{
		{Op: Again, Table: table, GameNo: 99999, Word: "chekharda"},
		{Op: Forget, Table: "9223372036854775807", GameNo: 99999999999, Args: []int{1}},
	} {
		s := p.String()
		if len(s) > MaxBytes {
			t.Errorf("%q is %d bytes", s, len(s))
		}
		got, err := Parse(s)
		if err != nil || got.String() != s {
			t.Errorf("Parse(%q) = %+v, %v", s, got, err)
		}
	}
	again, forget := string(Again), string(Forget)
	for _, bad := range []string{again + ":-100:1", again + ":-100:1:trickchef:1", forget + ":5:1", forget + ":5:1:1:1", forget + ":5:1:trickchef"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted it", bad)
		}
	}
}
