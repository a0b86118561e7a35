package tables

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/view"
)

// A person's name is what they typed into Telegram, and the table shows
// it to everyone: it must read as a person's name there. Invisible
// characters go (bidi overrides that turn the rest of a line around,
// zero-width characters that make two names look the same), and a name
// may not pass for a robot's: no 🤖, and one that reads like a robot's
// name («Робот 2») is marked as a person's.

// maxNameRunes bounds a name on the table and in the buttons.
const maxNameRunes = 32

// personMark is put before a person's name that reads like a robot's.
const personMark = "👤 "

// names makes a person's name for the table.
type names struct {
	// robotLike matches a robot's name in every language (ai.name).
	robotLike []*regexp.Regexp
}

// newNames learns what a robot's name looks like in every language.
func newNames(views *view.Renderer) *names {
	const probe = 987654321
	n := &names{}
	for _, lang := range views.Langs() {
		text := views.Loc(lang).T("ai.name", "N", probe)
		before, after, ok := strings.Cut(text, "987654321")
		if !ok {
			continue
		}
		pattern := `(?i)^\s*` + regexp.QuoteMeta(strings.TrimSpace(before)) + `\s*[0-9]*\s*` + regexp.QuoteMeta(strings.TrimSpace(after)) + `\s*$`
		n.robotLike = append(n.robotLike, regexp.MustCompile(pattern))
	}
	return n
}

// person is u's name at a table: first and last name, or the username,
// cleaned, at most maxNameRunes long.
func (n *names) person(u *models.User) string {
	name := cleanName(u.FirstName + " " + u.LastName)
	if name == "" {
		name = cleanName(u.Username)
	}
	if name == "" || n.looksLikeRobot(name) {
		name = personMark + name
	}
	if r := []rune(name); len(r) > maxNameRunes {
		name = strings.TrimSpace(string(r[:maxNameRunes]))
	}
	return strings.TrimSpace(name)
}

// looksLikeRobot reports whether name reads like a robot's.
func (n *names) looksLikeRobot(name string) bool {
	for _, re := range n.robotLike {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// cleanName drops what a name must not carry: control and format
// characters (bidi overrides and isolates, zero-width spaces and joiners,
// the BOM), fillers that show as blank (Hangul fillers, the Braille
// blank), the robot's 🤖, and long runs of combining marks; it folds
// runs of spaces into one.
func cleanName(s string) string {
	var b strings.Builder
	marks := 0
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.Is(unicode.Cc, r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r), r == unicode.ReplacementChar,
			r == '\u115F', r == '\u1160', r == '\u3164', r == '\uFFA0', r == '\u2800', r == '🤖':
			continue
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r):
			if marks++; marks > 2 {
				continue // «Zalgo» text: marks piled up over one letter
			}
		default:
			marks = 0
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
