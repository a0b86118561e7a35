package callback

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/record"
)

func TestPayloadRoundTrip(t *testing.T) {
	tests := []struct {
		p    Data
		want string
	}{
		{Data{Op: Action, Table: "-1001234567890", GameNo: 3, Args: []int{0, 5, 17}}, "a:-1001234567890:3:0:5:17"},
		{Data{Op: Action, Table: "-1001234567890_42", GameNo: 0, Args: []int{3, 0, 0}}, "a:-1001234567890_42:0:3:0:0"},
		{Data{Op: Action, Table: "-4567", GameNo: 12, Args: []int{1, 2, 1643}}, "a:-4567:12:1:2:1643"},
		{Data{Op: Draft, Table: "-1001234567890", GameNo: 1, Args: []int{2, 7, 3}}, "m:-1001234567890:1:2:7:3"},
		{Data{Op: Draft, Table: "-1001234567890_42", GameNo: 99, Args: []int{0, 0, 0}}, "m:-1001234567890_42:99:0:0:0"},
		{Data{Op: Info, Table: "-1001234567890", GameNo: 5, Args: []int{2}}, "i:-1001234567890:5:2"},
		{Data{Op: Info, Table: "-1001234567890_42", GameNo: 5, Args: []int{0}}, "i:-1001234567890_42:5:0"},
		{Data{Op: Lobby, Table: "-1001234567890", GameNo: 7, Args: []int{1}}, "l:-1001234567890:7:1"},
		{Data{Op: Lobby, Table: "-1001234567890_42", GameNo: 7, Args: []int{4}}, "l:-1001234567890_42:7:4"},
		{Data{Op: Lobby, Table: "-1001234567890_42", GameNo: 7, Args: []int{8, 3}}, "l:-1001234567890_42:7:8:3"},
		{Data{Op: Lobby, Table: "-100", GameNo: 1, Args: []int{6, 0}}, "l:-100:1:6:0"},
		{Data{Op: Stop, Table: "-1001234567890", GameNo: 2, Args: []int{1}}, "s:-1001234567890:2:1"},
		{Data{Op: Stop, Table: "-1001234567890_42", GameNo: 2, Args: []int{0}}, "s:-1001234567890_42:2:0"},
		{Data{Op: Stop, Table: "12345", GameNo: 2, Args: []int{0}}, "s:12345:2:0"},
		{Data{Op: Open, Table: "-1001234567890_42", Word: "chekharda"}, "o:-1001234567890_42:0:chekharda"},
		{Data{Op: Lang, Table: "-1001234567890", Word: "en"}, "g:-1001234567890:0:en"},
		{Data{Op: Action, Table: "-1001234567890b", GameNo: 3, Args: []int{0, 5, 17}}, "a:-1001234567890b:3:0:5:17"},
		{Data{Op: Stop, Table: "-1001234567890_42b", GameNo: 2, Args: []int{2}}, "s:-1001234567890_42b:2:2"},
		{Data{Op: Lobby, Table: "-1001234567890_42b", GameNo: 7, Args: []int{12, 5}}, "l:-1001234567890_42b:7:12:5"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := tc.p.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
			got, err := Parse(tc.want)
			if err != nil {
				t.Fatalf("parsePayload: %v", err)
			}
			if !reflect.DeepEqual(got, tc.p) {
				t.Errorf("parsePayload = %+v, want %+v", got, tc.p)
			}
		})
	}
}

// TestPayloadEveryOp round-trips the shortest and longest argument lists of
// every op argCount knows, so a new op is covered the day it is added.
func TestPayloadEveryOp(t *testing.T) {
	n := 0
	for _, op := range Ops() {
		sh, _ := op.shape()
		lo, hi := sh.min, sh.max
		n++
		for count := lo; count <= hi; count++ {
			var args []int
			for i := 0; i < count; i++ {
				args = append(args, 0)
			}
			for i := range args {
				args[i] = i + 1
			}
			p := Data{Op: op, Table: "-1001234567890_42", GameNo: 7, Args: args}
			if sh.word {
				p.Word = "chekharda" // the longest game id
			}
			s := p.String()
			got, err := Parse(s)
			if err != nil {
				t.Errorf("Parse(%q): %v", s, err)
				continue
			}
			if !reflect.DeepEqual(got, p) {
				t.Errorf("Parse(%q) = %+v, want %+v", s, got, p)
			}
			// One argument too few and too many are refused.
			if count == lo && lo > 0 {
				short := Data{Op: op, Table: p.Table, GameNo: p.GameNo, Word: p.Word, Args: args[:lo-1]}.String()
				if _, err := Parse(short); err == nil {
					t.Errorf("Parse(%q) accepted too few arguments", short)
				}
			}
			if count == hi {
				long := s + ":1"
				if _, err := Parse(long); err == nil {
					t.Errorf("Parse(%q) accepted too many arguments", long)
				}
			}
		}
	}
	for _, op := range []Op{Action, Draft, Info, Lobby, Stop} {
		if _, ok := op.shape(); !ok {
			t.Errorf("op %q unknown", op)
		}
	}
	if n < 15 {
		t.Errorf("only %d ops known", n)
	}
}

func TestPayloadUnknownOps(t *testing.T) {
	for c := 0; c < 256; c++ {
		op := Op(c)
		if _, ok := op.shape(); ok {
			continue
		}
		s := string([]byte{byte(op)}) + ":-100:1:0"
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted an unknown op", s)
		}
	}
}

func TestPayloadLongestFits(t *testing.T) {
	const table = "-1001234567890_2147483647"
	for _, p := range []Data{
		{Op: Action, Table: table, GameNo: 99999, Args: []int{3, 999, 1643}},
		{Op: Draft, Table: table, GameNo: 99999, Args: []int{3, 999, 1643}},
		{Op: Lobby, Table: table, GameNo: 99999, Args: []int{8, 3}},
		{Op: Info, Table: table, GameNo: 99999, Args: []int{3}},
		{Op: Stop, Table: table, GameNo: 99999, Args: []int{1}},
		{Op: Action, Table: table + "z", GameNo: 99999, Args: []int{3, 999, 1643}},
		{Op: Draft, Table: table + "z", GameNo: 99999, Args: []int{3, 999, 1643}},
		{Op: Lobby, Table: table + "z", GameNo: 99999, Args: []int{LobbyZone, 23}},
		{Op: Again, Table: table + "z", GameNo: 99999, Word: "chekharda"},
	} {
		s := p.String()
		if len(s) > MaxBytes {
			t.Errorf("%q is %d bytes, Telegram allows %d", s, len(s), MaxBytes)
		}
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
}

func TestPayloadLength(t *testing.T) {
	// A well-formed payload of exactly 64 bytes passes; one byte more fails
	// (every number still fits an int, so only the length can refuse it).
	base := "a:-1001234567890_2147483647:1000000000000000000:0:0:"
	fill := MaxBytes - len(base)
	ok := base + "1" + strings.Repeat("0", fill-1)
	if len(ok) != MaxBytes {
		t.Fatalf("test payload is %d bytes", len(ok))
	}
	if _, err := Parse(ok); err != nil {
		t.Errorf("Parse(%q) (64 bytes): %v", ok, err)
	}
	long := base + "1" + strings.Repeat("0", fill)
	if _, err := Parse(long); err == nil {
		t.Errorf("parsePayload accepted %d bytes: %q", len(long), long)
	}
	if _, err := Parse(strings.Repeat("a", 1000)); err == nil {
		t.Error("parsePayload accepted 1000 bytes")
	}
}

func TestParsePayloadRejects(t *testing.T) {
	tests := []struct {
		in  string
		bug string
	}{
		{in: ""},
		{in: "a"},
		{in: "a:"},
		{in: ":"},
		{in: "::"},
		{in: "a:-100"},
		{in: "a:-100:1"},
		// unknown or malformed op
		{in: "Z:-100:1:0"},
		{in: "9:-100:1:0"},
		{in: "aa:-100:1:0:0:0"},
		{in: ":-100:1:0:0:0"},
		{in: "A:-100:1:0:0:0"},
		// bad table id
		{in: "a::1:0:0:0"},
		{in: "a:abc:1:0:0:0"},
		{in: "a:0:1:0:0:0"},
		{in: "a:-:1:0:0:0"},
		{in: "a:-100_:1:0:0:0"},
		{in: "a:-100_0:1:0:0:0"},
		{in: "a:-100_-5:1:0:0:0"},
		{in: "a:-100_x:1:0:0:0"},
		{in: "a:_5:1:0:0:0"},
		{in: "a:-100_1_2:1:0:0:0"},
		{in: "a:12345b:1:0:0:0", bug: "a private chat has no second table"},
		{in: "a:-100bb:1:0:0:0"},
		{in: "a:-100_b:1:0:0:0"},
		{in: "a:-100b_5:1:0:0:0"},
		{in: "a:-100B:1:0:0:0"},
		{in: "a: -100:1:0:0:0"},
		{in: "a:99999999999999999999:1:0:0:0"},
		{in: "a:+100:1:0:0:0", bug: "parseTableID accepts non-canonical chat ids"},
		{in: "a:-0100:1:0:0:0", bug: "parseTableID accepts non-canonical chat ids"},
		{in: "a:-100_07:1:0:0:0", bug: "parseTableID accepts non-canonical topic ids"},
		// bad game number
		{in: "a:-100::0:0:0"},
		{in: "a:-100:-1:0:0:0"},
		{in: "a:-100:x:0:0:0"},
		{in: "a:-100:1.5:0:0:0"},
		{in: "a:-100: 1:0:0:0"},
		{in: "a:-100:1e3:0:0:0"},
		{in: "a:-100:99999999999999999999:0:0:0"},
		{in: "a:-100:01:0:0:0", bug: "parsePayload checks the game number with Atoi only, not canonically"},
		{in: "a:-100:+1:0:0:0", bug: "parsePayload checks the game number with Atoi only, not canonically"},
		{in: "a:-100:-0:0:0:0", bug: "parsePayload checks the game number with Atoi only, not canonically"},
		// wrong argument count
		{in: "a:-100:1:0:0"},
		{in: "a:-100:1:0:0:0:0"},
		{in: "m:-100:1:0"},
		{in: "i:-100:1"},
		{in: "i:-100:1:0:0"},
		{in: "s:-100:1"},
		{in: "s:-100:1:1:1"},
		{in: "l:-100:1"},
		{in: "l:-100:1:1:2:3"},
		// bad or non-canonical arguments
		{in: "a:-100:1:01:0:0"},
		{in: "a:-100:1:+1:0:0"},
		{in: "a:-100:1:-0:0:0"},
		{in: "a:-100:1:0:00:0"},
		{in: "a:-100:1:0: 1:0"},
		{in: "a:-100:1:0:1 :0"},
		{in: "a:-100:1:0:x:0"},
		{in: "s:-100:1:yes"},
		{in: "a:-100:1:0:0:99999999999999999999"},
		// extra colons and trailing junk
		{in: "a:-100:1:0:0:0:"},
		{in: "a:-100:1:0::0"},
		{in: "a::-100:1:0:0:0"},
		{in: "a:-100:1:0:0:0::"},
		{in: "i:-100:1:0:"},
		{in: "a:-100:1:0:0:0\n"},
		{in: "a:-100:1:0:0:0\x00"},
	}
	for _, tc := range tests {
		t.Run(strconv.Quote(tc.in), func(t *testing.T) {
			if p, err := Parse(tc.in); err == nil {
				t.Errorf("Parse(%q) = %+v, want an error", tc.in, p)
			}
		})
	}
}

// checkPayload is the property of every accepted payload: it names a
// canonical table id, has an argument count its op allows, and
// re-encodes to exactly the input.
func checkPayload(t *testing.T, s string) {
	t.Helper()
	p, err := Parse(s)
	if err != nil {
		return
	}
	if len(s) > MaxBytes {
		t.Fatalf("accepted %d bytes: %q", len(s), s)
	}
	if got := p.String(); got != s {
		t.Fatalf("Parse(%q) re-encodes as %q", s, got)
	}
	sh, ok := p.Op.shape()
	if !ok || len(p.Args) < sh.min || len(p.Args) > sh.max {
		t.Fatalf("Parse(%q): op %q with %d args", s, p.Op, len(p.Args))
	}
	if p.GameNo < 0 {
		t.Fatalf("Parse(%q): game %d", s, p.GameNo)
	}
	chat, thread, n, err := record.ParseTable(p.Table)
	if err != nil {
		t.Fatalf("Parse(%q): table %q: %v", s, p.Table, err)
	}
	if id := record.TableID(chat, thread, n); id != p.Table {
		t.Fatalf("Parse(%q): table %q is not canonical (%q)", s, p.Table, id)
	}
}

// FuzzParsePayload: no input panics, and whatever is accepted is exactly
// what String would produce. (Run with -fuzz to search; without it the
// seeds below are checked.)
func FuzzParsePayload(f *testing.F) {
	for _, s := range []string{
		"a:-1001234567890:3:0:5:17",
		"a:-1001234567890_2147483647:99999:3:999:1643",
		"m:-1001234567890_42:1:2:7:3",
		"i:-100:5:2",
		"l:-100:7:1",
		"l:-1001234567890_42:7:8:3",
		"s:-100:2:1",
		"s:-100:2:0",
		"a:-100:1:01:0:0",
		"a:-100:1:+1:0:0",
		"a:-100_0:1:0:0:0",
		"a:-100:1:0:0:0:",
		"x:-100:1:0",
		"",
		":::::",
		"a:-9223372036854775808:9223372036854775807:0:0:0",
		"l:-100:1:-1:-2",
		"a:-1001234567890_2147483647b:99999:3:999:1643",
		"a:12345b:1:0:0:0",
		"s:-100bb:1:1",
	} {
		f.Add(s)
	}
	f.Fuzz(checkPayload)
}
