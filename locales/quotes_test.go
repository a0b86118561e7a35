package locales

import (
	"regexp"
	"testing"
)

// TestRussianQuotes: Russian quotes are «ёлочки» (docs/glossary.md),
// nested ones too, never „лапки“, “English quotes” or "straight" ones
// (tags, whose attributes are quoted, are left out). An apostrophe
// belongs to an English word written in a Russian text («Choose the
// group's language» beside its Russian, in /lang), not to a quote.
func TestRussianQuotes(t *testing.T) {
	c := newCatalog(t)
	for _, key := range c.Keys() {
		for form, text := range forms(c.byLang[Russian].messages[key]) {
			if q := foreignQuotes(text); q != "" {
				t.Errorf("ru/%s (%s): %s in Russian, write «ёлочки»: %q", key, form, q, text)
			}
		}
	}
}

var (
	quoteMarksRE = regexp.MustCompile(`[„“”‟"‚‘’‛]`)
	apostropheRE = regexp.MustCompile(`\p{Latin}['’]\p{Latin}`)
)

// foreignQuotes names the first quote mark of text that is not a
// «ёлочка», or "".
func foreignQuotes(text string) string {
	text = tagRE.ReplaceAllString(text, "")
	text = apostropheRE.ReplaceAllString(text, "aa")
	if m := quoteMarksRE.FindString(text); m != "" {
		return "the quote mark " + m
	}
	if regexp.MustCompile(`'`).MatchString(text) {
		return "the quote mark '"
	}
	return ""
}

func TestRussianQuoteCheckCatches(t *testing.T) {
	for _, bad := range []string{`Нажмите „Начать“`, `Нажмите “Начать”`, `Нажмите "Начать"`, `Нажмите 'Начать'`} {
		if foreignQuotes(bad) == "" {
			t.Errorf("not caught: %q", bad)
		}
	}
	for _, good := range []string{`Нажмите «Начать»`, `<a href="https://t.me/x">ссылка</a>`, `Choose the group's language`, `«Игра «Чехарда» окончена»`} {
		if q := foreignQuotes(good); q != "" {
			t.Errorf("false alarm on %q: %s", good, q)
		}
	}
}
