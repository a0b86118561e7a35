package record

import (
	"strconv"
	"testing"
)

func TestTableIDRoundTrip(t *testing.T) {
	tests := []struct {
		chat   int64
		thread int
		want   string
	}{
		{-1001234567890, 0, "-1001234567890"},
		{-1001234567890, 42, "-1001234567890_42"},
		{-1001234567890, 2147483647, "-1001234567890_2147483647"},
		{-4567, 0, "-4567"},
		{-4567, 1, "-4567_1"},
		{12345, 0, "12345"},
		{-9223372036854775808, 0, "-9223372036854775808"},
		{9223372036854775807, 7, "9223372036854775807_7"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := ID(tc.chat, tc.thread); got != tc.want {
				t.Errorf("ID(%d, %d) = %q, want %q", tc.chat, tc.thread, got, tc.want)
			}
			chat, thread, err := ParseID(tc.want)
			if err != nil {
				t.Fatalf("ParseID(%q): %v", tc.want, err)
			}
			if chat != tc.chat || thread != tc.thread {
				t.Errorf("ParseID(%q) = %d, %d; want %d, %d", tc.want, chat, thread, tc.chat, tc.thread)
			}
			for _, r := range tc.want {
				if !(r == '-' || r == '_' || (r >= '0' && r <= '9')) {
					t.Errorf("%q has %q, not allowed in a deep-link payload", tc.want, r)
				}
			}
		})
	}
}

func TestParseTableIDRejects(t *testing.T) {
	tests := []struct {
		in  string
		bug string
	}{
		{in: ""},
		{in: "0"},
		{in: "-0"},
		{in: "0_5"},
		{in: "abc"},
		{in: "-"},
		{in: "_"},
		{in: "_5"},
		{in: "-100_"},
		{in: "-100_0"},
		{in: "-100_-1"},
		{in: "-100_x"},
		{in: "-100_1_2"},
		{in: "-100__1"},
		{in: " -100"},
		{in: "-100 "},
		{in: "-100:5"},
		{in: "-100_5 "},
		{in: "-1e3"},
		{in: "0x10"},
		{in: "99999999999999999999"},
		{in: "-100_99999999999999999999"},
		{in: "+100", bug: "parseTableID uses ParseInt, which accepts a sign and leading zeros"},
		{in: "0100", bug: "parseTableID uses ParseInt, which accepts a sign and leading zeros"},
		{in: "-0100", bug: "parseTableID uses ParseInt, which accepts a sign and leading zeros"},
		{in: "-100_07", bug: "parseTableID uses Atoi for the topic, which accepts a sign and leading zeros"},
		{in: "-100_+7", bug: "parseTableID uses Atoi for the topic, which accepts a sign and leading zeros"},
	}
	for _, tc := range tests {
		t.Run(strconv.Quote(tc.in), func(t *testing.T) {
			if chat, thread, err := ParseID(tc.in); err == nil {
				t.Errorf("ParseID(%q) = %d, %d; want an error", tc.in, chat, thread)
			}
		})
	}
}
