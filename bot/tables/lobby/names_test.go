package lobby

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
	n := NewNames(testViews(t))
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
		got := n.Person(&models.User{FirstName: c.first, LastName: c.last, Username: c.username})
		if got != c.want {
			t.Errorf("%q %q @%s: %q, want %q", c.first, c.last, c.username, got, c.want)
		}
	}
}

// TestNamesThatLookLikeARobot: a name that merely looks like a robot's is
// marked like an exact one — another script's letters, full-width, styled
// or foreign digits, a digit for a letter, accents, spaces, punctuation
// and invisible characters in between, either language's robot — and a
// person's name that only starts like one, or is close, is not.
func TestNamesThatLookLikeARobot(t *testing.T) {
	n := NewNames(testViews(t))
	marked := []string{
		"Робот 2",
		"Робoт 2",            // a Latin o
		"Робот ２",            // a full-width digit
		"Робот ٢",            // an Arabic-Indic digit
		"Робот ²",            // a superscript digit
		"РОБОТ 2",            // capitals
		"Р о б о т 2",        // spaced out
		"Робот\u00a0\u00a02", // no-break spaces
		"Ро\u200bбот 2",      // a zero-width space
		"Ро\u0301бот 2",      // an accent
		"Роб0т 3",            // a zero for the o
		"Ро6от 3",            // a six for the б
		"Робот-2",            // punctuation
		"Robot 2",            // the English robot
		"Rоbоt 2",            // with Cyrillic o's
		"R\u03bfb\u03bft 2",  // with Greek omicrons
		"ROBOT",              // no number
		"𝐑𝐨𝐛𝐨𝐭 𝟐",            // mathematical bold
		"Ｒｏｂｏｔ",              // full-width letters
		"Рοбοт",              // Greek omicrons in the Russian word
	}
	notMarked := []string{"Роберт", "Роботанна", "Робототехник", "Робот Вася", "Борис", "Rob", "Roberto 2", "Ро", "Bot 2", "Работа"}
	for _, name := range marked {
		if got := n.Person(&models.User{FirstName: name}); !strings.HasPrefix(got, personMark) {
			t.Errorf("%q is not marked: %q", name, got)
		}
	}
	for _, name := range notMarked {
		if got := n.Person(&models.User{FirstName: name}); strings.HasPrefix(got, personMark) {
			t.Errorf("%q is marked: %q", name, got)
		}
	}
}
