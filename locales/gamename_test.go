package locales

import (
	"regexp"
	"strings"
	"testing"
)

// A game's name is not declined: «Чехарда», «Сосиски», «Меню шефа» keep
// their nominative wherever they stand. So a name is never the object of
// a preposition or a verb, where Russian wants another case («сменить на
// «Чехарда»», «в «Сосиски»», «играть в Меню шефа»). It stands apart: at
// the start of a text or after a colon, a dash, a dot or «·» («Кубок:
// «Чехарда»», «Стол 1: Чехарда»), or in quotes after a noun that carries
// the case for it («игру «Чехарда»», «в игре «Сосиски»», «кубка
// «Чехарда»»). TestGameNamesNotDeclined reads every Russian text — the
// catalog's, where {{.Game}} is a game's name, and the golden files',
// where the names are written out — and fails on a name placed otherwise.

// apartNouns are the nouns after which a quoted name stands apart, in any
// case: «игра», «кубок», «вариант».
var apartNouns = regexp.MustCompile(`^(?i:игр\p{L}*|кубо?к\p{L}*|вариант\p{L}*|правил\p{L}*|разбор\p{L}*)$`)

var (
	tagRE         = regexp.MustCompile(`<[^>]*>`)
	placeholderRE = regexp.MustCompile(`{{[^}]*}}`)
	lastWordRE    = regexp.MustCompile(`(\p{L}[\p{L}-]*)([^\p{L}]*)$`)
)

// gameNameProblem says why the name that follows before is not set apart,
// or "". before is the text in front of the name, tags dropped.
func gameNameProblem(before string) string {
	m := lastWordRE.FindStringSubmatch(before)
	if m == nil {
		return "" // the text's start
	}
	word, gap := m[1], m[2]
	if strings.ContainsAny(gap, ":·—–.(\n!?") {
		return ""
	}
	if strings.Contains(gap, "«") && apartNouns.MatchString(word) {
		return ""
	}
	if strings.Contains(gap, "«") {
		return "quoted after «" + word + "», not after a noun like «игра» or «кубок»"
	}
	return "right after «" + word + "»: decline it or set it apart"
}

// gameNameProblems lists the problems of every place in text where one
// of names (or the placeholder {{.Game}}) stands.
func gameNameProblems(text string, names []string) []string {
	text = tagRE.ReplaceAllString(text, "")
	var out []string
	check := func(at int, what string) {
		before := placeholderRE.ReplaceAllString(text[:at], "0")
		if p := gameNameProblem(before); p != "" {
			r := []rune(before)
			out = append(out, "…"+string(r[max(0, len(r)-30):])+what+": "+p)
		}
	}
	for _, loc := range regexp.MustCompile(`{{\s*\.Game\s*}}`).FindAllStringIndex(text, -1) {
		check(loc[0], "{{.Game}}")
	}
	for _, name := range names {
		re := regexp.MustCompile(`(?:^|[^\p{L}])(` + regexp.QuoteMeta(name) + `)(?:$|[^\p{L}])`)
		for _, loc := range re.FindAllStringSubmatchIndex(text, -1) {
			check(loc[2], name)
		}
	}
	return out
}

// russianGameNames are the games' names in the Russian catalog
// (<game>.title).
func russianGameNames(t *testing.T, c *Catalog) []string {
	t.Helper()
	var names []string
	for _, key := range c.Keys() {
		if id, ok := strings.CutSuffix(key, ".title"); ok && !strings.Contains(id, ".") {
			if _, game := c.byLang[Russian].messages[id+".rules"]; game {
				names = append(names, c.T(Russian, key))
			}
		}
	}
	if len(names) < 4 {
		t.Fatalf("only %d games' names (<game>.title with <game>.rules): %v", len(names), names)
	}
	return names
}

func TestGameNamesNotDeclined(t *testing.T) {
	c := newCatalog(t)
	names := russianGameNames(t, c)
	for where, text := range russianTexts(t, c) {
		for _, p := range gameNameProblems(text, names) {
			t.Errorf("%s: a game's name %s", where, p)
		}
	}
}

func TestGameNameCheckCatches(t *testing.T) {
	names := []string{"Чехарда", "Меню шефа"}
	for _, bad := range []string{
		"Создатель стола может сменить игру на <b>{{.Game}}</b>.",
		"🌱 Совет к первой игре в «{{.Game}}»:",
		"🎲 Сменить на «{{.Game}}»",
		"Сыграем в Меню шефа?",
		"ваш ход в «Чехарда»",
	} {
		if len(gameNameProblems(bad, names)) == 0 {
			t.Errorf("not caught: %q", bad)
		}
	}
	for _, good := range []string{
		"▶️ {{.Game}}", "Стол {{.N}}: {{.Game}}", "🔍 {{.N}}. {{.Game}}", "ваш ход в игре «{{.Game}}»",
		"Кубок «{{.Game}}» остановлен", "🏆 <b>Победитель кубка</b> «{{.Game}}»", "📋 <b>Меню шефа</b> · ход 3",
		"Раунд кубка 1 из 3 («{{.Game}}») начался", "🎲 Выбрать игру «Чехарда»",
	} {
		if p := gameNameProblems(good, names); len(p) > 0 {
			t.Errorf("false alarm on %q: %v", good, p)
		}
	}
}
