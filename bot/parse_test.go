package bot

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
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
			if got := tableID(tc.chat, tc.thread); got != tc.want {
				t.Errorf("tableID(%d, %d) = %q, want %q", tc.chat, tc.thread, got, tc.want)
			}
			chat, thread, err := parseTableID(tc.want)
			if err != nil {
				t.Fatalf("parseTableID(%q): %v", tc.want, err)
			}
			if chat != tc.chat || thread != tc.thread {
				t.Errorf("parseTableID(%q) = %d, %d; want %d, %d", tc.want, chat, thread, tc.chat, tc.thread)
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
			if chat, thread, err := parseTableID(tc.in); err == nil {
				t.Errorf("parseTableID(%q) = %d, %d; want an error", tc.in, chat, thread)
			}
		})
	}
}

func TestParseCommand(t *testing.T) {
	const me = "trickchef_test_bot"
	tests := []struct {
		text string
		ok   bool
		name string
		args []string
	}{
		{text: "/newgame", ok: true, name: "newgame"},
		{text: "/newgame@trickchef_test_bot trickchef", ok: true, name: "newgame", args: []string{"trickchef"}},
		{text: "/newgame@trickchef_test_bot", ok: true, name: "newgame"},
		{text: "/NewGame@TrickChef_Test_Bot", ok: true, name: "newgame"},
		{text: "/NEWGAME", ok: true, name: "newgame"},
		{text: "/newgame@otherbot", ok: false},
		{text: "/newgame@otherbot trickchef", ok: false},
		{text: "/newgame@trickchef_test_bot_2", ok: false},
		{text: "/newgame@", ok: false},
		{text: "hello", ok: false},
		{text: "newgame", ok: false},
		{text: "", ok: false},
		{text: " /newgame", ok: false},
		{text: "/", ok: false},
		{text: "/ newgame", ok: false},
		{text: "/@trickchef_test_bot", ok: false},
		{text: "/start j-100123", ok: true, name: "start", args: []string{"j-100123"}},
		{text: "/start j-1001234567890_42", ok: true, name: "start", args: []string{"j-1001234567890_42"}},
		{text: "/start@trickchef_test_bot j-100123", ok: true, name: "start", args: []string{"j-100123"}},
		{text: "/lang   en  ", ok: true, name: "lang", args: []string{"en"}},
		{text: "/lang\ten\nru", ok: true, name: "lang", args: []string{"en", "ru"}},
		{text: "/stop\n", ok: true, name: "stop"},
	}
	for _, tc := range tests {
		t.Run(strconv.Quote(tc.text), func(t *testing.T) {
			got, ok := parseCommand(tc.text, me)
			if ok != tc.ok {
				t.Fatalf("parseCommand(%q) ok = %v, want %v (got %+v)", tc.text, ok, tc.ok, got)
			}
			if !ok {
				return
			}
			if got.name != tc.name {
				t.Errorf("name = %q, want %q", got.name, tc.name)
			}
			if len(got.args) != len(tc.args) || (len(tc.args) > 0 && !reflect.DeepEqual(got.args, tc.args)) {
				t.Errorf("args = %q, want %q", got.args, tc.args)
			}
			// Addressed to this bot by name: an unknown name gets a hint.
			if want := strings.Contains(tc.text, "@"); got.addressed != want {
				t.Errorf("addressed = %v, want %v", got.addressed, want)
			}
		})
	}
}

// TestLangNamed: /lang takes a language by its code, a Telegram
// language_code or its own name; anything else names none (the bot then
// offers the choice).
func TestLangNamed(t *testing.T) {
	tests := []struct {
		args []string
		want string
		ok   bool
	}{
		{nil, "", false},
		{[]string{}, "", false},
		{[]string{"en"}, "en", true},
		{[]string{"EN"}, "en", true},
		{[]string{"en-GB"}, "en", true},
		{[]string{"eng"}, "en", true},
		{[]string{"English"}, "en", true},
		{[]string{"ru"}, "ru", true},
		{[]string{"RU"}, "ru", true},
		{[]string{"ru_RU"}, "ru", true},
		{[]string{"рус"}, "ru", true},
		{[]string{"Русский"}, "ru", true},
		{[]string{"РУССКИЙ"}, "ru", true},
		{[]string{"de"}, "", false},
		{[]string{"xx", "yy"}, "", false},
		{[]string{"-"}, "", false},
		{[]string{"ru", "en"}, "ru", true}, // only the first argument counts
	}
	b := &Bot{tr: testCatalog(t)}
	for _, tc := range tests {
		got, ok := b.langNamed(tc.args)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("langNamed(%q) = %q, %v; want %q, %v", tc.args, got, ok, tc.want, tc.ok)
		}
	}
}

func TestUserLang(t *testing.T) {
	tests := []struct {
		code string
		def  string
		want string
	}{
		{"", "ru", "ru"},
		{"", "en", "en"},
		{"ru", "en", "ru"},
		{"ru-RU", "en", "ru"},
		{"uk", "en", "ru"},
		{"be", "en", "ru"},
		{"kk", "en", "ru"},
		{"en", "ru", "en"},
		{"en-US", "ru", "en"},
		{"de", "ru", "en"},
		{"pt-br", "ru", "en"},
	}
	for _, tc := range tests {
		u := &models.User{ID: 1, FirstName: "A", LanguageCode: tc.code}
		b := &Bot{cfg: Config{DefaultLang: tc.def}}
		if got := b.userLang(u); got != tc.want {
			t.Errorf("userLang(%q) with default %q = %q, want %q", tc.code, tc.def, got, tc.want)
		}
	}
	for _, def := range []string{"ru", "en"} {
		if got := (&Bot{cfg: Config{DefaultLang: def}}).userLang(nil); got != def {
			t.Errorf("userLang(nil) with default %q = %q", def, got)
		}
	}
}

func TestViewRoundTrip(t *testing.T) {
	for _, g := range []int{0, 1, 42, 99999} {
		v := tableView(g)
		kind, gameNo, seat, ok := parseView(v)
		if !ok || kind != "table" || gameNo != g || seat != -1 {
			t.Errorf("parseView(%q) = %q, %d, %d, %v; want table, %d, -1, true", v, kind, gameNo, seat, ok, g)
		}
		for _, s := range []int{0, 1, 3, 9} {
			v := handView(g, s)
			kind, gameNo, seat, ok := parseView(v)
			if !ok || kind != "hand" || gameNo != g || seat != s {
				t.Errorf("parseView(%q) = %q, %d, %d, %v; want hand, %d, %d, true", v, kind, gameNo, seat, ok, g, s)
			}
		}
	}
	if tableView(3) == handView(3, 0) || handView(1, 23) == handView(12, 3) {
		t.Error("view names collide")
	}
}

func TestParseViewRejects(t *testing.T) {
	for _, v := range []string{
		"", "table", "table:", "table:x", "table:1:2", "Table:1",
		"hand", "hand:1", "hand:1:", "hand::1", "hand:x:1", "hand:1:x", "hand:1:2:3",
		"lobby:1", ":1", "table 1",
	} {
		if kind, gameNo, seat, ok := parseView(v); ok {
			t.Errorf("parseView(%q) = %q, %d, %d, true; want false", v, kind, gameNo, seat)
		}
	}
}

func TestClip(t *testing.T) {
	short := []string{"", "hi", "<b>Трик-н-Шеф</b>", strings.Repeat("ж", maxMessageUnits), strings.Repeat("a", maxMessageUnits)}
	for _, s := range short {
		if got := Clip(s); got != s {
			t.Errorf("clip changed a text of %d runes", utf8.RuneCountInString(s))
		}
	}
	for _, n := range []int{maxMessageUnits + 1, maxMessageUnits + 100, 3 * maxMessageUnits} {
		for _, unit := range []string{"a", "ж", "♠"} {
			s := strings.Repeat(unit, n)
			got := Clip(s)
			if !utf8.ValidString(got) {
				t.Fatalf("Clip(%d × %q) split a rune", n, unit)
			}
			body, ok := strings.CutSuffix(got, "…")
			if !ok {
				t.Errorf("Clip(%d × %q) does not end with an ellipsis", n, unit)
			}
			if c := utf8.RuneCountInString(body); c != maxMessageUnits {
				t.Errorf("Clip(%d × %q) kept %d runes, want %d", n, unit, c, maxMessageUnits)
			}
			if !strings.HasPrefix(s, body) {
				t.Errorf("Clip(%d × %q) is not a prefix of the text", n, unit)
			}
			if c := utf8.RuneCountInString(got); c > maxMessageUnits+1 {
				t.Errorf("Clip(%d × %q) has %d runes", n, unit, c)
			}
			if again := Clip(got); again != got {
				t.Errorf("clip is not idempotent on %d × %q", n, unit)
			}
		}
	}
}

// TestClipUTF16 checks the limit the way Telegram counts it: 4096 UTF-16
// code units, where a character outside the BMP (most emoji) takes two.
func TestClipUTF16(t *testing.T) {
	for _, n := range []int{2100, maxMessageUnits, 5000} {
		got := Clip(strings.Repeat("😀", n))
		if units := len(utf16.Encode([]rune(got))); units > 4096 {
			t.Errorf("Clip(%d emoji) is %d UTF-16 units, Telegram allows 4096", n, units)
		}
	}
}
