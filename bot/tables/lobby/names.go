package lobby

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/go-telegram/bot/models"
	"golang.org/x/text/unicode/norm"

	"github.com/trickchef/trickchef/bot/view"
)

// A person's name is what they typed into Telegram, and the table shows
// it to everyone: it must read as a person's name there. Invisible
// characters go (bidi overrides that turn the rest of a line around,
// zero-width characters that make two names look the same), and a name
// may not pass for a robot's: no 🤖, and one that reads like a robot's
// name in any language — «Робот 2», and also «Робoт 2» with a Latin o,
// «Robot ２» with a full-width digit, «Р о б о т 2», «Rоbоt 2» with
// Cyrillic o's, «Роб0т» — is marked as a person's.
//
// «Reads like» is decided on a skeleton of the name (skeleton): Unicode's
// compatibility decomposition (NFKD: full-width and styled letters and
// digits become plain ones, accents come apart), then no marks, spaces,
// punctuation or invisible characters, any script's digits as 0–9, lower
// case, and the letters of Cyrillic and Greek that look like Latin ones
// as those (latinLookalike). A robot's name is matched on its skeleton
// too, a digit that passes for one of its letters allowed (lookalikeDigit).

// maxNameRunes bounds a name on the table and in the buttons.
const maxNameRunes = 32

// personMark is put before a person's name that reads like a robot's.
const personMark = "👤 "

// Names makes a person's name for the table.
type Names struct {
	// robotLike matches the skeleton of a robot's name in every language
	// (ai.name).
	robotLike []*regexp.Regexp
}

// NewNames learns what a robot's name looks like in every language.
func NewNames(views *view.Renderer) *Names {
	const probe = 987654321
	n := &Names{}
	for _, lang := range views.Langs() {
		text := views.Loc(lang).T("ai.name", "N", probe)
		before, after, ok := strings.Cut(text, "987654321")
		if !ok {
			continue
		}
		n.robotLike = append(n.robotLike, regexp.MustCompile("^"+skeletonPattern(before)+"[0-9]*"+skeletonPattern(after)+"$"))
	}
	return n
}

// skeletonPattern matches the skeleton of text, a digit that looks like
// one of its letters in its place.
func skeletonPattern(text string) string {
	var b strings.Builder
	for _, r := range skeleton(text) {
		if d := lookalikeDigit(r); d != 0 {
			b.WriteString("[" + string(r) + string(d) + "]")
			continue
		}
		b.WriteString(regexp.QuoteMeta(string(r)))
	}
	return b.String()
}

// skeleton is what a name reads as, for telling whether it reads like a
// robot's (see above).
func skeleton(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Cc, unicode.P, unicode.Z) || unicode.IsSpace(r):
			continue
		case unicode.Is(unicode.Nd, r):
			r = '0' + digitValue(r)
		default:
			r = latinLookalike(unicode.ToLower(r))
		}
		b.WriteRune(r)
	}
	return b.String()
}

// digitValue is the value of a decimal digit of any script: digits come
// in runs of ten from their zero.
func digitValue(r rune) rune {
	zero := r
	for r-zero < 9 && unicode.Is(unicode.Nd, zero-1) {
		zero--
	}
	return r - zero
}

// latinLookalike is the Latin letter a lower-case Cyrillic or Greek letter
// looks like (in either case: «т» stands for «Т», which looks like «T»),
// or r.
func latinLookalike(r rune) rune {
	switch r {
	case 'а', 'α':
		return 'a'
	case 'в', 'ь', 'β':
		return 'b'
	case 'с', 'ϲ':
		return 'c'
	case 'е', 'ε':
		return 'e'
	case 'н', 'һ', 'η':
		return 'h'
	case 'і', 'ι':
		return 'i'
	case 'ј', 'ϳ':
		return 'j'
	case 'к', 'κ':
		return 'k'
	case 'м', 'μ':
		return 'm'
	case 'п', 'π':
		return 'n'
	case 'о', 'ο', 'σ':
		return 'o'
	case 'р', 'ρ':
		return 'p'
	case 'ԛ':
		return 'q'
	case 'г':
		return 'r'
	case 'ѕ':
		return 's'
	case 'т', 'τ':
		return 't'
	case 'υ':
		return 'u'
	case 'ν':
		return 'v'
	case 'ԝ', 'ω':
		return 'w'
	case 'х', 'χ':
		return 'x'
	case 'у', 'γ':
		return 'y'
	case 'ζ':
		return 'z'
	}
	return r
}

// lookalikeDigit is the digit a letter of a skeleton may be written as
// («Роб0т»: a zero for the o), or 0.
func lookalikeDigit(r rune) rune {
	switch r {
	case 'o':
		return '0'
	case 'б':
		return '6'
	case 'з':
		return '3'
	case 'i', 'l':
		return '1'
	}
	return 0
}

// Person is u's name at a table: first and last name, or the username,
// cleaned, at most maxNameRunes long.
func (n *Names) Person(u *models.User) string {
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
func (n *Names) looksLikeRobot(name string) bool {
	sk := skeleton(name)
	for _, re := range n.robotLike {
		if re.MatchString(sk) {
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
