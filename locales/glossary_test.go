package locales

import (
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The glossary, docs/glossary.md, gives every word and emoji a player must
// learn one meaning, and lists the catalog keys that use it for that
// meaning. TestGlossary reads its tables and fails on a term found in a
// key the glossary does not give it: a new text that uses 💡 for
// something other than a hint, or says «совет» for a hint, must first
// argue its case in the glossary. A retired word (keys «—») may appear
// nowhere.

// glossaryPath is the glossary, from this package's directory.
const glossaryPath = "../docs/glossary.md"

// glossaryTerm is one row's term: what it matches and where it may be.
type glossaryTerm struct {
	term  string         // as written in the glossary
	re    *regexp.Regexp // what it matches in a text
	lang  string         // the catalog it is looked for in ("" both)
	keys  []string       // key globs allowed to use it; none: retired
	line  int            // the glossary's line, for messages
	found bool
}

// codeSpan matches a `code span` of a table cell.
var codeSpan = regexp.MustCompile("`([^`]+)`")

// readGlossary parses the glossary's tables: every row whose first cell
// holds code spans (the terms) and whose last cell holds code spans (the
// key globs) or «—» (retired).
func readGlossary(t *testing.T) []*glossaryTerm {
	t.Helper()
	data, err := os.ReadFile(glossaryPath)
	if err != nil {
		t.Fatal(err)
	}
	var terms []*glossaryTerm
	for i, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) < 3 {
			continue
		}
		first, last := cells[0], strings.TrimSpace(cells[len(cells)-1])
		var keys []string
		for _, m := range codeSpan.FindAllStringSubmatch(last, -1) {
			keys = append(keys, m[1])
		}
		if len(keys) == 0 && last != "—" {
			continue // a table of another shape
		}
		for _, m := range codeSpan.FindAllStringSubmatch(first, -1) {
			terms = append(terms, newGlossaryTerm(m[1], keys, i+1))
		}
	}
	if len(terms) < 20 {
		t.Fatalf("%s: only %d terms read; is the table's shape still «| term | means | keys |»?", glossaryPath, len(terms))
	}
	return terms
}

// newGlossaryTerm compiles a term: an emoji (matched anywhere, in both
// languages), or words, each a whole word or a stem ending in *, matched
// case-insensitively at word edges in the language of their script.
func newGlossaryTerm(term string, keys []string, line int) *glossaryTerm {
	g := &glossaryTerm{term: term, keys: keys, line: line}
	in := func(script *unicode.RangeTable) bool {
		return strings.IndexFunc(term, func(r rune) bool { return unicode.Is(script, r) }) >= 0
	}
	switch {
	case in(unicode.Cyrillic):
		g.lang = Russian
	case in(unicode.Latin):
		g.lang = English
	default: // an emoji or a symbol (ℹ️ is a letter to Unicode, not a word)
		g.re = regexp.MustCompile(regexp.QuoteMeta(stripVariation(term)))
		return g
	}
	var words []string
	for _, w := range strings.Fields(term) {
		stem, open := strings.CutSuffix(w, "*")
		p := regexp.QuoteMeta(stem)
		if open {
			p += `\p{L}*`
		}
		words = append(words, p)
	}
	g.re = regexp.MustCompile(`(?i)(?:^|[^\p{L}])` + strings.Join(words, `\s+`) + `(?:$|[^\p{L}])`)
	return g
}

// stripVariation drops the emoji variation selector, which a text may or
// may not carry after the same emoji.
func stripVariation(s string) string { return strings.ReplaceAll(s, "\uFE0F", "") }

// allows reports whether key may use the term.
func (g *glossaryTerm) allows(key string) bool {
	return slices.ContainsFunc(g.keys, func(glob string) bool { return keyGlob(glob, key) })
}

// keyGlob matches a key against a glob whose * matches any run of
// characters, dots too.
func keyGlob(glob, key string) bool {
	ok, err := path.Match(strings.ReplaceAll(glob, ".", "/"), strings.ReplaceAll(key, ".", "/"))
	if err == nil && ok {
		return true
	}
	re := "^" + strings.ReplaceAll(regexp.QuoteMeta(glob), `\*`, ".*") + "$"
	return regexp.MustCompile(re).MatchString(key)
}

func TestGlossary(t *testing.T) {
	c := newCatalog(t)
	terms := readGlossary(t)
	for _, lang := range c.Langs() {
		for _, key := range c.Keys() {
			for _, text := range forms(c.byLang[lang].messages[key]) {
				text = stripVariation(text)
				for _, g := range terms {
					if g.lang != "" && g.lang != lang || !g.re.MatchString(text) {
						continue
					}
					g.found = true
					if !g.allows(key) {
						what := "is retired"
						if len(g.keys) > 0 {
							what = "belongs to " + strings.Join(g.keys, ", ")
						}
						t.Errorf("%s/%s uses %s, which %s (docs/glossary.md:%d): %q", lang, key, g.term, what, g.line, excerpt(g.re, text))
					}
				}
			}
		}
	}
	for _, g := range terms {
		if len(g.keys) > 0 && !g.found {
			t.Errorf("docs/glossary.md:%d: %s is used nowhere; drop its row or its keys", g.line, g.term)
		}
	}
}

// excerpt is the match of re in text with a little context.
func excerpt(re *regexp.Regexp, text string) string {
	loc := re.FindStringIndex(text)
	r := []rune(text)
	start := len([]rune(text[:loc[0]]))
	end := len([]rune(text[:loc[1]]))
	return string(r[max(0, start-30):min(len(r), end+30)])
}

// TestGlossaryReaderCatches: the glossary's matching finds a term used in
// the wrong place, and only there.
func TestGlossaryReaderCatches(t *testing.T) {
	hint := newGlossaryTerm("подсказ*", []string{"hints.*", "*.hint.*"}, 1)
	for text, want := range map[string]bool{
		"💡 Подсказка":         true,
		"возьмите подсказку":  true,
		"Профи подсказывает:": true,
		"без_подсказки":       true,
		"неподсказанный":      false,
	} {
		if got := hint.re.MatchString(text); got != want {
			t.Errorf("%s in %q: %v, want %v", hint.term, text, got, want)
		}
	}
	if !hint.allows("hints.button") || !hint.allows("chef.hint.sure") || hint.allows("tips.title") {
		t.Error("key globs: hints.button and chef.hint.sure allowed, tips.title not")
	}
	bot := newGlossaryTerm("бот", nil, 1)
	if !bot.re.MatchString("ход сделал бот.") || bot.re.MatchString("робот") || bot.re.MatchString("боты") {
		t.Error("«бот» must match the word, not «робот» or «боты»")
	}
	cards := newGlossaryTerm("🃏", []string{"web.*"}, 1)
	if cards.lang != "" || !cards.re.MatchString(stripVariation("🃏 Колода")) {
		t.Error("an emoji is looked for in both languages")
	}
	phrase := newGlossaryTerm("сил* карты", nil, 1)
	if !phrase.re.MatchString("+2 к силе карты") || phrase.re.MatchString("самый сильный") {
		t.Error("a phrase of stems matches its words in a row only")
	}
}
