package locales

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/template/parse"
	"unicode/utf8"
)

func newCatalog(t *testing.T) *Catalog {
	t.Helper()
	c, err := New()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// requiredForms lists the CLDR plural categories a plural message needs in
// lang (integers and fractions).
func requiredForms(t *testing.T, lang string) []string {
	t.Helper()
	switch lang {
	case Russian:
		return []string{"few", "many", "one", "other"}
	case English:
		return []string{"one", "other"}
	}
	t.Fatalf("no plural categories known for %q: add them to requiredForms", lang)
	return nil
}

// fields returns the sorted names of the fields ({{.Name}}) used by a
// template source.
func fields(t *testing.T, src string) []string {
	t.Helper()
	trees, err := parse.Parse("msg", src, "", "", map[string]any{})
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	set := map[string]bool{}
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case nil:
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.FieldNode:
			set[n.Ident[0]] = true
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		}
	}
	for _, tree := range trees {
		walk(tree.Root)
	}
	return slices.Sorted(maps.Keys(set))
}

// messageFields returns the union of the fields of all forms of key in lang.
func messageFields(t *testing.T, c *Catalog, lang, key string) []string {
	t.Helper()
	m, ok := c.byLang[lang].messages[key]
	if !ok {
		return nil
	}
	set := map[string]bool{}
	for _, src := range forms(m) {
		for _, f := range fields(t, src) {
			set[f] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

func TestLangs(t *testing.T) {
	c := newCatalog(t)
	if got, want := c.Langs(), []string{"ru", "en"}; !slices.Equal(got, want) {
		t.Fatalf("Langs() = %v, want %v", got, want)
	}
	c.Langs()[0] = "xx"
	if c.Langs()[0] != "ru" {
		t.Fatal("Langs() exposes the catalog's slice")
	}
}

// TestKeysInEveryLanguage checks that every language has the same keys,
// the same placeholders for each key and the plural forms it needs.
func TestKeysInEveryLanguage(t *testing.T) {
	c := newCatalog(t)
	keyRE := regexp.MustCompile(`^[a-z0-9_]+(\.[a-z0-9_]+)+$`)
	all := map[string]bool{}
	for _, lang := range c.Langs() {
		for k := range c.byLang[lang].messages {
			all[k] = true
		}
	}
	for _, key := range slices.Sorted(maps.Keys(all)) {
		if !keyRE.MatchString(key) {
			t.Errorf("key %q: want area.name in lowercase ASCII", key)
		}
		refLang := Default
		for _, lang := range c.Langs() {
			if _, ok := c.byLang[lang].messages[key]; ok {
				refLang = lang
				break
			}
		}
		ref := messageFields(t, c, refLang, key)
		plural := false
		for _, lang := range c.Langs() {
			if m, ok := c.byLang[lang].messages[key]; ok && isPlural(m) {
				plural = true
			}
		}
		for _, lang := range c.Langs() {
			m, ok := c.byLang[lang].messages[key]
			if !ok {
				t.Errorf("key %q missing in %s", key, lang)
				continue
			}
			if m.Other == "" {
				t.Errorf("%s/%s: no text (the \"other\" form is empty)", lang, key)
			}
			if got := messageFields(t, c, lang, key); !slices.Equal(got, ref) {
				t.Errorf("%s/%s: placeholders %v, but %s has %v", lang, key, got, refLang, ref)
			}
			got := slices.Sorted(maps.Keys(forms(m)))
			if plural {
				if want := requiredForms(t, lang); !slices.Equal(got, want) {
					t.Errorf("%s/%s: plural forms %v, want %v", lang, key, got, want)
				}
				if !slices.Contains(ref, CountArg) {
					t.Errorf("%s/%s: plural message without {{.%s}}", lang, key, CountArg)
				}
				if strings.HasPrefix(key, "count.") {
					for form, src := range forms(m) {
						if !slices.Contains(fields(t, src), CountArg) {
							t.Errorf("%s/%s: form %s lacks {{.%s}}", lang, key, form, CountArg)
						}
					}
				}
			} else if !slices.Equal(got, []string{"other"}) {
				t.Errorf("%s/%s: forms %v in a message that is plural in no language", lang, key, got)
			}
		}
	}
}

func TestPlurals(t *testing.T) {
	c := newCatalog(t)
	tests := []struct {
		lang, key string
		want      map[int]string
	}{
		{"ru", "count.coins", map[int]string{0: "0 монет", 1: "1 монета", 2: "2 монеты", 4: "4 монеты", 5: "5 монет", 11: "11 монет", 12: "12 монет", 14: "14 монет", 21: "21 монета", 22: "22 монеты", 25: "25 монет", 101: "101 монета", 111: "111 монет"}},
		{"ru", "count.points", map[int]string{1: "1 очко", 2: "2 очка", 5: "5 очков", 11: "11 очков", 21: "21 очко", 22: "22 очка"}},
		{"ru", "count.cards", map[int]string{1: "1 карта", 2: "2 карты", 5: "5 карт", 11: "11 карт", 21: "21 карта", 22: "22 карты"}},
		{"ru", "count.tricks", map[int]string{1: "1 взятка", 2: "2 взятки", 5: "5 взяток", 11: "11 взяток", 21: "21 взятка", 22: "22 взятки"}},
		{"ru", "count.chefs", map[int]string{1: "1 Шеф", 2: "2 Шефа", 5: "5 Шефов", 11: "11 Шефов", 21: "21 Шеф", 22: "22 Шефа"}},
		{"ru", "count.stars", map[int]string{1: "1 звезда", 2: "2 звезды", 5: "5 звёзд", 11: "11 звёзд", 21: "21 звезда", 22: "22 звезды"}},
		{"ru", "count.seconds", map[int]string{1: "1 секунда", 2: "2 секунды", 5: "5 секунд", 11: "11 секунд", 21: "21 секунда", 22: "22 секунды"}},
		{"ru", "count.players", map[int]string{1: "1 игрок", 2: "2 игрока", 5: "5 игроков", 11: "11 игроков", 21: "21 игрок", 22: "22 игрока"}},
		{"en", "count.coins", map[int]string{0: "0 coins", 1: "1 coin", 2: "2 coins", 21: "21 coins"}},
		{"en", "count.points", map[int]string{1: "1 point", 2: "2 points"}},
		{"en", "count.cards", map[int]string{1: "1 card", 10: "10 cards"}},
		{"en", "count.tricks", map[int]string{1: "1 trick", 3: "3 tricks"}},
		{"en", "count.chefs", map[int]string{1: "1 chef", 4: "4 chefs"}},
		{"en", "count.stars", map[int]string{1: "1 star", 4: "4 stars"}},
		{"en", "count.seconds", map[int]string{1: "1 second", 30: "30 seconds"}},
		{"en", "count.players", map[int]string{1: "1 player", 3: "3 players"}},
	}
	for _, tt := range tests {
		for _, n := range slices.Sorted(maps.Keys(tt.want)) {
			got, err := c.Render(tt.lang, tt.key, "Count", n)
			if err != nil {
				t.Errorf("Render(%s, %s, %d): %v", tt.lang, tt.key, n, err)
			}
			if got != tt.want[n] {
				t.Errorf("T(%s, %s, %d) = %q, want %q", tt.lang, tt.key, n, got, tt.want[n])
			}
		}
	}
	// Any integer type selects the form.
	if got := c.T("ru", "count.coins", "Count", int64(3)); got != "3 монеты" {
		t.Errorf("int64 count: got %q", got)
	}
}

func TestNormalize(t *testing.T) {
	tests := map[string]string{
		"":        "",
		"  ":      "",
		"ru":      "ru",
		"ru-RU":   "ru",
		"RU":      "ru",
		"ru_RU":   "ru",
		"uk":      "ru",
		"be":      "ru",
		"kk":      "ru",
		"en":      "en",
		"en-US":   "en",
		"en-GB":   "en",
		"de":      "en",
		"pt-br":   "en",
		"zh-hans": "en",
	}
	for code, want := range tests {
		if got := Normalize(code); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", code, got, want)
		}
	}
}

func TestMissingKeyReturnsKey(t *testing.T) {
	c := newCatalog(t)
	for _, lang := range []string{"ru", "en", "xx", ""} {
		if got := c.T(lang, "no.such.key"); got != "no.such.key" {
			t.Errorf("T(%q, missing) = %q, want the key", lang, got)
		}
	}
	if _, err := c.Render("ru", "no.such.key"); err == nil {
		t.Error("Render(missing key): no error")
	}
}

func TestBadArgsReturnKey(t *testing.T) {
	c := newCatalog(t)
	for name, args := range map[string][]any{
		"no count":    nil,
		"odd args":    {"Count"},
		"non-string":  {1, 2},
		"empty name":  {"", 2},
		"bad count":   {"Count", "many"},
		"wrong name":  {"Cnt", 2},
		"float count": {"Count", 1.5},
	} {
		got, err := c.Render("ru", "count.coins", args...)
		if err == nil || got != "count.coins" {
			t.Errorf("%s: Render = %q, %v; want the key and an error", name, got, err)
		}
	}
}

func TestUnknownLangIsRussian(t *testing.T) {
	c := newCatalog(t)
	want := c.T("ru", "count.coins", "Count", 5)
	for _, lang := range []string{"", "de", "ru-RU", "RU"} {
		if got := c.T(lang, "count.coins", "Count", 5); got != want {
			t.Errorf("T(%q) = %q, want Russian %q", lang, got, want)
		}
	}
	if got := c.T("en", "count.coins", "Count", 5); got != "5 coins" {
		t.Errorf("T(en) = %q", got)
	}
}

// dummyArgs returns name/value pairs for every placeholder of key.
func dummyArgs(t *testing.T, c *Catalog, key string, count int) []any {
	var args []any
	for _, f := range messageFields(t, c, Default, key) {
		if f == CountArg {
			args = append(args, f, count)
		} else {
			args = append(args, f, "Аня")
		}
	}
	return args
}

// TestRenderEveryMessage renders every message of every language with dummy
// arguments, checks the result is valid Telegram HTML and within limits.
func TestRenderEveryMessage(t *testing.T) {
	c := newCatalog(t)
	for _, lang := range c.Langs() {
		for key := range c.byLang[lang].messages {
			for _, n := range []int{0, 1, 2, 5, 11, 21, 22} {
				got, err := c.Render(lang, key, dummyArgs(t, c, key, n)...)
				if err != nil {
					t.Errorf("%s/%s (Count %d): %v", lang, key, n, err)
					continue
				}
				if got == "" || strings.TrimSpace(got) != got {
					t.Errorf("%s/%s: empty or has surrounding whitespace: %q", lang, key, got)
				}
				if strings.Contains(got, "{{") || strings.Contains(got, "<no value>") {
					t.Errorf("%s/%s: unrendered placeholder in %q", lang, key, got)
				}
				// A guide is sent a page at a time: each page must be
				// valid and fit one message on its own.
				parts := []string{got}
				if isRules(key) {
					parts = guidePages(got)
				}
				for i, part := range parts {
					if err := checkTelegramHTML(part); err != nil {
						t.Errorf("%s/%s (part %d): %v", lang, key, i+1, err)
					}
					if n := utf16Len(part); n > 4096 {
						t.Errorf("%s/%s (part %d): %d UTF-16 units, over Telegram's 4096", lang, key, i+1, n)
					}
				}
			}
		}
	}
}

// guidePageBreak separates the pages of a players' guide ("<game>.rules"):
// a line holding only "---". The bot splits guides on the same string
// (bot/rules.go) and shows one page per message.
const guidePageBreak = "\n---\n"

// maxGuidePage is the most characters a guide page may have: Telegram
// allows 4096 UTF-16 units per message, and the bot adds a page footer.
const maxGuidePage = 3500

func isRules(key string) bool { return strings.HasSuffix(key, ".rules") }

// guideArgs fill a guide's placeholders as the bot does (bot/view/rules.go):
// the table's time for a move, its deadline text, the lobby's choices and
// (for a long turn only) the night.
var guideArgs = []any{"Turn", "20 секунд", "Left", "⏳ осталось не больше 20 секунд", "Turns", "20 секунд, 1 минута, 3 минуты", "Night", "",
	"GroupHand", " А можно играть, не уходя из группы."}

func guidePages(s string) []string { return strings.Split(s, guidePageBreak) }

// TestGuidePages checks every game's guide page by page: each page under
// maxGuidePage characters, none empty or padded with blank lines; the live
// games' guides have 2 to 4 pages.
func TestGuidePages(t *testing.T) {
	c := newCatalog(t)
	paged := map[string]bool{"trickchef.rules": true, "sausages.rules": true}
	for _, lang := range c.Langs() {
		for _, key := range c.Keys() {
			if !isRules(key) {
				continue
			}
			pages := guidePages(c.T(lang, key, guideArgs...))
			if paged[key] && (len(pages) < 2 || len(pages) > 4) {
				t.Errorf("%s/%s: %d pages, want 2 to 4", lang, key, len(pages))
			}
			for i, page := range pages {
				if n := utf8.RuneCountInString(page); n >= maxGuidePage {
					t.Errorf("%s/%s page %d: %d characters, want < %d", lang, key, i+1, n, maxGuidePage)
				}
				if strings.TrimSpace(page) != page || page == "" {
					t.Errorf("%s/%s page %d: empty or has surrounding whitespace", lang, key, i+1)
				}
			}
		}
		for key := range paged {
			if !c.Has(key) {
				t.Errorf("%s missing", key)
			}
		}
	}
}

// TestSizes: every command's menu line (commands.<name>.menu) is plain
// text Telegram accepts (1–256 characters). Which commands there are, and
// that each has its texts, the commands' own test checks (bot/tables).
func TestSizes(t *testing.T) {
	c := newCatalog(t)
	n := 0
	for _, key := range c.Keys() {
		if !strings.HasPrefix(key, "commands.") || !strings.HasSuffix(key, ".menu") {
			continue
		}
		n++
		for _, lang := range c.Langs() {
			d, err := c.Render(lang, key)
			if err != nil {
				t.Errorf("%s/%s: %v", lang, key, err)
				continue
			}
			if n := utf16Len(d); n < 1 || n > 256 {
				t.Errorf("%s/%s: %d characters, want 1..256", lang, key, n)
			}
			if strings.ContainsAny(d, "<>&") {
				t.Errorf("%s/%s: command descriptions are plain text, got %q", lang, key, d)
			}
		}
	}
	if n == 0 {
		t.Error("no command has a menu line")
	}
}

// TestRulesFacts spot-checks that the guides state the key numbers of
// docs/rules/trickchef.md and docs/rules/sausages.md.
func TestRulesFacts(t *testing.T) {
	c := newCatalog(t)
	common := map[string][]string{
		"trickchef.rules": {"3–4", "1–3 → 1★", "4–6 → 2★", "7–9 → 3★", "10 → 4★", "+2", "−2", "10",
			"🟥", "🟨", "🟦", "🟩", "/rules trickchef"},
		"sausages.rules": {"3–6", "🌭", "🥾", "/rules sausages"},
	}
	byLang := map[string]map[string][]string{
		Russian: {"sausages.rules": {"два успеха", "«2»"}},
		English: {"sausages.rules": {"two successes", "“2”"}},
	}
	for _, lang := range c.Langs() {
		for key, facts := range common {
			rules := c.T(lang, key, guideArgs...)
			for _, fact := range append(slices.Clone(facts), byLang[lang][key]...) {
				if !strings.Contains(rules, fact) {
					t.Errorf("%s/%s lacks %q", lang, key, fact)
				}
			}
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	c := newCatalog(t)
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				lang := c.Langs()[(g+i)%2]
				if got := c.T(lang, "count.coins", "Count", i); strings.HasPrefix(got, "count.") {
					t.Errorf("T(%s, count.coins, %d) = %q", lang, i, got)
				}
				_ = c.T(lang, "trickchef.rules")
			}
		}()
	}
	wg.Wait()
}

// checkTelegramHTML reports tags Telegram does not allow, unbalanced tags
// and a bare < > or & outside a tag or entity.
func checkTelegramHTML(s string) error {
	allowed := map[string]bool{
		"b": true, "strong": true, "i": true, "em": true, "u": true, "ins": true,
		"s": true, "strike": true, "del": true, "code": true, "pre": true,
		"a": true, "tg-spoiler": true, "blockquote": true, "span": true,
	}
	tagRE := regexp.MustCompile(`^<(/?)([a-z-]+)(\s[^<>]*)?>`)
	entRE := regexp.MustCompile(`^&(lt|gt|amp|quot|#[0-9]+|#x[0-9a-fA-F]+);`)
	var stack []string
	for i := 0; i < len(s); {
		switch s[i] {
		case '<':
			m := tagRE.FindStringSubmatch(s[i:])
			if m == nil {
				return fmt.Errorf("bare '<' at byte %d", i)
			}
			name := m[2]
			if !allowed[name] {
				return fmt.Errorf("tag <%s> not allowed by Telegram", name)
			}
			if m[1] == "/" {
				if len(stack) == 0 || stack[len(stack)-1] != name {
					return fmt.Errorf("unbalanced </%s> at byte %d", name, i)
				}
				stack = stack[:len(stack)-1]
			} else {
				stack = append(stack, name)
			}
			i += len(m[0])
		case '>':
			return fmt.Errorf("bare '>' at byte %d", i)
		case '&':
			m := entRE.FindString(s[i:])
			if m == "" {
				return fmt.Errorf("bare '&' at byte %d", i)
			}
			i += len(m)
		default:
			i++
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("unclosed tags %v", stack)
	}
	return nil
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

func TestKeys(t *testing.T) {
	c := newCatalog(t)
	keys := c.Keys()
	for _, want := range []string{
		"count.coins", "count.points", "count.cards", "count.tricks", "count.chefs",
		"count.stars", "count.seconds", "count.players", "trickchef.rules", "sausages.rules", "help.group", "help.private",
		"commands.newgame.menu", "commands.stop.menu", "commands.rules.menu", "commands.help.menu",
		"commands.lang.menu", "commands.table.menu", "commands.start.menu",
	} {
		if !slices.Contains(keys, want) {
			t.Errorf("key %q missing", want)
		}
	}
	if !slices.IsSorted(keys) {
		t.Error("Keys() not sorted")
	}
}
