package tables

import (
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"
)

// TestNamesAreCleaned: a name shows as the person typed it, less what
// could deceive the table: bidi overrides, zero-width and blank
// characters, piled-up marks, the robot's 🤖; a name that reads like a
// robot's in any language is marked as a person's; a name of nothing
// visible falls back to the username, then to the mark alone.
func TestNamesAreCleaned(t *testing.T) {
	tb := goldenTables(t)
	cases := []struct {
		first, last, username, want string
	}{
		{"Аня", "", "", "Аня"},
		{"Аня", "Петрова", "", "Аня Петрова"},
		{"  Аня  ", "  ", "", "Аня"},
		{"Аня\u202Eавонреп", "", "", "Аняавонреп"}, // right-to-left override
		{"А\u200Bн\u200Dя\uFEFF", "", "", "Аня"},   // zero-width space, joiner, BOM
		{"Аня\u2066x\u2069", "", "", "Аняx"},       // isolates
		{"\u3164", "", "anya", "anya"},             // a Hangul filler: blank
		{"\u2800\u115F", "", "", "👤"},              // nothing visible, no username
		{"🤖 Аня", "", "", "Аня"},
		{"Робот 2", "", "", "👤 Робот 2"},
		{"🤖 Робот", "", "", "👤 Робот"},
		{"robot", "7", "", "👤 robot 7"},
		{"Роботанна", "", "", "Роботанна"},
		{"e\u0301\u0301\u0301\u0301\u0301", "", "", "e\u0301\u0301"},
		{"Тест\nНовая строка", "", "", "Тест Новая строка"},
		{strings.Repeat("Я", 40), "", "", strings.Repeat("Я", 32)},
	}
	for _, c := range cases {
		got := tb.core.names.person(&models.User{FirstName: c.first, LastName: c.last, Username: c.username})
		if got != c.want {
			t.Errorf("%q %q @%s: %q, want %q", c.first, c.last, c.username, got, c.want)
		}
	}
}
