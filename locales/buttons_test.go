package locales

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// maxButtonUnits is adapter.MaxButtonUnits: the longest a button's text
// may be, in UTF-16 code units, as Telegram counts every length.
const maxButtonUnits = 32

// goldenButtons returns every button of the golden files («[a] [b]» lines,
// as golden.Show writes a keyboard's row), as «path:line» → texts.
func goldenButtons(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for where, line := range goldenLines(t) {
		if !strings.HasPrefix(line, "[") || !strings.HasSuffix(line, "]") {
			continue
		}
		out[where] = strings.Split(line[1:len(line)-1], "] [")
	}
	return out
}

// TestGoldenButtonsFit: every button the golden files show — the
// platform's keyboards (lobby, /stop, menus, rules, reviews, replays,
// cups) and the games' — is at most maxButtonUnits long. A button names
// the choice it makes (a level, a time, an option's value, a game), so
// the golden files, which draw the real keyboards with real values, are
// where its length is read; the buttons that name a player are drawn with
// the longest names by bot/tables' TestButtonsFitWithLongestNames.
func TestGoldenButtonsFit(t *testing.T) {
	n := 0
	for where, buttons := range goldenButtons(t) {
		for _, b := range buttons {
			n++
			if u := len(utf16.Encode([]rune(b))); u > maxButtonUnits {
				t.Errorf("%s: a button of %d UTF-16 units (at most %d): %q", where, u, maxButtonUnits, b)
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d buttons in the golden files: is a keyboard still drawn as «[a] [b]»?", n)
	}
}
