package tables

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

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
			if got.Name != tc.name {
				t.Errorf("name = %q, want %q", got.Name, tc.name)
			}
			if len(got.Args) != len(tc.args) || (len(tc.args) > 0 && !reflect.DeepEqual(got.Args, tc.args)) {
				t.Errorf("args = %q, want %q", got.Args, tc.args)
			}
			// Addressed to this bot by name: an unknown name gets a hint.
			if want := strings.Contains(tc.text, "@"); got.Addressed != want {
				t.Errorf("addressed = %v, want %v", got.Addressed, want)
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
	mn := goldenTables(t).menus
	for _, tc := range tests {
		got, ok := mn.LangNamed(tc.args)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("langNamed(%q) = %q, %v; want %q, %v", tc.args, got, ok, tc.want, tc.ok)
		}
	}
}
